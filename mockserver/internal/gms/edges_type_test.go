package gms_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// TestEdgesByTypeFollowIndex: edges selected by type alone (no source, no
// destination; the OpenAPI relationship scrolls) come from the search
// index's postings, as DataHub's graph index answers them: a write shows
// once the index has it, an entity naming nothing is not read, and an
// aspect rewritten without the edge drops it.
func TestEdgesByTypeFollowIndex(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	clk := &clock{now: time.UnixMilli(1_700_000_000_000)}
	c := newCore(t, gms.Options{Clock: clk.Now, AsyncLag: time.Second})
	const up = "urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)"
	const down = "urn:li:dataset:(urn:li:dataPlatform:hive,u,PROD)"
	lineage := `{"upstreams":[{"dataset":"` + up + `","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}]}`
	ps := []gms.Proposal{upsert(down, "upstreamLineage", lineage), upsert(up, "status", `{"removed":false}`)}
	if err := c.Ingest(ctx, ps, gms.IngestOptions{Batch: true}); err != nil {
		t.Fatal(err)
	}
	edges := func() []gms.Edge {
		t.Helper()
		es, err := c.Edges(ctx, gms.EdgeQuery{Types: []string{"DownstreamOf"}, IncludeRemoved: true})
		if err != nil {
			t.Fatal(err)
		}
		return es
	}
	if es := edges(); len(es) != 0 {
		t.Errorf("before the index has the write: %+v, want none (the graph index lags as DataHub's does)", es)
	}
	clk.Advance(time.Second)
	want := gms.Edge{Type: "DownstreamOf", Source: down, Destination: up, Aspect: "upstreamLineage"}
	if es := edges(); len(es) != 1 || es[0] != want {
		t.Errorf("once indexed: %+v, want [%+v]", es, want)
	}
	if err := c.Ingest(ctx, []gms.Proposal{upsert(down, "upstreamLineage", `{"upstreams":[]}`)}, gms.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	if es := edges(); len(es) != 0 {
		t.Errorf("after the edge's aspect dropped it: %+v, want none", es)
	}
}

// BenchmarkEdgesByType is a type-only edge query on a store of 5,000
// datasets of which 10 have lineage: its cost follows the edges, not the
// store.
func BenchmarkEdgesByType(b *testing.B) {
	st := store.OpenMemory(nil)
	c := gms.New(st, gms.Options{})
	b.Cleanup(func() { _ = c.Close(); _ = st.Close() })
	var ps []gms.Proposal
	for i := range 5000 {
		u := fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,t%d,PROD)", i)
		ps = append(ps, upsert(u, "datasetProperties", `{"name":"t"}`))
		if i < 10 {
			ps = append(ps, upsert(u, "upstreamLineage", `{"upstreams":[{"dataset":"urn:li:dataset:(urn:li:dataPlatform:hive,src,PROD)","type":"TRANSFORMED"}]}`))
		}
	}
	if err := c.Ingest(b.Context(), ps, gms.IngestOptions{Batch: true}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		es, err := c.Edges(b.Context(), gms.EdgeQuery{Types: []string{"DownstreamOf"}, IncludeRemoved: true})
		if err != nil || len(es) != 10 {
			b.Fatal(len(es), err)
		}
	}
}
