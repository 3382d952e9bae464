package index

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// BenchmarkFollow is the index following batches of 200 new versions of
// one aspect of 200 entities that have several aspects each, as the rules
// core's barrier does after a batched ingest: ns/row is the index's cost per
// written row (the store's writes are not timed).
func BenchmarkFollow(b *testing.B) {
	const n = 200
	clk := time.UnixMilli(1_700_000_000_000)
	st := store.OpenMemory(func() time.Time { return clk })
	x := New(st, Options{Clock: func() time.Time { return clk }})
	b.Cleanup(func() { x.Close(); _ = st.Close() })
	urns := make([]string, n)
	var setup []store.Write
	for i := range urns {
		urns[i] = fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:foo,bar%d,PROD)", i)
		for _, a := range [][2]string{
			{"datasetProperties", `{"name":"bar","description":"a table","customProperties":{"k":"v"}}`},
			{"status", `{"removed":false}`},
			{"globalTags", `{"tags":[{"tag":"urn:li:tag:t"}]}`},
			{"subTypes", `{"typeNames":["Table"]}`},
			{"ownership", `{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"lastModified":{"time":0,"actor":"urn:li:corpuser:a"}}`},
		} {
			setup = append(setup, store.Write{URN: urns[i], Aspect: a[0], Value: json.RawMessage(a[1]),
				KeyAspect: "datasetKey", KeyValue: json.RawMessage(`{"platform":"urn:li:dataPlatform:foo","name":"bar","origin":"PROD"}`)})
		}
	}
	if _, err := st.Apply(setup); err != nil {
		b.Fatal(err)
	}
	x.Follow()
	batches := [2][]store.Write{}
	for v, owner := range []string{"fbar", "fbaz"} {
		for _, u := range urns {
			batches[v] = append(batches[v], store.Write{URN: u, Aspect: "ownership",
				Value: json.RawMessage(`{"owners":[{"owner":"urn:li:corpuser:` + owner + `","type":"DATAOWNER"}],"lastModified":{"time":0,"actor":"urn:li:corpuser:a"}}`)})
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		if _, err := st.Apply(batches[i%2]); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		x.Follow()
	}
	b.StopTimer()
	if applied, _ := x.Stats(); applied != len(setup)+n+b.N*n {
		b.Fatalf("applied %d events, want %d", applied, len(setup)+n+b.N*n)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
}

// BenchmarkLineageLattice is a lineage search of 1,000 results over a lattice
// of 60 levels of 25 datasets, each downstream of every dataset of the level
// before: the deep ones have 100 paths of up to 60 URNs each.
func BenchmarkLineageLattice(b *testing.B) {
	x, src := seedLattice(b, 60, 25)
	b.ReportAllocs()
	for b.Loop() {
		r, err := x.SearchLineage(LineageQuery{URN: src, Query: Query{Count: 1000}})
		if err != nil || len(r.Hits) != 1000 {
			b.Fatalf("%d hits, %v", len(r.Hits), err)
		}
	}
}

// BenchmarkEntityDocumentMemory indexes 10,000 entities of two aspects each
// (one a status) and reports the heap the index keeps per entity document
// (B/doc), search documents not built.
func BenchmarkEntityDocumentMemory(b *testing.B) {
	const n = 10_000
	clk := time.UnixMilli(1_700_000_000_000)
	var setup []store.Write
	for i := range n {
		u := fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:foo,bar%d,PROD)", i)
		setup = append(setup,
			store.Write{URN: u, Aspect: "datasetProperties", Value: json.RawMessage(`{"name":"bar","description":"a table"}`)},
			store.Write{URN: u, Aspect: "status", Value: json.RawMessage(`{"removed":` + fmt.Sprint(i%10 == 0) + `}`)})
	}
	var perDoc float64
	for b.Loop() {
		st := store.OpenMemory(func() time.Time { return clk })
		if _, err := st.Apply(setup); err != nil {
			b.Fatal(err)
		}
		var x *Index
		kept := retained(func() { x = New(st, Options{Clock: func() time.Time { return clk }}) })
		perDoc = float64(kept) / n
		x.Close()
		_ = st.Close()
	}
	b.ReportMetric(perDoc, "B/doc")
}
