package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// TestWriteBacklogBound: writers wait while the changes not yet indexed
// pass the index's backlog bound (here 10 events, with an index lag of an
// hour on a test clock): a write whose request ends while it waits is
// refused and changes nothing; a waiting writer resumes once the index
// catches up; every acknowledged write is stored and indexed, and the
// drained backlog gives its memory back. It failed before: nothing bounded
// the backlog, writers never waited.
func TestWriteBacklogBound(t *testing.T) {
	t.Parallel()
	clk := &testClock{now: time.UnixMilli(1_700_000_000_000)}
	st := store.OpenMemory(clk.Now)
	x := New(st, Options{Clock: clk.Now, Lag: time.Hour, MaxBacklogEvents: 10})
	core := gms.New(st, gms.Options{Clock: clk.Now, Follow: x.Follow, Backpressure: x.WaitBacklog})
	t.Cleanup(func() { x.Close(); _ = core.Close(); _ = st.Close() })
	write := func(ctx context.Context, i int) error {
		return core.Ingest(ctx, []gms.Proposal{{EntityType: "dataset", EntityURN: ds(fmt.Sprintf("w%03d", i)), ChangeType: "UPSERT",
			AspectName: "status", ContentType: "application/json", Aspect: json.RawMessage(`{"removed":false}`)}}, gms.IngestOptions{})
	}
	n := 0
	for ; ; n++ { // each write adds two events (key and status): the bound is passed after five
		if events, _ := x.sub.Backlog(); events >= 10 {
			break
		}
		if err := write(t.Context(), n); err != nil {
			t.Fatalf("write %d: %v", n, err)
		}
	}
	if n != 5 {
		t.Fatalf("the backlog passed its bound after %d writes, want 5", n)
	}
	// A write whose request has ended while the backlog is full is refused.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := write(ctx, 999); !errors.Is(err, context.Canceled) && !stoppedErr(err) {
		t.Errorf("write with the backlog full and its request ended: %v", err)
	}
	if st.Exists(ds("w999")) {
		t.Error("a refused write was stored")
	}
	// A writer waits, and resumes once the changes fall due.
	done := make(chan error, 1)
	go func() { done <- write(context.Background(), n) }()
	clk.Add(2 * time.Hour)
	if err := <-done; err != nil {
		t.Fatalf("the waiting write: %v", err)
	}
	clk.Add(2 * time.Hour) // the last write's changes fall due
	x.Sync()
	if events, bytes := x.sub.Backlog(); events != 0 || bytes != 0 {
		t.Errorf("backlog after catching up: %d events, %d bytes", events, bytes)
	}
	for i := range n + 1 {
		if _, ok := x.Get(EntityIndexName("dataset"), ds(fmt.Sprintf("w%03d", i))); !ok {
			t.Errorf("write %d not indexed", i)
		}
	}
}

func stoppedErr(err error) bool {
	var e *gms.Error
	return errors.As(err, &e) && e.Kind == gms.Internal
}
