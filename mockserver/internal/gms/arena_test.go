package gms

import (
	"testing"
	"unsafe"
)

// TestValueArenaTake: the arena hands out slices of the room asked for
// that do not overlap, in blocks of at most arenaBlock bytes (a longer
// take gets a block of its own length) while its reservation lasts, and
// memory of their own past it.
func TestValueArenaTake(t *testing.T) {
	t.Parallel()
	a := &valueArena{size: 3*arenaBlock + 100}
	type span struct{ lo, hi uintptr }
	var spans []span
	largest := 0
	for _, n := range []int{100, arenaBlock - 100, 1, arenaBlock + 5, 300, arenaBlock, 7, 7} {
		b := a.take(n)
		if len(b) != 0 || cap(b) != n {
			t.Fatalf("take(%d) = len %d cap %d", n, len(b), cap(b))
		}
		b = append(b, make([]byte, n)...)
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		s := span{lo, lo + uintptr(n)}
		for _, o := range spans {
			if s.lo < o.hi && o.lo < s.hi {
				t.Fatalf("take(%d) overlaps an earlier take", n)
			}
		}
		spans = append(spans, s)
		largest = max(largest, n)
		if cap(a.buf) > max(arenaBlock, largest) {
			t.Fatalf("after take(%d) a block of %d bytes", n, cap(a.buf))
		}
	}
	if a.blocks > a.size {
		t.Fatalf("blocks of %d bytes out of a reservation of %d", a.blocks, a.size)
	}
	var nilArena *valueArena
	if b := nilArena.take(5); cap(b) != 5 {
		t.Fatalf("nil arena take(5) cap %d", cap(b))
	}
}
