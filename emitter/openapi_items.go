package emitter

import "sync"

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
