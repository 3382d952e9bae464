package emitter

import (
	"math/rand/v2"
	"testing"
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
			chunks[i].refs.Store(1) // another user's (keptPool's), kept throughout
		}
		items := make([]encoded, rng.IntN(120))
		for i := range items {
			if rng.IntN(10) == 0 {
				continue // no chunk (a delete, say)
			}
			c := chunks[rng.IntN(len(chunks))]
			items[i] = encoded{enc: []byte("{}"), chunk: c}
			c.refs.Add(1) // as encodeKept counts it
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
