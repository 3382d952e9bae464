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
	if got := Stats().HelperRanges - start.HelperRanges; got != 4 {
		t.Errorf("helpers ran %d ranges, want 4", got)
	}
	open.CompareAndSwap(next, nil)
	for deadline := time.Now().Add(10 * time.Second); helpers.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if n, w := helpers.Load(), waiting.Load(); n != 0 || w != 0 {
		t.Errorf("after the splits: %d helpers counted, %d waiting; want 0", n, w)
	}
}

// TestHandOff: a helper of a lone call (the only one between Enter and
// Leave) waiting for its next split takes it once it opens; it stops
// waiting when another call enters, and one helper waits at a time.
func TestHandOff(t *testing.T) {
	defer handOffFor.Store(handOffFor.Load())
	handOffFor.Store(int64(time.Minute)) // only the events below end a wait
	w, w2 := &split{k: 2, n: 2}, &split{k: 2, n: 2}
	w.next.Store(2)
	Enter()
	got := make(chan *split)
	go func() { got <- handOff(w) }()
	for !handing.Load() {
		time.Sleep(time.Microsecond)
	}
	if o := handOff(w); o != nil {
		t.Errorf("a second helper waited and took %p while one waits", o)
	}
	open.Store(w) // its own split again: no hand-off
	time.Sleep(time.Millisecond)
	open.Store(w2)
	if o := <-got; o != w2 {
		t.Errorf("handOff = %p, want the next split %p", o, w2)
	}
	open.CompareAndSwap(w2, nil)

	go func() { got <- handOff(w) }()
	for !handing.Load() {
		time.Sleep(time.Microsecond)
	}
	Enter() // another call: the calls share the cores, nobody waits
	if o := <-got; o != nil {
		t.Errorf("handOff = %p with two calls in flight, want nil", o)
	}
	Leave()
	Leave()
	if o := handOff(w); o != nil { // no call in flight
		t.Errorf("handOff = %p with no call in flight, want nil", o)
	}
	if handing.Load() {
		t.Error("handing still set after the waits")
	}
}
