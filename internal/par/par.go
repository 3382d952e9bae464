// Package par runs the independent parts of one call's work on the
// machine's cores: the mock decodes, validates and makes store rows of a
// batch's proposals in chunks, and the emitter encodes a batch's proposals
// in chunks (rangesPerCore for each core), taken by one goroutine per core,
// so that even one client's batch uses them all. Calls that run at the same time
// share the cores (Enter). The goroutines that take ranges besides their
// callers are long-lived helpers (see helpers.go) that park between splits.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// MinChunk is the fewest items a core gets: below twice that a batch is
// worked through on the caller's goroutine alone, where a helper would
// cost more than it saves.
const MinChunk = 32

// rangesPerCore is how many ranges Count makes for each core a call may
// use. A split offers its ranges in order to whoever is free: the caller
// starts on the first, and a helper woken for the split (tens of
// microseconds to milliseconds later, its core's thread asleep) takes the
// next one nobody has started. With one range per core the caller has
// mostly run the second half by the time its helper arrives; with several
// a late helper still takes a share of what is left. But each range costs
// its caller's per-range state afresh (the mock's batch ingest keeps memos
// of the last proposal's values per range), and on the loaded 2-core
// machine two or four a core made the mock's lone batch slower than one
// (a helper whose thread lost its core in the middle of a range held the
// caller up), while a late helper going on to the next split (see In)
// raised the helpers' share as much: one.
const rangesPerCore = 1

// Count is the number of ranges Chunks makes of n items: rangesPerCore for
// each core (GOMAXPROCS) the other calls in flight leave free (see Enter),
// as long as each core gets minChunk items and each range
// minChunk/rangesPerCore; one when only one core would (fewer than
// 2*minChunk items, or no other core free).
func Count(n, minChunk int) int {
	minChunk = max(minChunk, 1)
	free := runtime.GOMAXPROCS(0) - max(int(working.Load())-1, 0)
	cores := max(1, min(free, n/minChunk))
	if cores == 1 {
		return 1
	}
	return min(cores*rangesPerCore, n/max(minChunk/rangesPerCore, 1))
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
// caller's goroutine and helper goroutines (see In); it returns once every
// call has. fn must be safe to call concurrently for different ranges. It
// returns the number of ranges.
func Chunks(n, minChunk int, fn func(c, lo, hi int)) int {
	k := Count(n, minChunk)
	In(k, n, fn)
	return k
}

// In is Chunks making k ranges (at most n, at least 1): the same k and n
// give the same ranges. The caller's goroutine and the helpers take the
// ranges in order, each range once, until none is left: a range no helper
// has taken when the caller's is done is the caller's next, so that a
// helper that starts late (its core busy with other work, or its thread
// asleep) leaves the caller nothing to wait for but ranges already
// running. A split wakes one helper for each rangesPerCore of its ranges
// past the first rangesPerCore (one at least): one for each other core,
// when k came from Count. The helpers are goroutines the package keeps (at
// most GOMAXPROCS of them), parked between splits, that end once parked
// for 100 ms without one; when no helper waits (every one busy, or still
// on its way to an earlier split), the caller runs more of its own ranges,
// and a helper that arrives after its split's ranges were all taken goes on
// to the split made last, if that one has ranges left. A panic in fn
// reaches the caller once every range has returned (the first range's
// panic, in range order), so that no range still runs when the caller
// unwinds.
func In(k, n int, fn func(c, lo, hi int)) {
	k = max(1, min(k, n))
	if k <= 1 {
		if n > 0 {
			fn(0, 0, n)
		}
		return
	}
	w := &split{k: int32(k), n: n, fn: fn}
	w.wg.Add(k)
	open.Store(w)
	for range max((k+rangesPerCore-1)/rangesPerCore-1, 1) { // a helper for each other core
		if !offer(w) {
			break
		}
	}
	w.work()
	open.CompareAndSwap(w, nil) // nothing left to take
	w.wait()
	w.fn = nil // a helper that takes this split late finds no range and never reads it
	if w.panicked {
		panic(w.panicValue)
	}
}

// split is the state of one call of In.
type split struct {
	k    int32
	n    int
	fn   func(c, lo, hi int)
	next atomic.Int32   // the next range to take
	done atomic.Int32   // the ranges returned
	wg   sync.WaitGroup // the ranges not returned yet, for a caller that waits

	mu         sync.Mutex // guards the panic
	panicked   bool
	panicRange int // the range of panicValue: the lowest that panicked
	panicValue any
}

// work runs the ranges nobody took yet, one after the other; it returns
// how many it ran.
func (w *split) work() int {
	ran := 0
	for {
		c := w.next.Add(1) - 1
		if c >= w.k {
			return ran
		}
		w.run(int(c))
		ran++
	}
}

// run runs range c, keeping its panic.
func (w *split) run(c int) {
	defer func() {
		if v := recover(); v != nil {
			w.mu.Lock()
			if !w.panicked || c < w.panicRange {
				w.panicked, w.panicRange, w.panicValue = true, c, v
			}
			w.mu.Unlock()
		}
		w.done.Add(1)
		w.wg.Done()
	}()
	k := int(w.k)
	w.fn(c, c*w.n/k, (c+1)*w.n/k)
}
