package store

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
)

// benchValue is a datasetProperties value of typical size.
const benchValue = `{"customProperties":{"owner":"team-a","tier":"gold"},"name":"t","description":"a table of things, version %d","tags":[]}`

func benchStores(b *testing.B, run func(b *testing.B, s *Store)) {
	for _, kind := range []string{"memory", "bolt"} {
		b.Run(kind, func(b *testing.B) {
			var s *Store
			if kind == "memory" {
				s = OpenMemory(nil)
			} else {
				var err error
				if s, err = OpenBolt(filepath.Join(b.TempDir(), "bench.db"), nil); err != nil {
					b.Fatal(err)
				}
			}
			defer s.Close()
			run(b, s)
		})
	}
}

// BenchmarkApplySingle writes one new version of one aspect per Apply.
func BenchmarkApplySingle(b *testing.B) {
	benchStores(b, func(b *testing.B, s *Store) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			if _, err := s.Apply([]Write{upsert(fmt.Sprintf(benchValue, i))}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkApplyBatch200 writes 200 aspects of 200 entities per Apply, the
// Python emitter's largest batch.
func BenchmarkApplyBatch200(b *testing.B) {
	benchStores(b, func(b *testing.B, s *Store) {
		b.ReportAllocs()
		batch := make([]Write, 200)
		n := 0
		for b.Loop() {
			n++
			for i := range batch {
				batch[i] = Write{URN: fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.t%d,PROD)", i),
					Aspect: props, Value: json.RawMessage(fmt.Sprintf(benchValue, n)),
					KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)}
			}
			if _, err := s.Apply(batch); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(batch)), "ns/write")
	})
}

// BenchmarkGetLatest reads version 0 of one aspect.
func BenchmarkGetLatest(b *testing.B) {
	benchStores(b, func(b *testing.B, s *Store) {
		if _, err := s.Apply([]Write{upsert(fmt.Sprintf(benchValue, 1))}); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Get(dsURN, props, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}
