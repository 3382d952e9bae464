// Package par runs the independent parts of one call's work on the
// machine's cores: the mock decodes, validates and makes store rows of a
// batch's proposals in chunks, and the emitter encodes a batch's proposals
// in chunks, one goroutine per core, so that even one client's batch uses
// them all.
package par

import (
	"runtime"
	"sync"
)

// MinChunk is the fewest items a chunk gets: below twice that a batch is
// worked through on the caller's goroutine alone, where a goroutine would
// cost more than it saves.
const MinChunk = 32

// Count is the number of ranges Chunks makes of n items.
func Count(n, minChunk int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/max(minChunk, 1)))
}

// Chunks calls fn for consecutive ranges [lo, hi), the c-th of them (from
// 0) with c, that cover [0, n) once,
// at most one per core (GOMAXPROCS) and none of fewer than minChunk items
// (but the only one), the last on the caller's goroutine, the others on
// goroutines of their own; it returns once every call has. fn must be safe
// to call concurrently for different ranges. It returns the number of
// ranges.
func Chunks(n, minChunk int, fn func(c, lo, hi int)) int {
	k := Count(n, minChunk)
	In(k, n, fn)
	return k
}

// In is Chunks making k ranges (at most n, at least 1): the same k and n
// give the same ranges. A panic in fn reaches the caller once every range
// has returned (the first range's panic, in range order), so that no range
// still runs when the caller unwinds.
func In(k, n int, fn func(c, lo, hi int)) {
	k = max(1, min(k, n))
	if k <= 1 {
		if n > 0 {
			fn(0, 0, n)
		}
		return
	}
	panics := make([]any, k)
	run := func(c int) {
		defer func() { panics[c] = recover() }()
		fn(c, c*n/k, (c+1)*n/k)
	}
	var wg sync.WaitGroup
	for c := range k - 1 {
		wg.Go(func() { run(c) })
	}
	run(k - 1)
	wg.Wait()
	for _, v := range panics {
		if v != nil {
			panic(v)
		}
	}
}
