package gms

import (
	"context"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// BenchmarkDefaultWritesExisting is defaultWrites over a batch of 200
// writes to datasets that already exist (the usual batch after the first):
// one existence lookup per write and no default aspect.
func BenchmarkDefaultWritesExisting(b *testing.B) {
	const n = 200
	st := store.OpenMemory(nil)
	c := New(st, Options{})
	b.Cleanup(func() {
		_ = c.Close()
		_ = st.Close()
	})
	ps := benchProposals(n)
	if err := c.Ingest(context.Background(), ps, IngestOptions{}); err != nil {
		b.Fatal(err)
	}
	ws := make([]store.Write, n)
	for i, p := range ps {
		ws[i] = store.Write{URN: p.EntityURN, Aspect: p.AspectName, Value: p.Aspect, KeyAspect: "datasetKey"}
	}
	b.ReportAllocs()
	for b.Loop() {
		if extra, _ := c.defaultWrites(ws); len(extra) != 0 {
			b.Fatalf("%d default aspects for existing entities", len(extra))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/write")
}
