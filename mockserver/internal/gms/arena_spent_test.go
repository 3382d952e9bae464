package gms

import (
	"bytes"
	"testing"
)

// TestArenaSpentRecycle: the full blocks an arena takes are recorded, and
// an arenaSpent given them poisons them (in the tests) and hands them to
// the next arenas; blocks of less than arenaBlock bytes (a small
// reservation) are not recorded, and drop gives back nothing.
func TestArenaSpentRecycle(t *testing.T) {
	if !poisonSpent {
		t.Fatal("the tests run without poisoning spent blocks")
	}
	a := &valueArena{size: 2*arenaBlock + 10}
	v1 := append(a.take(arenaBlock-5), bytes.Repeat([]byte("a"), arenaBlock-5)...)
	v2 := append(a.take(arenaBlock-3), bytes.Repeat([]byte("b"), arenaBlock-3)...)
	v3 := append(a.take(8), "cccccccc"...) // the reservation's last 10 bytes: a small block
	if a.nfull != 2 {
		t.Fatalf("%d full blocks recorded, want 2", a.nfull)
	}
	if cap(a.buf) == arenaBlock {
		t.Fatal("the last, small block was taken whole")
	}
	s := newArenaSpent()
	s.add(a)
	if len(s.blocks) != 2 {
		t.Fatalf("%d blocks collected, want 2", len(s.blocks))
	}
	if string(v3) != "cccccccc" {
		t.Fatalf("v3 = %q", v3)
	}
	s.recycle()
	for i, v := range [][]byte{v1, v2} {
		if v[0] != poisonByte || v[len(v)-1] != poisonByte {
			t.Errorf("value %d of a recycled block was not poisoned: %q...", i, v[:4])
		}
	}
	if string(v3) != "cccccccc" {
		t.Errorf("a value of a small block changed: %q", v3)
	}

	b := &valueArena{size: arenaBlock}
	w := append(b.take(4), "keep"...)
	d := newArenaSpent()
	d.add(b)
	d.drop()
	if string(w) != "keep" {
		t.Errorf("drop changed a value: %q", w)
	}
	var none *arenaSpent
	none.add(b)
	none.recycle()
	none.drop()
}
