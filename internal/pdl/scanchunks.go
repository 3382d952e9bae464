package pdl

import (
	"sync"

	"github.com/catalogkit/datahub-go/internal/par"
)

// chunkScanners are the Scanners the chunks of ReadListChunks after the
// first read with, kept for the next list (a Scanner keeps the names it
// decoded).
var chunkScanners = sync.Pool{New: func() any { return new(Scanner) }}

// ReadListChunks reads the items of the JSON list in list whose first
// item starts at offset first (sc is there, past the '['), in k chunks,
// one per goroutine of par.In, without a serial pass to split the list
// first. Chunk c takes a share of the text: it starts at the item start
// that start finds from its share on (chunk 0 at first), calls chunk(c, s)
// for the item reader of its Scanner s, and calls it for each item up to
// the next chunk's share or the list's end. The chunks hold the list when
// each ended exactly where the next one started: then ReadListChunks
// returns how many of them hold its items (the rest started past its end)
// and the offset after the list, where it leaves sc. It reports false when
// an item reader failed or the chunks do not join (an item start of the
// kind inside a value): the caller then reads the list in one piece.
func ReadListChunks(sc *Scanner, list []byte, first, k int, start func(d []byte, i int) int, chunk func(c int, s *Scanner) (item func() bool)) (n, end int, ok bool) {
	type part struct {
		start, end int  // where its first item starts (-1: none), where it stopped
		closed, ok bool // it read the list's end; it read without a failure
	}
	parts := make([]part, k)
	par.In(k, len(list)-first, func(c, lo, hi int) {
		s := sc
		if c > 0 {
			s = chunkScanners.Get().(*Scanner)
			defer chunkScanners.Put(s)
			s.Reset(list)
		}
		pt := &parts[c]
		pos := first + lo
		if c > 0 {
			pos = start(list, pos)
		}
		if pt.start = pos; pos < 0 {
			pt.ok = true
			return
		}
		s.Seek(pos)
		item := chunk(c, s)
		for {
			if c < k-1 && pos >= first+hi {
				pt.end, pt.ok = pos, true
				return
			}
			if !item() {
				return
			}
			more, ok := s.Next(']')
			if !ok {
				return
			}
			if !more {
				pt.end, pt.closed, pt.ok = s.Pos(), true, true
				return
			}
			s.Peek() // past white space, to the next item
			pos = s.Pos()
		}
	})
	for c, pt := range parts {
		if !pt.ok || pt.start < 0 || (c > 0 && pt.start != parts[c-1].end) {
			return 0, 0, false
		}
		if pt.closed { // what later chunks read is not the list's
			sc.Seek(pt.end)
			return c + 1, pt.end, true
		}
	}
	return 0, 0, false
}
