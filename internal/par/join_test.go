package par

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestHelperJoinsOpenSplit: a helper that reaches its split after every
// range of it was taken goes on to the split made last instead of parking,
// and runs its ranges there.
func TestHelperJoinsOpenSplit(t *testing.T) {
	defer idleFor.Store(idleFor.Load())
	idleFor.Store(int64(5 * time.Millisecond))
	late := &split{k: 2, n: 2}
	late.next.Store(2) // every range taken: its caller ran them
	var ran [4]atomic.Int32
	next := &split{k: 4, n: 4, fn: func(c, lo, hi int) { ran[c].Add(1) }}
	next.wg.Add(4)
	open.Store(next)
	defer open.CompareAndSwap(next, nil)
	start := Stats()
	helpers.Add(1) // as offer counts the helper it starts
	go helper(late)
	done := make(chan struct{})
	go func() { next.wg.Wait(); close(done) }()
	select { // the helper runs them all: nobody else takes next's ranges
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the open split's ranges still not run 10 s after a late helper started")
	}
	for c := range ran {
		if got := ran[c].Load(); got != 1 {
			t.Errorf("range %d of the open split ran %d times, want 1", c, got)
		}
	}
	open.CompareAndSwap(next, nil)
	for deadline := time.Now().Add(10 * time.Second); helpers.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if n, w := helpers.Load(), waiting.Load(); n != 0 || w != 0 {
		t.Errorf("after the splits: %d helpers counted, %d waiting; want 0", n, w)
	}
	// A helper counts its ranges after running them (after next's wait
	// group is done) and before it can leave: read once it has left.
	if got := Stats().HelperRanges - start.HelperRanges; got != 4 {
		t.Errorf("helpers ran %d ranges, want 4", got)
	}
}
