package emitter

import (
	"math/rand/v2"
	"testing"
)

// TestRingMatchesSlice holds ring to a plain slice queue through random
// pushes and takes, across wrap-arounds and growth.
func TestRingMatchesSlice(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	q := newRing(3)
	var model []uint64
	var seq uint64
	var got []queued
	for step := range 5000 {
		if rng.IntN(3) > 0 { // push more often than take, so that it grows
			for range rng.IntN(5) {
				seq++
				q.push(queued{seq: seq, urn: "u"})
				model = append(model, seq)
			}
		} else if q.len() > 0 {
			n := 1 + rng.IntN(q.len())
			got = q.take(got[:0], n)
			for i, g := range got {
				if g.seq != model[i] {
					t.Fatalf("step %d: take %d: element %d is %d, want %d", step, n, i, g.seq, model[i])
				}
			}
			model = model[n:]
		}
		if q.len() != len(model) {
			t.Fatalf("step %d: len %d, want %d", step, q.len(), len(model))
		}
		if q.len() > 0 && q.front().seq != model[0] {
			t.Fatalf("step %d: front %d, want %d", step, q.front().seq, model[0])
		}
		// Slots not in the queue hold nothing (what was taken is not kept).
		for i := range q.buf {
			if off := (i - q.head + len(q.buf)) % len(q.buf); off >= q.n && q.buf[i].urn != "" {
				t.Fatalf("step %d: slot %d outside the queue still holds proposal %d", step, i, q.buf[i].seq)
			}
		}
	}
}

// TestWorkerMemReuse checks that a worker's memory goes back to the pool
// only when its ring is empty, with nothing of its proposals left in it
// (not run in parallel: it looks at memory it gave to the pool).
func TestWorkerMemReuse(t *testing.T) {
	m := getWorkerMem()
	m.buf = nil
	q := m.ring(8)
	for i := range 6 {
		q.push(queued{seq: uint64(i + 1), urn: "u"})
	}
	m.batch = q.take(m.batch[:0], 4)
	putWorkerMem(m, &q) // not empty: not kept
	if q.buf == nil || m.buf != nil {
		t.Fatal("a worker's memory with proposals queued went back to the pool")
	}
	m.batch = q.take(m.batch[:0], 2)
	buf := q.buf
	putWorkerMem(m, &q)
	if q.buf != nil || len(m.buf) != len(buf) || &m.buf[0] != &buf[0] {
		t.Fatal("an empty worker's ring was not kept")
	}
	for i, v := range m.buf {
		if v.urn != "" || v.seq != 0 {
			t.Fatalf("ring slot %d still holds proposal %d", i, v.seq)
		}
	}
	for i, v := range m.batch[:cap(m.batch)] {
		if v.urn != "" {
			t.Fatalf("batch slot %d still holds proposal %d", i, v.seq)
		}
	}
	if r := m.ring(len(buf)); &r.buf[0] != &buf[0] || m.buf != nil {
		t.Fatal("the kept ring is not used again")
	}
}

// TestRingLendMatchesTake runs two rings through the same random pushes
// and batches, as a worker takes them: one lends its batches when it can
// (lend, giveBack) and copies them otherwise (take), the other always
// copies. While a batch is lent, more proposals are pushed (the ring
// wraps around the lent slots or grows past them). Both hand out the same
// proposals in the same order; a lent batch is not overwritten before it
// is given back; and slots neither queued nor lent hold nothing.
func TestRingLendMatchesTake(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	fast, slow := newRing(4), newRing(4)
	var seq uint64
	push := func() {
		for range rng.IntN(4) {
			seq++
			fast.push(queued{seq: seq, urn: "u"})
			slow.push(queued{seq: seq, urn: "u"})
		}
	}
	var batch, want []queued
	lends, grownWhileLent := 0, 0
	for step := range 20000 {
		if rng.IntN(3) > 0 || fast.len() == 0 {
			push()
			continue
		}
		n := 1 + rng.IntN(fast.len())
		qs := fast.lend(n)
		lent := qs != nil
		if lent {
			lends++
		} else {
			batch = fast.take(batch[:0], n)
			qs = batch
		}
		want = slow.take(want[:0], n)
		buf := fast.buf
		for range rng.IntN(3) { // queued while the batch is sent
			push()
		}
		if lent && &fast.buf[0] != &buf[0] {
			grownWhileLent++
		}
		if len(qs) != n {
			t.Fatalf("step %d: a batch of %d proposals, want %d", step, len(qs), n)
		}
		for i := range want {
			if qs[i].seq != want[i].seq {
				t.Fatalf("step %d: proposal %d of the batch is %d, want %d (lent: %v)", step, i, qs[i].seq, want[i].seq, lent)
			}
		}
		clear(qs)
		if lent {
			fast.giveBack()
		}
		if fast.len() != slow.len() || fast.len() > 0 && fast.front().seq != slow.front().seq {
			t.Fatalf("step %d: queue of %d (front %d), want %d (front %d)", step, fast.len(), fast.front().seq, slow.len(), slow.front().seq)
		}
		for i := range fast.buf {
			if off := (i - fast.head + len(fast.buf)) % len(fast.buf); off >= fast.n && fast.buf[i].seq != 0 {
				t.Fatalf("step %d: slot %d outside the queue still holds proposal %d", step, i, fast.buf[i].seq)
			}
		}
	}
	if lends < 1000 || grownWhileLent == 0 || lends == 20000 {
		t.Errorf("%d batches lent (%d while the ring grew)", lends, grownWhileLent)
	}
}
