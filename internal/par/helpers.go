package par

import (
	"context"
	"runtime"
	"runtime/pprof"
	"sync/atomic"
	"time"
)

// The helpers are the goroutines that take the ranges of In's splits
// besides their callers. A helper that has run its ranges parks on the
// offers channel for the next split, and ends once parked for idleFor
// without one. Before, In started a goroutine for every range it offered:
// on a loaded machine such a goroutine waited milliseconds for a thread,
// by which time its caller had mostly run the range itself, and every
// split added another one to the run queue. Now a split finds at most
// GOMAXPROCS helpers, and when none of them waits (each one busy, or
// still on its way to an earlier split) it offers nothing: its caller runs
// its ranges alone without queueing another goroutine.
//
// Helpers do not spin before they park: spinning for 50 µs to 1 ms (with
// and without yielding) caught the next split in 1 to 5% of the splits of
// the mock's batched ingest on the loaded 2-core machine, and the share of
// ranges the helpers ran fell as the spin grew (from about 0.3 without to
// 0.1 at 200 µs), the spinning helper holding a core the other work
// needed.
//
// An offer reserves one waiting helper: waiting counts the helpers that
// wait minus the offers sent and not taken yet, so that an offer is only
// sent when a helper will take it, and a helper that would end first
// checks that no offer is on its way to it.
var (
	offers  = make(chan *split, maxHelpers) // never more offers than helpers waiting
	open    atomic.Pointer[split]           // the split made last, while its caller has not run out of ranges
	waiting atomic.Int32
	helpers atomic.Int32 // alive
)

// maxHelpers bounds the helpers alive (GOMAXPROCS bounds them first).
const maxHelpers = 256

// idleFor is how long, in nanoseconds, a helper stays parked without a
// split before it ends: 100 ms, long beside the gaps between the splits
// of a busy server's requests, short enough that a program's helpers are
// gone soon after its last batch (a test that checks for goroutines left
// behind, say). Tests shorten it.
var idleFor atomic.Int64

func init() { idleFor.Store(int64(100 * time.Millisecond)) }

// offer hands w to a helper: one that waits, else a new one if fewer than
// GOMAXPROCS are alive. It reports false when every helper is busy.
func offer(w *split) bool {
	for v := waiting.Load(); v > 0; v = waiting.Load() {
		if waiting.CompareAndSwap(v, v-1) {
			offers <- w
			return true
		}
	}
	limit := int32(min(runtime.GOMAXPROCS(0), maxHelpers))
	for n := helpers.Load(); n < limit; n = helpers.Load() {
		if helpers.CompareAndSwap(n, n+1) {
			go helper(w)
			return true
		}
	}
	return false
}

// helper runs the ranges of w, then of every split it is offered, until it
// ends (see the helpers above), or until a range ends its goroutine
// (runtime.Goexit: the range counts as returned, as on a goroutine of its
// own). It runs without the profiler labels of the goroutine that started
// it, which its later splits are none of.
func helper(w *split) {
	pprof.SetGoroutineLabels(context.Background())
	defer func() {
		if w != nil { // a range ended the goroutine
			helpers.Add(-1)
		}
	}()
	var t *time.Timer
	for w != nil {
		ran := w.work()
		// A helper that arrives late, its split's ranges all taken, goes
		// on to the split made last while that one has ranges left (the
		// same call's next split, mostly) instead of parking: its wake is
		// what costs, not the offer.
		for o := open.Load(); o != nil && o != w; o = open.Load() {
			w = o
			ran += w.work()
		}
		if ran > 0 {
			stats.helperRanges.Add(int64(ran))
		}
		waiting.Add(1)
		w = next(&t)
	}
}

// next waits for the next offer; nil means the helper has ended.
func next(t **time.Timer) *split {
	for {
		d := time.Duration(idleFor.Load())
		if *t == nil {
			*t = time.NewTimer(d)
		} else {
			(*t).Reset(d)
		}
		select {
		case w := <-offers:
			(*t).Stop()
			return w
		case <-(*t).C:
			if leave() {
				return nil
			}
		}
	}
}

// leave ends a waiting helper unless an offer is on its way to it (every
// waiting helper reserved): it reports whether the helper ended.
func leave() bool {
	for v := waiting.Load(); v > 0; v = waiting.Load() {
		if waiting.CompareAndSwap(v, v-1) {
			helpers.Add(-1)
			return true
		}
	}
	return false
}

// wait waits for the ranges of w that helpers run, counting the waits.
func (w *split) wait() {
	stats.splits.Add(1)
	stats.ranges.Add(int64(w.k))
	if w.done.Load() == w.k {
		return
	}
	start := time.Now()
	w.wg.Wait()
	stats.waits.Add(1)
	stats.waitNanos.Add(int64(time.Since(start)))
}

// stats are the counts Stats reports.
var stats struct {
	splits, ranges, helperRanges, waits, waitNanos atomic.Int64
}

// Statistics are counts of In's splits (of more than one range) since the
// process started, for benchmarks to report.
type Statistics struct {
	// Splits is the number of splits, Ranges the ranges they made and
	// HelperRanges the ranges helpers ran (the callers ran the rest).
	Splits, Ranges, HelperRanges int64
	// Waits is the number of splits whose caller, its own ranges done,
	// waited for a helper's range; WaitTime their total wait.
	Waits    int64
	WaitTime time.Duration
}

// Stats returns the counts so far.
func Stats() Statistics {
	return Statistics{Splits: stats.splits.Load(), Ranges: stats.ranges.Load(), HelperRanges: stats.helperRanges.Load(),
		Waits: stats.waits.Load(), WaitTime: time.Duration(stats.waitNanos.Load())}
}
