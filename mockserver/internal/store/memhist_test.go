package store

import (
	"fmt"
	"slices"
	"testing"
)

// histAllocation is the whole allocation of h's entries: the ring, its
// unused slots included.
func histAllocation(h *memHist) []histRow { return h.ring }

// unusedSlot reports whether slot j of h's ring holds no entry.
func unusedSlot(h *memHist, j int) bool {
	return (j-int(h.head)+len(h.ring))%len(h.ring) >= int(h.n)
}

// FuzzMemHistEntries inserts and removes history entries as fuzz input
// says and checks them against a plain slice after every step: the same
// entries in the same order, nothing left referenced outside them in
// their allocation, and an allocation within twice their number (plus a
// few) once it has grown.
func FuzzMemHistEntries(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 1})
	f.Add([]byte{0, 0, 0, 2, 3, 1, 5, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		var h memHist
		var want []histRow
		ver := uint64(0)
		for step, op := range ops {
			switch {
			case op%4 == 1 && len(want) > 0: // remove the oldest
				h.remove(0)
				want = want[1:]
			case op%4 == 2 && len(want) > 0: // remove another
				i := int(op/4) % len(want)
				h.remove(i)
				want = slices.Delete(want, i, i+1)
			default: // a new version, or one between two (as a rollback puts back)
				ver += 2
				e := histRow{ver: ver, val: fmt.Appendf(nil, "v%d", ver)}
				i := len(want)
				if op%4 == 3 && len(want) > 0 {
					i = int(op/4) % len(want)
					e.ver = want[i].ver - 1
					if i > 0 && want[i-1].ver == e.ver {
						continue
					}
				}
				h.insert(i, e)
				want = slices.Insert(want, i, e)
			}
			if h.len() != len(want) {
				t.Fatalf("step %d: %d entries, want %d", step, h.len(), len(want))
			}
			for i := range want {
				if h.at(i).ver != want[i].ver || &h.at(i).val[0] != &want[i].val[0] {
					t.Fatalf("step %d: entry %d is version %d, want %d", step, i, h.at(i).ver, want[i].ver)
				}
			}
			all := histAllocation(&h)
			for i, e := range all {
				if unusedSlot(&h, i) && e.val != nil {
					t.Fatalf("step %d: slot %d of the allocation still references version %d", step, i, e.ver)
				}
			}
			if len(all) > 2*len(want)+8 && len(all) > 16 {
				t.Fatalf("step %d: an allocation of %d entries for %d", step, len(all), len(want))
			}
		}
	})
}

// TestMemHistSlides: an aspect that keeps 19 history rows, each write
// adding the newest and removing the oldest, holds them in one allocation
// of at most half again as many entries (about 1.5 times, instead of the
// twice that appending makes), allocating nothing once it has grown.
func TestMemHistSlides(t *testing.T) {
	const keep = 19
	var h memHist
	val := []byte("x")
	for v := range uint64(keep) {
		h.insert(h.len(), histRow{ver: v + 1, val: val})
	}
	slide := func(v uint64) {
		h.insert(h.len(), histRow{ver: v, val: val})
		h.remove(0)
	}
	for v := uint64(keep + 1); v < 200; v++ {
		slide(v)
	}
	if n := len(histAllocation(&h)); n > keep+keep/2+2 {
		t.Errorf("%d history rows held in %d entries, want at most %d", keep, n, keep+keep/2+2)
	}
	v := uint64(200)
	if allocs := testing.AllocsPerRun(1000, func() { slide(v); v++ }); allocs != 0 {
		t.Errorf("a write allocates %v times for its history, want 0", allocs)
	}
}
