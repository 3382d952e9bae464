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
// (no request reads from the chunks any more), it lets go of the chunks
// and keeps h in sc for the next batch.
func (sc *sendScratch) releaseHolds(h *arenaHolds) {
	if h.n.Add(-1) != 0 {
		return // a request lets go of it last (see arenaHolds.release): h is left to it
	}
	for i, c := range h.chunks {
		c.release()
		h.chunks[i] = nil
	}
	h.chunks = h.chunks[:0]
	sc.holds = h
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
