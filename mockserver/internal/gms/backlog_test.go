package gms_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestWriteBacklogBound: writers wait while the changes not yet indexed
// pass the index's backlog bound (here 10 events, with an index lag of an
// hour on a test clock): a write whose request ends while it waits is
// refused and changes nothing; a waiting writer resumes once the index
// catches up; every acknowledged write is stored and indexed. It failed
// before the backlog was bounded: writers never waited.
func TestWriteBacklogBound(t *testing.T) {
	t.Parallel()
	clk := &clock{now: time.UnixMilli(1_700_000_000_000)}
	// Without the default aspects of a new entity, so that each write is
	// two events.
	c := newCore(t, gms.Options{Clock: clk.Now, AsyncLag: time.Hour, IndexMaxBacklogEvents: 10, NoDefaultAspects: true})
	urn := func(i int) string { return fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,w%03d,PROD)", i) }
	write := func(ctx context.Context, i int) error {
		return c.Ingest(ctx, []gms.Proposal{{EntityType: "dataset", EntityURN: urn(i), ChangeType: "UPSERT",
			AspectName: "status", ContentType: "application/json", Aspect: json.RawMessage(`{"removed":false}`)}}, gms.IngestOptions{})
	}
	ended, cancel := context.WithCancel(t.Context())
	cancel()
	// Each write adds two events (key and status): the first five are
	// within the bound and do not wait, even for an ended request.
	n := 5
	for i := range n {
		if err := write(ended, i); err != nil {
			t.Fatalf("write %d within the bound: %v", i, err)
		}
	}
	// A write whose request has ended while the backlog is full is refused.
	if err := write(ended, 999); !errors.Is(err, context.Canceled) && kindOf(err) != gms.Internal {
		t.Errorf("write with the backlog full and its request ended: %v", err)
	}
	if ok, _ := c.Exists(t.Context(), urn(999)); ok {
		t.Error("a refused write was stored")
	}
	// A writer waits, and resumes once the changes fall due.
	done := make(chan error, 1)
	go func() { done <- write(context.Background(), n) }()
	clk.Advance(2 * time.Hour)
	if err := <-done; err != nil {
		t.Fatalf("the waiting write: %v", err)
	}
	clk.Advance(2 * time.Hour) // the last write's changes fall due
	for i := range n + 1 {
		if c.IndexedAspects(urn(i)) == nil {
			t.Errorf("write %d not indexed", i)
		}
	}
}
