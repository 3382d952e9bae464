package emitter

import (
	"math/rand/v2"
	"testing"
)

// TestPinsMatchMap checks the pin table against a map doing the same:
// proposals counted in and out at random, of hashes that crowd a few home
// slots (so that probes run long, wrap around the end and pins move back
// when one is freed) and of spread ones (so that the table grows). When
// every proposal is counted out, the table is all free slots again.
func TestPinsMatchMap(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	ps := getPins()
	type entry struct{ part, n int }
	want := map[uint64]entry{}
	var live []uint64 // one element per proposal counted in and not out
	hash := func() uint64 {
		if rng.IntN(2) == 0 {
			// home slot 0, 1 or the last of a small table, high bits apart
			return uint64(rng.IntN(40))<<32 | []uint64{0, 1, minPins - 1}[rng.IntN(3)]
		}
		return rng.Uint64()
	}
	for step := range 200_000 {
		// the first quarter mostly counts in, the rest mostly out
		out := 7
		if step < 50_000 {
			out = 3
		}
		if len(live) > 0 && rng.IntN(10) < out {
			k := rng.IntN(len(live))
			h := live[k]
			live[k] = live[len(live)-1]
			live = live[:len(live)-1]
			ps.unpin(h)
			e := want[h]
			if e.n--; e.n == 0 {
				delete(want, h)
			} else {
				want[h] = e
			}
		} else {
			var h uint64
			if len(live) > 0 && rng.IntN(3) == 0 {
				h = live[rng.IntN(len(live))] // a URN already pinned
			} else {
				h = hash()
			}
			part := rng.IntN(8)
			got := ps.pin(h, part)
			e, ok := want[h]
			if !ok {
				e.part = part
			}
			e.n++
			want[h] = e
			live = append(live, h)
			if got != e.part {
				t.Fatalf("step %d: pin(%#x) = %d, want %d", step, h, got, e.part)
			}
		}
		if step%1000 == 0 || len(live) == 0 {
			if ps.used != len(want) {
				t.Fatalf("step %d: %d pins used, want %d", step, ps.used, len(want))
			}
			for h, e := range want {
				if p := ps.find(h); int(p.n) != e.n || int(p.part) != e.part {
					t.Fatalf("step %d: pin of %#x = %+v, want %+v", step, h, *p, e)
				}
			}
		}
	}
	for _, h := range live {
		ps.unpin(h)
	}
	if ps.used != 0 {
		t.Fatalf("%d pins used after every proposal was counted out", ps.used)
	}
	for i, p := range ps.slots {
		if p != (pin{}) {
			t.Fatalf("slot %d = %+v after every proposal was counted out", i, p)
		}
	}
	if len(ps.slots) <= minPins {
		t.Errorf("the table did not grow (%d slots)", len(ps.slots))
	}
}
