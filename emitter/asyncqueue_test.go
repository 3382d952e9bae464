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
