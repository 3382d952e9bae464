package emitter

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// TestBatchHoldsCountsChunks builds batches whose encodings come from a
// few chunks in a random order (some listed twice, past heldScan), holds
// them as a worker does, with a request that lets go first or last, and
// checks each chunk's references: the holds keep the chunk alive until
// both let go, then every reference the batch's encodings held is gone,
// and the worker keeps its arenaHolds only when its release was the last.
func TestBatchHoldsCountsChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var sc sendScratch
	for round := range 200 {
		chunks := make([]*keptChunk, 1+rng.IntN(12))
		for i := range chunks {
			chunks[i] = &keptChunk{}
			chunks[i].refs.Store(1) // another user's, kept throughout
		}
		items := make([]encoded, rng.IntN(120))
		for i := range items {
			if rng.IntN(10) == 0 {
				continue // no chunk (a delete, say)
			}
			c := chunks[rng.IntN(len(chunks))]
			items[i] = encoded{enc: []byte("{}"), chunk: c}
			c.refs.Add(1) // its use, as counted once keptPool let go of the chunk (see retire)
		}
		want := make(map[*keptChunk]int32)
		for _, c := range chunks {
			want[c] = c.refs.Load()
		}
		reused := sc.holds
		h := sc.batchHolds(items)
		if h == nil {
			for _, it := range items {
				if it.chunk != nil {
					t.Fatalf("round %d: no holds for a batch with chunks", round)
				}
			}
			continue
		}
		if reused != nil && h != reused {
			t.Fatalf("round %d: a free arenaHolds was not used again", round)
		}
		for _, c := range chunks {
			if c.refs.Load() < 2 && want[c] > 1 {
				t.Fatalf("round %d: a chunk of the batch lost its last reference before the holds let go", round)
			}
		}
		requestLast := rng.IntN(2) == 0
		done := h.hold() // a request reading from the chunks
		if requestLast {
			sc.releaseHolds(h)
			if sc.holds != nil {
				t.Fatalf("round %d: the worker kept an arenaHolds a request still held", round)
			}
			for _, c := range chunks {
				if want[c] > 1 && c.refs.Load() < 2 {
					t.Fatalf("round %d: a chunk lost its last reference while a request held it", round)
				}
			}
			done()
		} else {
			done()
			sc.releaseHolds(h)
			if sc.holds != h || len(h.chunks) != 0 {
				t.Fatalf("round %d: the worker's release was the last, but it did not keep the holds empty", round)
			}
		}
		for _, c := range chunks {
			if got := c.refs.Load(); got != 1 {
				t.Fatalf("round %d: a chunk has %d references after the batch let go, want 1 (its other user's)", round, got)
			}
		}
	}
}

// TestKeptChunkCounts encodes proposals through encodeKept, enough to fill
// several chunks, and lets go of their encodings at random moments, some
// while keptPool still holds their chunk and some after it let go (see
// retire): an encoding's bytes stay as written until it is let go of (a
// chunk freed too early is taken again from keptPool and written over),
// and every chunk keptPool let go of is freed (emptied, with keptPool's
// count alone) once its last encoding is let go of. (Only the chunks the
// test took empty are checked: one of keptPool's may hold encodings of
// other tests.)
func TestKeptChunkCounts(t *testing.T) {
	r, err := NewREST("http://discard.invalid")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	type kept struct {
		item encoded
		want string
	}
	var live []kept
	chunks := map[*keptChunk]bool{}
	letGo := func(k int) {
		t.Helper()
		e := live[k]
		if got := string(e.item.enc); got != e.want {
			t.Fatalf("an encoding changed before it was let go of:\n%q\nwant\n%q", got, e.want)
		}
		live[k] = live[len(live)-1]
		live = live[:len(live)-1]
		e.item.chunk.release()
	}
	for i := range 3000 {
		u, err := urn.NewDataset("hive", fmt.Sprintf("db.table_%05d", i), "PROD")
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewProposal(u, aspects.DatasetProperties{Description: aspects.Ptr(fmt.Sprint("description ", i))})
		if err != nil {
			t.Fatal(err)
		}
		var items [1]encoded
		var results [1]Result
		r.encodeKept([]Proposal{p}, 1, items[:], results[:])
		if results[0].Status == Rejected || items[0].chunk == nil {
			t.Fatalf("proposal %d: %v, chunk %p", i, results[0].Err, items[0].chunk)
		}
		if c := items[0].chunk; !chunks[c] && &c.buf[0] == &items[0].enc[0] {
			// Its first encoding, taken empty: no encoding of another
			// test's is in it to be let go of later.
			chunks[c] = true
		}
		live = append(live, kept{items[0], string(items[0].enc)})
		for len(live) > 0 && rng.IntN(3) == 0 {
			letGo(rng.IntN(len(live)))
		}
	}
	for len(live) > 0 {
		letGo(rng.IntN(len(live)))
	}
	if len(chunks) < 4 {
		t.Fatalf("the encodings filled %d empty chunks, want several", len(chunks))
	}
	// Every encoding was let go of: a chunk is freed, or keptPool holds it
	// still (or dropped it), its count keptHold less its encodings.
	for c := range chunks {
		switch refs := c.refs.Load(); {
		case refs == keptHold && len(c.buf) == 0 && c.written == 0: // freed
		case refs == keptHold-c.written && len(c.buf) > 0 && c.written > 0:
		default:
			t.Errorf("a chunk with %d encodings written, all let go of, has refs keptHold%+d and %d bytes", c.written, refs-keptHold, len(c.buf))
		}
	}
}

// TestKeptChunkRetire counts a chunk's encodings in and out as encodeKept
// and the requests do, in random orders, with keptPool letting go of it
// (retire) at a random moment: the chunk is freed (emptied) exactly when
// keptPool and every encoding have let go, never before.
func TestKeptChunkRetire(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 500 {
		c := newKeptChunk()
		c.buf = append(c.buf, 'x') // emptied when freed
		outstanding, retired := 0, false
		retireAt := rng.IntN(40)
		for step := 0; ; step++ {
			switch {
			case step == retireAt:
				c.retire()
				retired = true
			case outstanding > 0 && (retired || rng.IntN(3) == 0):
				n := 1 + rng.IntN(outstanding)
				c.releaseN(int32(n))
				outstanding -= n
			case !retired:
				c.written++ // as encodeKept counts an encoding
				outstanding++
			}
			freed := len(c.buf) == 0
			if want := retired && outstanding == 0; freed != want {
				t.Fatalf("round %d, step %d: freed %v, want %v (retired %v, %d encodings not let go of)", round, step, freed, want, retired, outstanding)
			}
			if freed {
				break // c is keptPool's again
			}
		}
	}
}
