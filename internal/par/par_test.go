package par

import (
	"context"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestChunks: the ranges cover every item once, in order, rangesPerCore
// for each core when the items are enough (each core minChunk of them,
// each range minChunk/rangesPerCore), in one otherwise.
func TestChunks(t *testing.T) {
	t.Parallel()
	procs := runtime.GOMAXPROCS(0)
	split := func(cores, n, grain int) int { // the ranges on cores cores
		if cores = min(procs, cores); cores <= 1 {
			return 1
		}
		return min(cores*rangesPerCore, n/grain)
	}
	for _, tc := range []struct{ n, min, want int }{
		{0, 32, 1}, {1, 32, 1}, {63, 32, 1}, {64, 32, split(2, 64, 32/rangesPerCore)},
		{200, 32, split(6, 200, 32/rangesPerCore)}, {200, 0, split(200, 200, 1)}, {5, 1, split(5, 5, 1)},
		{5, 2, split(2, 5, 2/rangesPerCore)}, {1000, 32, split(31, 1000, 32/rangesPerCore)},
	} {
		seen := make([]atomic.Int32, tc.n)
		var calls atomic.Int32
		los := make([]atomic.Int32, max(tc.want, 1)) // chunk c's lo + 1
		got := Chunks(tc.n, tc.min, func(c, lo, hi int) {
			calls.Add(1)
			los[c].Store(int32(lo + 1))
			if lo >= hi {
				t.Errorf("n %d: empty range [%d, %d)", tc.n, lo, hi)
			}
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		if got != tc.want || (tc.n > 0 && int(calls.Load()) != got) {
			t.Errorf("Chunks(%d, %d) = %d ranges, %d calls; want %d", tc.n, tc.min, got, calls.Load(), tc.want)
		}
		for c := 1; c < got && tc.n > 0; c++ { // the chunks in order
			if los[c].Load() <= los[c-1].Load() {
				t.Errorf("n %d: chunk %d starts at %d, chunk %d at %d", tc.n, c, los[c].Load()-1, c-1, los[c-1].Load()-1)
			}
		}
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Errorf("n %d: item %d covered %d times", tc.n, i, c)
			}
		}
	}
}

// TestInPanics checks that a panic in one range reaches the caller only
// after every range has returned.
func TestInPanics(t *testing.T) {
	t.Parallel()
	for _, bad := range []int{0, 3} { // a goroutine's range, the caller's range
		var done atomic.Int32
		got := func() (v any) {
			defer func() { v = recover() }()
			In(4, 100, func(c, lo, hi int) {
				if c == bad {
					panic("boom")
				}
				done.Add(1)
			})
			return nil
		}()
		if got != "boom" || done.Load() != 3 {
			t.Errorf("range %d panics: recovered %v with %d other ranges done, want boom and 3", bad, got, done.Load())
		}
	}
}

// TestCountShares: while other calls are in flight (Enter), Count gives a
// call only the cores they leave, rangesPerCore ranges for each, one range
// when only one core is left.
func TestCountShares(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, tc := range []struct{ others, want int }{{0, 4 * rangesPerCore}, {1, 3 * rangesPerCore}, {2, 2 * rangesPerCore}, {3, 1}, {6, 1}} {
		Enter() // the caller
		for range tc.others {
			Enter()
		}
		if got := Count(1000, 1); got != tc.want {
			t.Errorf("%d other calls in flight on 4 cores: Count = %d, want %d", tc.others, got, tc.want)
		}
		for range tc.others + 1 {
			Leave()
		}
	}
	if got := Count(1000, 1); got != 4*rangesPerCore {
		t.Errorf("after every call left: Count = %d, want %d", got, 4*rangesPerCore)
	}
}

// TestInCallerTakesAll: when the goroutines In starts cannot run (one core,
// busy with the caller, which does not block), the caller runs every range
// itself, in order, and returns without waiting for them. (The runtime may
// still preempt the caller after 10 ms, on a loaded machine, and let a
// goroutine take a range: one call of several attempts must show the order.)
func TestInCallerTakesAll(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	want := []int{0, 1, 2, 3}
	var got []int
	for range 20 {
		var order [4]atomic.Int32 // the range run i-th, plus 1
		var calls atomic.Int32
		In(4, 100, func(c, lo, hi int) {
			order[calls.Add(1)-1].Store(int32(c + 1))
		})
		got = got[:0]
		for i := range order {
			got = append(got, int(order[i].Load())-1)
		}
		if slices.Equal(got, want) {
			return
		}
	}
	t.Errorf("ranges run in the order %v, want %v", got, want)
}

// TestInConcurrentOnce: splits of many callers at once, more than the
// helpers, each run every range exactly once with its own bounds.
func TestInConcurrentOnce(t *testing.T) {
	t.Parallel()
	const callers, rounds = 8, 200
	var wg sync.WaitGroup
	for g := range callers {
		wg.Go(func() {
			for r := range rounds {
				k, n := 2+(g+r)%4, 50+r
				var calls [6]atomic.Int32
				seen := make([]atomic.Int32, n)
				In(k, n, func(c, lo, hi int) {
					calls[c].Add(1)
					if lo != c*n/k || hi != (c+1)*n/k {
						t.Errorf("k %d n %d: range %d is [%d, %d)", k, n, c, lo, hi)
					}
					for i := lo; i < hi; i++ {
						seen[i].Add(1)
					}
				})
				for c := range k {
					if got := calls[c].Load(); got != 1 {
						t.Errorf("k %d n %d: range %d ran %d times", k, n, c, got)
					}
				}
				for i := range seen {
					if got := seen[i].Load(); got != 1 {
						t.Errorf("k %d n %d: item %d covered %d times", k, n, i, got)
					}
				}
			}
		})
	}
	wg.Wait()
	if n, limit := helpers.Load(), int32(runtime.GOMAXPROCS(0)); n > limit {
		t.Errorf("%d helpers alive, want at most GOMAXPROCS %d", n, limit)
	}
}

// TestHelpersEnd: helpers that find no split for idleFor end, leaving no
// goroutine behind, and a split after that starts a helper again. A
// helper whose range panicked keeps serving.
func TestHelpersEnd(t *testing.T) {
	defer idleFor.Store(idleFor.Load())
	idleFor.Store(int64(5 * time.Millisecond))
	before := runtime.NumGoroutine()
	for round := range 2 {
		for range 100 {
			func() {
				defer func() { _ = recover() }()
				In(3, 90, func(c, lo, hi int) {
					if c == 1 {
						panic("range 1")
					}
				})
			}()
		}
		if helpers.Load() == 0 && round == 0 {
			t.Fatal("no helper alive right after the splits")
		}
		deadline := time.Now().Add(10 * time.Second)
		for (helpers.Load() > 0 || runtime.NumGoroutine() > before) && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if n, g := helpers.Load(), runtime.NumGoroutine(); n != 0 || g > before {
			t.Fatalf("round %d: %d helpers and %d goroutines (%d before) long after the last split", round, n, g, before)
		}
		if w := waiting.Load(); w != 0 {
			t.Fatalf("round %d: waiting = %d with no helper alive", round, w)
		}
	}
}

// TestHelperTakesNextSplit: a helper that ran a range takes the next
// split's instead of a new goroutine starting: however many splits run one
// after another, the helpers alive stay at most GOMAXPROCS, and the
// helpers run ranges of later splits.
func TestHelperTakesNextSplit(t *testing.T) {
	start := Stats()
	var sum atomic.Int64
	for range 1000 {
		In(2, 1000, func(c, lo, hi int) {
			s := 0
			for i := lo; i < hi; i++ {
				s += i
			}
			sum.Add(int64(s))
		})
	}
	if want := int64(1000 * (999 * 1000 / 2)); sum.Load() != want {
		t.Errorf("sum %d, want %d", sum.Load(), want)
	}
	if n, limit := helpers.Load(), int32(runtime.GOMAXPROCS(0)); n > limit {
		t.Errorf("%d helpers alive after 1000 splits, want at most GOMAXPROCS %d", n, limit)
	}
	end := Stats()
	if end.Splits-start.Splits < 1000 {
		t.Errorf("Stats counted %d splits, want 1000 at least", end.Splits-start.Splits)
	}
	t.Logf("helpers ran %d of 2000 ranges; the caller waited %d times, %v in all",
		end.HelperRanges-start.HelperRanges, end.Waits-start.Waits, end.WaitTime-start.WaitTime)
}

// TestInAllocs: a split of two ranges allocates its state and nothing per
// range (it allocated a channel, a slice of panics and a goroutine's
// closure besides).
func TestInAllocs(t *testing.T) {
	var sink atomic.Int64
	fn := func(c, lo, hi int) { sink.Add(int64(hi - lo)) }
	In(2, 100, fn) // a helper alive
	if n := testing.AllocsPerRun(200, func() { In(2, 100, fn) }); n > 1 {
		t.Errorf("In(2, 100): %v allocations, want at most 1", n)
	}
}

// TestHelperUnlabelled: a helper started by a goroutine with profiler
// labels does not keep them for the later splits it runs.
func TestHelperUnlabelled(t *testing.T) {
	pprof.Do(t.Context(), pprof.Labels("par-test", "starter"), func(context.Context) {
		for range 50 {
			In(2, 400, func(c, lo, hi int) {})
		}
	})
	// The profile shows a helper's stack once it has parked.
	for deadline := time.Now().Add(10 * time.Second); waiting.Load() < helpers.Load() && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	var b strings.Builder
	if err := pprof.Lookup("goroutine").WriteTo(&b, 1); err != nil {
		t.Fatal(err)
	}
	helpersSeen := 0
	for _, g := range strings.Split(b.String(), "\n\n") {
		if strings.Contains(g, "par.helper") {
			helpersSeen++
			if strings.Contains(g, "par-test") {
				t.Errorf("a helper keeps its starter's labels:\n%s", g)
			}
		}
	}
	if helpersSeen == 0 {
		t.Errorf("no helper in the goroutine profile:\n%s", b.String())
	}
}

// TestHelperGoexit: a range that ends its goroutine (runtime.Goexit, as
// t.FailNow does) counts as returned, and a helper it ends is no longer
// counted: once idle, no helper is left alive or counted.
func TestHelperGoexit(t *testing.T) {
	defer idleFor.Store(idleFor.Load())
	idleFor.Store(int64(5 * time.Millisecond))
	for range 50 {
		var wg sync.WaitGroup
		wg.Go(func() { // its own goroutine: the caller's range may end it too
			In(2, 100, func(c, lo, hi int) { runtime.Goexit() })
		})
		wg.Wait()
	}
	for deadline := time.Now().Add(10 * time.Second); helpers.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if n, w := helpers.Load(), waiting.Load(); n != 0 || w != 0 {
		t.Errorf("long after the splits: %d helpers counted, %d waiting; want 0", n, w)
	}
}
