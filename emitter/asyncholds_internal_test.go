package emitter

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
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
			if sc.releaseHolds(h) {
				t.Fatalf("round %d: the worker's release was not the last, but releaseHolds says so", round)
			}
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
			if !sc.releaseHolds(h) {
				t.Fatalf("round %d: the worker's release was the last, but releaseHolds does not say so", round)
			}
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

// TestAllPartsMatchesBodyParts holds allParts to bodyParts (see
// FuzzAllParts).
func TestAllPartsMatchesBodyParts(t *testing.T) {
	t.Parallel()
	for seed := range uint64(3000) {
		checkAllParts(t, seed, uint8(seed))
	}
}

// FuzzAllParts holds allParts, the parts of a worker's batch of all its
// proposals, to bodyParts, the general path's: for batches of encodings
// written as encodeKept and partition.keep write them (each followed by a
// comma) into a few keptChunks and kept memory, by writers taking turns,
// in a batch's order that mostly follows the writing and sometimes not
// (swapped, or from an earlier turn), the parts are the same slices, and
// the length is the body's.
func FuzzAllParts(f *testing.F) {
	f.Add(uint64(1), uint8(2))
	f.Add(uint64(7), uint8(100))
	f.Fuzz(checkAllParts)
}

// checkAllParts is FuzzAllParts of the batch seed makes, of 2 + n%120
// proposals.
func checkAllParts(t *testing.T, seed uint64, n uint8) {
	rng := rand.New(rand.NewPCG(seed, 9))
	chunks := make([]*keptChunk, 1+rng.IntN(4))
	for i := range chunks {
		chunks[i] = &keptChunk{buf: make([]byte, 0, 64+rng.IntN(4096))}
	}
	var pt partition
	items := make([]encoded, 2+int(n)%120)
	for i := range items {
		enc := make([]byte, 1+rng.IntN(40))
		for j := range enc {
			enc[j] = byte('a' + rng.IntN(26))
		}
		if k := rng.IntN(len(chunks) + 1); k < len(chunks) {
			c := chunks[k]
			if cap(c.buf)-len(c.buf) < len(enc)+1 { // full: another chunk in its place
				c = &keptChunk{buf: make([]byte, 0, 64+rng.IntN(4096))}
				chunks[k] = c
			}
			start := len(c.buf)
			c.buf = append(c.buf, enc...)
			c.buf = append(c.buf, ',') // as encodePart writes it
			items[i] = encoded{enc: c.buf[start : start+len(enc)], chunk: c}
		} else {
			items[i] = encoded{enc: pt.keep(enc)}
		}
	}
	switch rng.IntN(3) { // the batch's order
	case 0:
		i := rng.IntN(len(items) - 1)
		items[i], items[i+1] = items[i+1], items[i]
	case 1:
		rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	}
	tail := []byte("],\"async\":\"false\"}")
	var sc sendScratch
	for range 2 { // the second time in memory used again
		got, size := sc.allParts(items, tail)
		idx := make([]int, len(items))
		for i := range idx {
			idx[i] = i
		}
		want := bodyParts(batchPrefixBytes, tail, idx, func(i int) []byte { return items[i].enc })
		if len(got) != len(want) {
			t.Fatalf("seed %d: %d parts, want %d", seed, len(got), len(want))
		}
		body := 0
		for i := range want {
			if len(got[i]) != len(want[i]) || len(got[i]) > 0 && &got[i][0] != &want[i][0] {
				t.Fatalf("seed %d: part %d is %q, want %q", seed, i, got[i], want[i])
			}
			body += len(want[i])
		}
		if size != body {
			t.Fatalf("seed %d: a body of %d bytes, allParts says %d", seed, body, size)
		}
		sc.keepParts(got, true)
	}
}

