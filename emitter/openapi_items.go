package emitter

import (
	"slices"
	"sync"
)

// v3ItemLists are the lists of v3Encoded that emitOpenAPI encodes into,
// kept for the next call: an item is read only while its call runs (the
// results, which the caller keeps, are lists of their own).
var v3ItemLists = sync.Pool{New: func() any { return new([]v3Encoded) }}

// maxKeptV3Items is the length past which a list of items is not kept.
const maxKeptV3Items = 4096

// getV3Items returns a list of n zero items, from v3ItemLists when one
// there is long enough; give it back with putV3Items.
func getV3Items(n int) *[]v3Encoded {
	l := v3ItemLists.Get().(*[]v3Encoded)
	if cap(*l) < n {
		*l = make([]v3Encoded, n)
	} else {
		*l = (*l)[:n] // zero: putV3Items cleared it
	}
	return l
}

// putV3Items clears *l (no call's strings or encodings stay with the
// pool) and gives it back to v3ItemLists, unless it grew past
// maxKeptV3Items.
func putV3Items(l *[]v3Encoded) {
	if cap(*l) > maxKeptV3Items {
		return
	}
	clear((*l)[:cap(*l)])
	*l = (*l)[:0]
	v3ItemLists.Put(l)
}

// v3Scratch is the bookkeeping memory of an Emit over OpenAPI: its
// results, its encodings' offsets and a request's indexes. A call that
// wrote every proposal, and so shows no result, gives it back to
// v3Scratches for the next call.
type v3Scratch struct {
	results []Result
	offsets [][2]int
	idx     []int
}

// v3Scratches holds the v3Scratch of calls that are done.
var v3Scratches = sync.Pool{New: func() any { return new(v3Scratch) }}

// getV3Scratch returns a v3Scratch from v3Scratches.
func getV3Scratch() *v3Scratch { return v3Scratches.Get().(*v3Scratch) }

// take returns zero results and offsets for n proposals.
func (s *v3Scratch) take(n int) ([]Result, [][2]int) {
	s.results = slices.Grow(s.results[:0], n)[:n]
	s.offsets = slices.Grow(s.offsets[:0], n)[:n]
	clear(s.results)
	clear(s.offsets)
	return s.results, s.offsets
}

// put gives s back to v3Scratches with results, the call's, cleared (no
// call's URNs or errors stay with the pool), and idx as its memory for
// indexes, unless it grew past maxKeptV3Items.
func (s *v3Scratch) put(results []Result, idx []int) {
	if cap(results) > maxKeptV3Items || cap(s.offsets) > maxKeptV3Items || cap(idx) > maxKeptV3Items {
		return
	}
	clear(results[:cap(results)])
	s.results, s.idx = results[:0], idx[:0]
	v3Scratches.Put(s)
}
