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

// TestValueArenaRetake: a value written into the last take moves down
// over the take before it, and the room past it serves the next take;
// takes that are not the last two of one block stay where they are.
func TestValueArenaRetake(t *testing.T) {
	t.Parallel()
	a := &valueArena{size: arenaBlock}
	first := append(a.take(4), "keep"...)
	dead := append(a.take(10), "dead value"...)
	live := append(a.take(20), "the value, rewritten"...)
	moved := a.retake(dead, live)
	if string(moved) != "the value, rewritten" || cap(moved) != len(moved) {
		t.Fatalf("retake = %q (cap %d)", moved, cap(moved))
	}
	if unsafe.SliceData(moved) != unsafe.SliceData(dead) {
		t.Fatal("not moved over the dead value")
	}
	next := append(a.take(6), "next!!"...)
	if unsafe.SliceData(next) != unsafe.SliceData(a.buf[len(first)+len(moved):]) {
		t.Fatal("the room past the moved value not given back")
	}
	if string(first) != "keep" || string(moved) != "the value, rewritten" || string(next) != "next!!" {
		t.Fatalf("values changed: %q %q %q", first, moved, next)
	}
	// Not the last two takes: left as they are.
	other := append(a.take(3), "abc"...)
	if got := a.retake(first, other); unsafe.SliceData(got) != unsafe.SliceData(other) {
		t.Fatal("moved over a take that was not the one before")
	}
	if got := a.retake(next, first); unsafe.SliceData(got) != unsafe.SliceData(first) {
		t.Fatal("moved a take that was not the last")
	}
	// Memory of their own, or no arena.
	own := []byte("own value")
	if got := a.retake(other, own); unsafe.SliceData(got) != unsafe.SliceData(own) {
		t.Fatal("moved a value from outside the arena")
	}
	var nilArena *valueArena
	if got := nilArena.retake(dead, own); unsafe.SliceData(got) != unsafe.SliceData(own) {
		t.Fatal("nil arena moved a value")
	}
}