// TestAllInOneParts holds batch.run's shortcut for a worker's batch whose
// body is in parts (allParts) to sendChunks, as TestAllInOne does for a
// whole body: under random limits, allInOne holds exactly when sendChunks
// sends one request of every proposal, and that request's body is the
// parts.
func TestAllInOneParts(t *testing.T) {
	t.Parallel()
	r, err := NewREST("http://localhost:8080")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var sc sendScratch
	taken := 0
	for c := range 3000 {
		n := 2 + rng.IntN(12)
		chunk := &keptChunk{buf: make([]byte, 0, 1024)}
		items, results := make([]encoded, n), make([]Result, n)
		for i := range items {
			start := len(chunk.buf)
			for range 1 + rng.IntN(40) {
				chunk.buf = append(chunk.buf, 'x')
			}
			items[i] = encoded{enc: chunk.buf[start:len(chunk.buf)], chunk: chunk}
			chunk.buf = append(chunk.buf, ',')
		}
		if rng.IntN(4) == 0 {
			items[0], items[n-1] = items[n-1], items[0]
		}
		b := &batch{r: r, items: items, results: results}
		b.parts, b.partsLen = sc.allParts(items, r.batchTail)
		randomLimits(r, rng, n)

		chunks, deletes := sentChunks(t, b)
		if len(deletes) > 0 {
			t.Fatalf("case %d: deletes %v", c, deletes)
		}
		one := len(chunks) == 1 && len(chunks[0]) == n
		if got := b.allInOne(); got != one {
			t.Fatalf("case %d: allInOne %v; sendChunks sent %v (%d bytes in parts, limits %d proposals, %d bytes)",
				c, got, chunks, b.partsLen, r.maxBatch, r.maxBytes)
		}
		if one {
			taken++
			req := b.request(chunks[0])
			b.parts = nil
			want := b.request(chunks[0])
			if req.Path != want.Path || !bytes.Equal(slices.Concat(req.Parts...), slices.Concat(want.Parts...)) || len(req.Parts) != len(want.Parts) {
				t.Fatalf("case %d: request %s %q, want %s %q", c, req.Path, slices.Concat(req.Parts...), want.Path, slices.Concat(want.Parts...))
			}
		}
		sc.keepParts(b.parts, true)
	}
	if taken < 100 {
		t.Errorf("the shortcut was taken in %d cases only", taken)
	}
}

// TestKeepParts checks what becomes of the memory allParts lent to a
// batch's request: used again for the next batch once the request let go
// of it, and left to a request that still reads it (the next batch's parts
// in other memory, the lent ones unchanged).
func TestKeepParts(t *testing.T) {
	t.Parallel()
	chunk := &keptChunk{buf: make([]byte, 0, 1024)}
	items := make([]encoded, 6)
	for i := range items {
		start := len(chunk.buf)
		chunk.buf = append(chunk.buf, fmt.Sprintf(`{"n":%d}`, i)...)
		items[i] = encoded{enc: chunk.buf[start:len(chunk.buf)], chunk: chunk}
		chunk.buf = append(chunk.buf, ',')
		if i == 2 { // two runs
			chunk.buf = append(chunk.buf, ' ')
		}
	}
	tail := []byte("]}")
	var sc sendScratch
	lent, _ := sc.allParts(items, tail)
	body := string(slices.Concat(lent...))
	sc.keepParts(lent, false) // a request still reads it
	next, _ := sc.allParts(items, tail)
	if &next[:1][0] == &lent[:1][0] {
		t.Fatal("the parts a request still reads were used again")
	}
	if got := string(slices.Concat(lent...)); got != body {
		t.Fatalf("the parts a request still reads changed: %q, want %q", got, body)
	}
	sc.keepParts(next, true) // the request let go
	again, _ := sc.allParts(items, tail)
	if &again[:1][0] != &next[:1][0] {
		t.Error("the parts' memory was not used again once free")
	}
	if got := string(slices.Concat(again...)); got != body {
		t.Errorf("body %q, want %q", got, body)
	}
}
