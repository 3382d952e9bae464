package gms_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestSearchSeesWritesWhileIndexFollows: writers ingest batches (enough
// for the search index's follower goroutine to catch up many times while
// they go on) and each searches for its own latest write right after it:
// every search finds it, with the value just written, whatever catch-up
// is in flight (run with -race).
func TestSearchSeesWritesWhileIndexFollows(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{})
	ctx := context.Background()
	const writers, rounds, batch = 4, 6, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			own := fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,own.w%d,PROD)", w)
			for r := range rounds {
				token := fmt.Sprintf("tokw%dr%d", w, r)
				ps := make([]gms.Proposal, 0, batch)
				for i := range batch - 1 {
					u := fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,fill.w%d.r%d.t%d,PROD)", w, r, i)
					ps = append(ps, upsert(u, "datasetProperties", `{"description":"filler","customProperties":{}}`))
				}
				ps = append(ps, upsert(own, "datasetProperties", `{"description":"`+token+`","customProperties":{}}`))
				if err := c.Ingest(ctx, ps, gms.IngestOptions{}); err != nil {
					t.Error(err)
					return
				}
				res, err := c.Search(ctx, gms.Query{Types: []string{"dataset"}, Text: token, Count: 10,
					SkipAggregates: true, WithAspects: true})
				if err != nil {
					t.Error(err)
					return
				}
				if len(res.Hits) != 1 || res.Hits[0].URN != own ||
					!strings.Contains(string(res.Hits[0].Aspects["datasetProperties"]), token) {
					t.Errorf("writer %d round %d: search for %s = %d hits %+v, want %s", w, r, token, len(res.Hits), res.Hits, own)
					return
				}
			}
		})
	}
	wg.Wait()
	res, err := c.Search(ctx, gms.Query{Types: []string{"dataset"}, Text: "*", Count: 1, SkipAggregates: true})
	if want := writers + writers*rounds*(batch-1); err != nil || res.Total != want {
		t.Errorf("datasets = %d (%v), want %d", res.Total, err, want)
	}
}
