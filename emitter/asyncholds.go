package emitter

// The holds of an Async worker's batches.
//
// Every Rest.li proposal an Async emitter queues holds a reference on the
// keptChunk its encoding was written in (see encodeKept) until it is sent.
// A batch's requests hold the chunks through one arenaHolds (net/http may
// read a body after the answer came). One hold per chunk stands for all of
// the batch's encodings in it: the batch's proposals come mostly from
// one or two chunks, so that letting go of them is one atomic operation a
// chunk instead of one a proposal (batchHolds counts the others first). And the worker uses its arenaHolds
// again for the next batch when its own release was the last, which it is
// unless a request still reads its body: an arenaHolds and its list are
// not allocated a request.

// batchHolds returns the holds on the keptChunks of items, with one holder
// (the caller): sc's from the last batch when free, else a new one; nil
// when the items have no chunks. Each encoding's reference on its chunk
// passes to the holds: several in one chunk become its one reference.
func (sc *sendScratch) batchHolds(items []encoded) *arenaHolds {
	h := sc.holds
	if h == nil {
		h = newArenaHolds()
	} else {
		h.n.Store(1)
	}
	sc.holds = nil      // until its release proves it free again (see releaseHolds)
	dups := sc.dups[:0] // dups[k]: the items of h.chunks[k] beyond its first
	for i := range items {
		if c := items[i].chunk; c != nil {
			if k := held(h.chunks, c); k >= 0 {
				dups[k]++
			} else {
				h.chunks = append(h.chunks, c)
				dups = append(dups, 0)
			}
		}
	}
	for k, n := range dups {
		if n > 0 {
			h.chunks[k].releaseN(n) // the holds' one use of the chunk stands for them
		}
	}
	sc.dups = dups
	if len(h.chunks) == 0 {
		sc.holds = h
		return nil
	}
	return h
}

// releaseHolds lets go of the caller's hold on h. When that was the last
// (no request reads from the chunks any more), it lets go of the chunks,
// keeps h in sc for the next batch and returns true.
func (sc *sendScratch) releaseHolds(h *arenaHolds) bool {
	if h.n.Add(-1) != 0 {
		return false // a request lets go of it last (see arenaHolds.release): h is left to it
	}
	for i, c := range h.chunks {
		c.release()
		h.chunks[i] = nil
	}
	h.chunks = h.chunks[:0]
	sc.holds = h
	return true
}

// allParts returns the parts of the ingestProposalBatch body of all of
// items, two or more, every one encoded, and its length: the parts
// bodyParts makes of them (the body's head, each run of encodings that
// follow one another in memory as one slice, a comma between two runs,
// tail), in sc.parts' memory; nil for fewer than two items. The caller
// gives the memory back with keepParts once the batch is sent.
//
// Two encodings of one keptChunk are one run when the second starts one
// byte after the first ends: that byte is the comma encodePart writes
// after each encoding, in memory only ever appended to while an encoding
// in it is used, so it is not read (a cold line, written on the encoding
// caller's core, for each encoding). Encodings of other memory (a
// partition's kept, see partition.keep) are joined as bodyParts joins
// them.
func (sc *sendScratch) allParts(items []encoded, tail []byte) ([][]byte, int) {
	if len(items) < 2 {
		return nil, 0
	}
	if most := 2*len(items) + 1; cap(sc.parts) < most { // sized once: a run, a comma an item
		sc.parts = make([][]byte, 0, most)
	}
	parts := append(sc.parts[:0], batchPrefixBytes)
	run, chunk := items[0].enc, items[0].chunk
	size := len(batchPrefixBytes) + len(run) + len(tail)
	for i := 1; i < len(items); i++ {
		it := &items[i]
		e := it.enc
		size += 1 + len(e)
		if it.chunk == chunk {
			if chunk != nil && follows(run, e) {
				run = run[:len(run)+1+len(e)]
				continue
			}
			if more, ok := joined(run, e); ok && chunk == nil {
				run = more
				continue
			}
		}
		parts = append(parts, run, commaBytes)
		run, chunk = e, it.chunk
	}
	parts = append(parts, run, tail)
	sc.parts = parts
	return parts, size
}

// follows reports whether b, an encoding of the keptChunk of a, follows
// a in memory after one byte, the comma (see allParts): joined without
// reading it.
func follows(a, b []byte) bool {
	return len(b) > 0 && cap(a) == len(a)+1+cap(b) && &a[:cap(a)][cap(a)-1] == &b[:cap(b)][cap(b)-1]
}

// keepParts takes back parts, the memory allParts lent to a batch's
// request, for the next batch when free (the request's holds were let go
// of: it reads the body no more); otherwise the request keeps it.
func (sc *sendScratch) keepParts(parts [][]byte, free bool) {
	if !free {
		sc.parts = nil
		return
	}
	clear(parts)
	sc.parts = parts[:0]
}

// heldScan is how many of the last chunks of a list held looks through: a
// batch's proposals come from a few chunks, those of the goroutines that
// encoded them.
const heldScan = 8

// held returns the index of c in cs when it is among the last heldScan
// chunks of cs, else -1. (A chunk found further back is listed again: one
// more reference is kept, and let go of, for it.)
func held(cs []*keptChunk, c *keptChunk) int {
	for k := len(cs) - 1; k >= max(0, len(cs)-heldScan); k-- {
		if cs[k] == c {
			return k
		}
	}
	return -1
}
