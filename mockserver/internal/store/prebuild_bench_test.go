package store

import (
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkBegin measures the part of Apply before the writer lock for a
// batch of 200 writes, each of its own dataset's aspect (prepare and
// preBuild: the rows built on the latest rows), and nothing under the
// lock: the batch is released uncommitted, so that every iteration builds
// on the same rows. "same-sm" writes carry one systemMetadata onto rows of
// one systemMetadata; "distinct-sm" each its own (a lastObserved of its
// own) onto rows of their own; "unchanged" writes the stored values again
// with the systemMetadata that wrote them.
func BenchmarkBegin(b *testing.B) {
	const n = 200
	batch := func(v int, distinct bool) []Write {
		ws := make([]Write, n)
		for i := range ws {
			observed := 5
			if distinct {
				observed = 1000*v + i
			}
			ws[i] = Write{URN: scaleURN(i), Aspect: props, Value: json.RawMessage(fmt.Sprintf(benchValue, v)),
				KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV), Compact: true,
				SystemMetadata: json.RawMessage(fmt.Sprintf(`{"runId":"r","lastObserved":%d,"properties":{"clientId":"x"}}`, observed))}
		}
		return ws
	}
	for _, c := range []struct {
		name      string
		distinct  bool
		unchanged bool
	}{{"same-sm", false, false}, {"distinct-sm", true, false}, {"unchanged", false, true}} {
		b.Run(c.name, func(b *testing.B) {
			s := OpenMemory(nil)
			b.Cleanup(func() { _ = s.Close() })
			for v := range 3 {
				if _, err := s.Apply(batch(v, c.distinct)); err != nil {
					b.Fatal(err)
				}
			}
			ws := batch(3, c.distinct)
			if c.unchanged {
				ws = batch(2, c.distinct)
			}
			b.ReportAllocs()
			for b.Loop() {
				a := s.begin(ws)
				a.release()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/write")
		})
	}
}
