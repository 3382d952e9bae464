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
	if !poisonSpent() {
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

// TestArenaSpentWrites: an arenaSpent's writes are zero, and after
// recycle the next ingest's writes are the same memory, zero again (the
// references of the last ingest's dropped); drop gives the memory up.
func TestArenaSpentWrites(t *testing.T) {
	s := &arenaSpent{}
	ws := s.writes(3)
	if len(ws) != 3 || ws[0].URN != "" {
		t.Fatalf("writes(3) = %d writes", len(ws))
	}
	ws[1].URN, ws[1].Value = "urn:li:x", []byte(`{}`)
	s.recycle()
	again := s.writes(2)
	if &again[0] != &ws[0] {
		t.Error("the writes' memory was not kept")
	}
	if ws[1].URN != "" || ws[1].Value != nil {
		t.Errorf("a recycled write still refers to %q %s", ws[1].URN, ws[1].Value)
	}
	s.drop()
	if s.ws != nil {
		t.Error("drop kept the writes' memory")
	}
	var none *arenaSpent
	if len(none.writes(2)) != 2 {
		t.Error("nil writes(2)")
	}
}
