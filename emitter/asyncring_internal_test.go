package emitter

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// fullQueued returns a queued proposal with every field set, seq k.
func fullQueued(k uint64) queued {
	return queued{
		item: encoded{enc: []byte("e"), unsafe: true, chunk: new(keptChunk)},
		v3:   new(v3Encoded), urn: "u", aspect: "a",
		p: new(Proposal), seq: k, hash: k, size: 1, at: 1,
	}
}

// TestRingAddZero checks that every slot add returns is zero: the ring
// keeps nothing of the proposals taken from it or lent and given back
// (cleared, as a worker clears them), so that no queued proposal is kept
// past its outcome. Through random adds of proposals with every field
// set, takes, and loans, across wrap-arounds, growth during a loan, and a
// ring's memory given back to workerPool and used again (the only check
// of that memory's slots).
func TestRingAddZero(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := getWorkerMem()
	q := m.ring(4)
	var seq uint64
	var lent []queued
	var batch []queued
	for step := range 20000 {
		switch op := rng.IntN(10); {
		case op < 6:
			for range 1 + rng.IntN(4) {
				s := q.add()
				if !reflect.ValueOf(*s).IsZero() {
					t.Fatalf("step %d: add returned a slot holding %+v", step, *s)
				}
				seq++
				*s = fullQueued(seq)
			}
		case op < 8 && q.len() > 0 && lent == nil: // a worker takes a batch once it gave the last back
			n := 1 + rng.IntN(q.len())
			if lent = q.lend(n); lent == nil {
				batch = q.take(batch[:0], n)
			}
		case op < 9 && lent != nil:
			clear(lent) // as run does before giving the slots back
			q.giveBack()
			lent = nil
		case op == 9 && lent == nil && q.len() > 0 && q.len() < 64:
			// The worker ends: it takes the rest and gives its memory back.
			batch = q.take(batch[:0], q.len())
			m.batch = batch[:0]
			putWorkerMem(m, &q)
			m = getWorkerMem()
			q = m.ring(1 + rng.IntN(8))
			batch = m.batch[:0]
		}
	}
}
