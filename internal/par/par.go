// Package par runs the independent parts of one call's work on the
// machine's cores: the mock decodes, validates and makes store rows of a
// batch's proposals in chunks, and the emitter encodes a batch's proposals
// in chunks, one goroutine per core, so that even one client's batch uses
// them all. Calls that run at the same time share the cores (Enter).
package par

import (
	"runtime"
	"sync/atomic"
)

// MinChunk is the fewest items a chunk gets: below twice that a batch is
// worked through on the caller's goroutine alone, where a goroutine would
// cost more than it saves.
const MinChunk = 32

// Count is the number of ranges Chunks makes of n items: one per core
// (GOMAXPROCS) the other calls in flight leave free (see Enter), none of
// fewer than minChunk items, at least one.
func Count(n, minChunk int) int {
	free := runtime.GOMAXPROCS(0) - max(int(working.Load())-1, 0)
	return max(1, min(free, n/max(minChunk, 1)))
}

// working is the number of calls between Enter and Leave.
var working atomic.Int32

// Enter marks the start of one call's work that splits into ranges (a
// server's request, say) and Leave its end. While several calls are in
// flight, Count leaves each the cores the others do not take: with as many
// calls as cores, each works through its items on its own goroutine. The
// cores are busy with the calls either way, and a call that split its work
// would wait at the end of every split for a range queued behind the other
// calls' work. Count takes its caller for one of the calls in flight.
func Enter() { working.Add(1) }

// Leave marks the end of a call's work that Enter marked.
func Leave() { working.Add(-1) }

// Chunks calls fn for consecutive ranges [lo, hi), the c-th of them (from
// 0) with c, that cover [0, n) once, as many as Count gives, on the
// caller's goroutine and goroutines of their own (see In); it returns once
// every call has. fn must be safe to call concurrently for different
// ranges. It returns the number of ranges.
func Chunks(n, minChunk int, fn func(c, lo, hi int)) int {
	k := Count(n, minChunk)
	In(k, n, fn)
	return k
}

// In is Chunks making k ranges (at most n, at least 1): the same k and n
// give the same ranges. The caller's goroutine and k-1 goroutines started
// for the call take the ranges in order, each range once, until none is
// left: a range no goroutine has taken when the caller's is done is the
// caller's next, so that a goroutine that starts late (its core busy with
// other work) leaves the caller nothing to wait for but ranges already
// running. A panic in fn reaches the caller once every range has returned
// (the first range's panic, in range order), so that no range still runs
// when the caller unwinds.
func In(k, n int, fn func(c, lo, hi int)) {
	k = max(1, min(k, n))
	if k <= 1 {
		if n > 0 {
			fn(0, 0, n)
		}
		return
	}
	w := &split{k: int32(k), n: n, fn: fn, panics: make([]any, k), all: make(chan struct{})}
	for range k - 1 {
		go w.work()
	}
	w.work()
	if w.done.Load() < w.k {
		<-w.all // ranges that other goroutines run
	}
	for _, v := range w.panics {
		if v != nil {
			panic(v)
		}
	}
}

// split is the state of one call of In.
type split struct {
	k      int32
	n      int
	fn     func(c, lo, hi int)
	next   atomic.Int32  // the next range to take
	done   atomic.Int32  // the ranges returned
	panics []any         // by range
	all    chan struct{} // closed when the last range returns
}

// work runs the ranges nobody took yet, one after the other.
func (w *split) work() {
	for {
		c := w.next.Add(1) - 1
		if c >= w.k {
			return
		}
		w.run(int(c))
	}
}

// run runs range c, keeping its panic.
func (w *split) run(c int) {
	defer func() {
		w.panics[c] = recover()
		if w.done.Add(1) == w.k {
			close(w.all)
		}
	}()
	k := int(w.k)
	w.fn(c, c*w.n/k, (c+1)*w.n/k)
}
