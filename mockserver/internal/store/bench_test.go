package store

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"
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

// scaleStore returns a memory store holding n datasets (key aspect and
// datasetProperties each), written in batches of 1,000.
func scaleStore(b *testing.B, n int) *Store {
	b.Helper()
	s := OpenMemory(nil)
	b.Cleanup(func() { _ = s.Close() })
	batch := make([]Write, 0, 1000)
	for i := range n {
		batch = append(batch, Write{URN: scaleURN(i), Aspect: props, Value: json.RawMessage(fmt.Sprintf(benchValue, 0)),
			KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)})
		if len(batch) == cap(batch) || i == n-1 {
			if _, err := s.Apply(batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	return s
}

func scaleURN(i int) string {
	return fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.table_%06d,PROD)", i)
}

// BenchmarkScaleInterleaved writes one new version of one entity's aspect
// and reads the entity back (Latest, as GET /entitiesV2 does) in a memory
// store of 1,000 entities and in one of 100,000, in turns, and reports both
// and their ratio ratio-100k/1k (1 means the size costs nothing).
func BenchmarkScaleInterleaved(b *testing.B) {
	const small, large = 1_000, 100_000
	stores := [2]*Store{scaleStore(b, small), scaleStore(b, large)}
	sizes := [2]int{small, large}
	var spent [2]time.Duration
	call := 0
	for b.Loop() {
		call++
		for k, s := range stores {
			start := time.Now()
			u := scaleURN(call * 7919 % sizes[k])
			w := Write{URN: u, Aspect: props, Value: json.RawMessage(fmt.Sprintf(benchValue, call)), KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)}
			if _, err := s.Apply([]Write{w}); err != nil {
				b.Fatal(err)
			}
			if rows, err := s.Latest(u); err != nil || len(rows) != 2 {
				b.Fatalf("Latest(%s) = %d rows, %v", u, len(rows), err)
			}
			spent[k] += time.Since(start)
		}
	}
	b.ReportMetric(float64(spent[0].Nanoseconds())/float64(b.N), "1k-ns/op")
	b.ReportMetric(float64(spent[1].Nanoseconds())/float64(b.N), "100k-ns/op")
	b.ReportMetric(float64(spent[1])/float64(spent[0]), "ratio-100k/1k")
}

// BenchmarkApplySubscribed is BenchmarkApplySingle on a memory store with
// zero or one subscription that a consumer goroutine drains: the cost of
// recording and publishing change events.
func BenchmarkApplySubscribed(b *testing.B) {
	for _, subs := range []int{0, 1} {
		b.Run(fmt.Sprintf("subscriptions=%d", subs), func(b *testing.B) {
			s := OpenMemory(nil)
			defer s.Close()
			done := make(chan struct{})
			if subs > 0 {
				sub := s.Subscribe()
				go func() {
					defer close(done)
					for {
						if _, err := sub.Next(context.Background()); err != nil {
							return
						}
					}
				}()
			} else {
				close(done)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				if _, err := s.Apply([]Write{upsert(fmt.Sprintf(benchValue, i))}); err != nil {
					b.Fatal(err)
				}
			}
			_ = s.Close()
			<-done
		})
	}
}
