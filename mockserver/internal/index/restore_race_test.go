package index

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// TestRestoreUnderConcurrentWrites runs Restore while a writer changes the
// aspect it restores and a reader syncs the index: after the writer stops
// and the index syncs, the index holds the store's latest value, round after
// round (a restore that read a row before a newer write and indexed it after
// the newer write's event would leave the index older than the store).
func TestRestoreUnderConcurrentWrites(t *testing.T) {
	t.Parallel()
	const rounds, writes = 300, 20
	clk := &testClock{now: time.UnixMilli(1_700_000_000_000)}
	st := store.OpenMemory(clk.Now)
	x := New(st, Options{Clock: clk.Now})
	t.Cleanup(func() { x.Close(); _ = st.Close() })
	const u = "urn:li:corpuser:a"
	stale := 0
	for round := range rounds {
		var wg sync.WaitGroup
		done := make(chan struct{})
		wg.Go(func() {
			for i := range writes {
				put(t, st, u, "corpUserEditableInfo", fmt.Sprintf(`{"displayName":"%d-%d"}`, round, i))
			}
			close(done)
		})
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
					x.Sync()
				}
			}
		})
		wg.Go(func() {
			if _, err := x.Restore(RestoreArgs{URN: u, BatchSize: 10}); err != nil {
				t.Error(err)
			}
		})
		wg.Wait()
		x.Sync()
		a, err := st.Get(u, "corpUserEditableInfo", 0)
		if err != nil {
			t.Fatal(err)
		}
		d, ok := x.Get(EntityIndexName("corpuser"), u)
		if !ok || string(d.Aspects["corpUserEditableInfo"]) != string(a.Value) {
			stale++
		}
	}
	if stale != 0 {
		t.Errorf("in %d of %d rounds the index was older than the store after Restore and Sync", stale, rounds)
	}
}
