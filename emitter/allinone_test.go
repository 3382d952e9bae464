package emitter

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAllInOne holds batch.run's shortcut (allInOne: one request of every
// proposal, without sendChunks' loop) to sendChunks: for batches of
// encoded proposals of random lengths, some rejected or deletes, whose
// whole body is made as emitWith makes it, under random limits, allInOne
// holds exactly when sendChunks would send one request of every proposal
// and nothing else (when there is a whole body), the one request run's
// shortcut sends.
func TestAllInOne(t *testing.T) {
	t.Parallel()
	r, err := NewREST("http://localhost:8080")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	taken := 0
	for c := range 3000 {
		n := rng.IntN(13) // 0: an empty batch, without a whole body
		buf := append(make([]byte, 0, 1024), batchPrefix...)
		items, results := make([]encoded, n), make([]Result, n)
		offsets := make([][2]int, n)
		for i := range n {
			switch rng.IntN(12) {
			case 0:
				results[i].Status = Rejected
			case 1: // a delete: no encoding
			default:
				start := len(buf)
				for range 1 + rng.IntN(40) {
					buf = append(buf, 'x')
				}
				offsets[i] = [2]int{start, len(buf)}
				buf = append(buf, ',')
			}
		}
		for i, o := range offsets {
			if o[1] > o[0] {
				items[i].enc = buf[o[0]:o[1]]
			}
		}
		if rng.IntN(8) == 0 { // no room for the tail: no whole body
			buf = buf[:len(buf):len(buf)]
		}
		b := &batch{r: r, items: items, results: results}
		b.whole, b.wholeN = r.wholeBody(&buf, items)
		randomLimits(r, rng, n)

		chunks, deletes := sentChunks(t, b)
		one := len(chunks) == 1 && len(chunks[0]) == n && len(deletes) == 0
		if got := b.allInOne(); got != (one && b.whole != nil) {
			t.Fatalf("case %d: allInOne %v; sendChunks sent %v and deletes %v (n %d, whole %q, limits %d proposals, %d bytes)",
				c, got, chunks, deletes, n, b.whole, r.maxBatch, r.maxBytes)
		}
		if one && b.whole != nil {
			taken++
			for i, x := range chunks[0] { // the chunk run's shortcut sends
				if x != i {
					t.Fatalf("case %d: sendChunks sent %v", c, chunks[0])
				}
			}
		}
	}
	if taken < 100 {
		t.Errorf("the shortcut was taken in %d cases only", taken)
	}
}

// randomLimits gives r random limits around the size of a batch of n
// proposals of at most 40 bytes each: from one proposal to more than n a
// request, from half to one and a half times the batch's body.
func randomLimits(r *REST, rng *rand.Rand, n int) {
	all := len(batchPrefix) + len(r.suffix) + n*41 + 1
	r.maxBatch, r.maxBytes = 1+rng.IntN(n+2), all/2+rng.IntN(all)
}

// sentChunks runs b.sendChunks with callbacks that record what it sends:
// the indexes of the proposals of each request, and the deletes.
func sentChunks(t *testing.T, b *batch) (chunks [][]int, deletes []int) {
	t.Helper()
	_, stop := b.sendChunks(context.Background(), nil,
		func(_ context.Context, idx []int) error { chunks = append(chunks, slices.Clone(idx)); return nil },
		func(_ context.Context, i int) error { deletes = append(deletes, i); return nil })
	if stop != nil {
		t.Fatal(stop)
	}
	return chunks, deletes
}
