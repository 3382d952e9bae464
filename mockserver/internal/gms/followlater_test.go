package gms

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// TestFollowLater: a write with FollowLater leaves the index's catch-up of
// a long backlog to its caller (the changes stay pending after Ingest
// returns, where a write without it catches up first), a search still
// sees every write, and Follow then catches up.
func TestFollowLater(t *testing.T) {
	t.Parallel()
	for _, later := range []bool{false, true} {
		t.Run(fmt.Sprint("later=", later), func(t *testing.T) {
			t.Parallel()
			st := store.OpenMemory(nil)
			c := New(st, Options{NoDefaultAspects: true})
			t.Cleanup(func() { c.Close(); st.Close() })
			ctx := context.Background()
			batch := func(n, from int, desc string) []Proposal {
				ps := make([]Proposal, n)
				for i := range ps {
					ps[i] = Proposal{EntityType: "dataset", ChangeType: "UPSERT", AspectName: "datasetProperties",
						EntityURN:   fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.t%05d,PROD)", from+i),
						Aspect:      json.RawMessage(`{"description":"` + desc + `","customProperties":{}}`),
						ContentType: "application/json"}
				}
				return ps
			}
			const n = 5000 // more than the index's followAt (4096) changes
			if err := c.Ingest(ctx, batch(n, 0, "one"), IngestOptions{Batch: true, FollowLater: later}); err != nil {
				t.Fatal(err)
			}
			before := c.ix.Pending()
			if !c.FollowDue() {
				t.Fatalf("after %d writes: FollowDue = false, want true", n)
			}
			if err := c.Ingest(ctx, batch(1, n, "two"), IngestOptions{Batch: true, FollowLater: later}); err != nil {
				t.Fatal(err)
			}
			pending := c.ix.Pending()
			if later != (pending > before) { // without FollowLater, the write's barrier caught up
				t.Errorf("changes pending: %d after the first write, %d after the second", before, pending)
			}
			if later {
				c.Follow()
				if p := c.ix.Pending(); p != 0 || c.FollowDue() {
					t.Errorf("after Follow: %d changes pending, FollowDue %v; want 0, false", p, c.FollowDue())
				}
			}
			res, err := c.Search(ctx, Query{Types: []string{"dataset"}, Text: "two", Count: 10})
			if err != nil || res.Total != 1 {
				t.Errorf("search for the last write: %+v, %v; want 1 hit", res, err)
			}
			res, err = c.Search(ctx, Query{Types: []string{"dataset"}, Text: "*", Count: 1})
			if err != nil || res.Total != n+1 {
				t.Errorf("search for every write: total %d, %v; want %d", res.Total, err, n+1)
			}
		})
	}
}
