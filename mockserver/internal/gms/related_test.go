package gms_test

import (
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestIncomingEdgesFollowIndex checks that incoming relationships are found
// through the search index's postings (as DataHub's graph index answers
// them): a write shows once the index has it (after the lag), while outgoing edges are
// read from the source's own aspects at once; both readers agree.
func TestIncomingEdgesFollowIndex(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	clk := &clock{now: time.UnixMilli(1_700_000_000_000)}
	c := newCore(t, gms.Options{Clock: clk.Now, AsyncLag: time.Second})
	const up = "urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)"
	const down = "urn:li:dataset:(urn:li:dataPlatform:hive,u,PROD)"
	p := upsert(down, "upstreamLineage", `{"upstreams":[{"dataset":"`+up+`","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}]}`)
	if err := c.Ingest(ctx, []gms.Proposal{p}, gms.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	count := func(urn string, incoming bool) int {
		t.Helper()
		pg, err := c.Relationships(ctx, urn, []string{"DownstreamOf"}, incoming, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		return pg.Total
	}
	if n := count(down, false); n != 1 {
		t.Errorf("outgoing before the index has the write = %d, want 1", n)
	}
	if n := count(up, true); n != 0 {
		t.Errorf("incoming before the index has the write = %d, want 0 (the graph index lags as DataHub's does)", n)
	}
	clk.Advance(time.Second)
	if n := count(up, true); n != 1 {
		t.Errorf("incoming once indexed = %d, want 1", n)
	}
	edges, err := c.Edges(ctx, gms.EdgeQuery{Destination: up})
	if err != nil {
		t.Fatal(err)
	}
	if len(edges) != 1 || edges[0].Source != down || edges[0].Type != "DownstreamOf" {
		t.Errorf("Edges(destination) = %+v", edges)
	}
}
