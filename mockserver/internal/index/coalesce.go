package index

import (
	"hash/maphash"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// rowSet is the set of rows (URN, aspect) a catch-up's backward pass has
// seen (see applyDue): an open-addressed table of event indices, kept from
// one catch-up to the next, that hashes a row's names once per event where
// a Go map of aspectKey hashed and compared them through its generic
// paths (most of a catch-up's cost).
type rowSet struct {
	seed  maphash.Seed
	slots []rowSlot // a power of two long, at most half full
}

type rowSlot struct {
	hash uint64
	at   int32 // the event's index in due, plus one (0: empty)
}

// reset empties s for the events of a catch-up of n events.
func (s *rowSet) reset(n int) {
	if s.slots == nil {
		s.seed = maphash.MakeSeed()
	}
	if len(s.slots) < 2*n || len(s.slots) > 16*max(n, 64) {
		size := 128
		for size < 2*n {
			size *= 2
		}
		s.slots = make([]rowSlot, size)
	} else {
		clear(s.slots)
	}
}

// add records the row of due[i], an upsert, and reports whether an event
// of due recorded before held the same row.
func (s *rowSet) add(due []store.Event, i int) (seen bool) {
	e := &due[i]
	h := maphash.String(s.seed, e.URN) ^ aspectBits(e.Aspect)*0x9e3779b97f4a7c15
	mask := uint64(len(s.slots) - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		sl := &s.slots[j]
		if sl.at == 0 {
			sl.hash, sl.at = h, int32(i+1)
			return false
		}
		if sl.hash == h {
			if o := &due[sl.at-1]; o.URN == e.URN && o.Aspect == e.Aspect {
				return true
			}
		}
	}
}

// aspectBits tells most aspect names apart without hashing them: their
// length and first, middle and last bytes (names alike here only cost
// their rows a comparison in add).
func aspectBits(a string) uint64 {
	if a == "" {
		return 0
	}
	return uint64(len(a)) | uint64(a[0])<<16 | uint64(a[len(a)/2])<<24 | uint64(a[len(a)-1])<<32
}
