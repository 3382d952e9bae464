package gms

import (
	"flag"
	"sync"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// The blocks of a batch's value arenas (valueArena) hold the values its
// writes carry: compactions, the ownerTypes hook's answers. The store
// copies a value into its own row, so once a synchronous ingest that
// answers no values (Core.Ingest: no results, not async, not traced) has
// applied its writes nothing refers to those blocks any longer, and they
// serve the next batch's values instead of being allocated and collected
// again (a 200-proposal batch of ownership values takes about 60 KB of
// them). Values that leave the ingest (Core.Write's results, an async
// queue, a trace's log) keep their blocks, which the collector frees.
// The same ingest's store writes (a []store.Write, about 40 KB for 200)
// are given back with them.

// maxFullBlocks is the most full blocks an arena records for reuse; a
// chunk of prepareAll takes about 2 per 100 ownership values, and blocks
// past the first maxFullBlocks are left to the collector.
const maxFullBlocks = 16

// spareBlocks are full arena blocks no value refers to, for the next
// arenas.
var spareBlocks sync.Pool

// poisonSpent reports whether every block given back is overwritten
// before it is reused, so that a value still read after its ingest shows
// as garbage instead of changing silently: in test binaries (the mock's
// own tests and its users' that run it; a test binary defines the flag
// test.v, and the mock's command does not link package testing), at the
// cost of a copy of 16 KB a block.
var poisonSpent = sync.OnceValue(func() bool { return flag.Lookup("test.v") != nil })

// poisonByte is what poisonSpent writes: 0xEE is never valid UTF-8 alone,
// so no JSON text that reads it passes.
const poisonByte = 0xEE

// fullBlock returns an empty block of arenaBlock bytes, a spare one when
// there is one, and records it in a for reuse.
func (a *valueArena) fullBlock() []byte {
	p, _ := spareBlocks.Get().(*[arenaBlock]byte)
	if p == nil {
		p = new([arenaBlock]byte)
	}
	if a.nfull < len(a.full) {
		a.full[a.nfull] = p
		a.nfull++
	}
	return p[:0:arenaBlock]
}

// arenaSpent collects the full blocks of the arenas of one ingest, to give
// them back (recycle) once its values are no longer used. Its methods may
// be called on nil (an ingest whose values may be kept: nothing is given
// back).
type arenaSpent struct {
	mu     sync.Mutex
	blocks []*[arenaBlock]byte
	// ws is the memory of the ingest's writes (see writes), zero past
	// len(ws) up to its capacity.
	ws []store.Write
}

// maxKeptWrites is the most writes whose memory an arenaSpent keeps.
const maxKeptWrites = 1024

// writes returns n zero writes, in s's memory when it has room for them
// (s may be nil: allocated).
func (s *arenaSpent) writes(n int) []store.Write {
	if s == nil || cap(s.ws) < n {
		ws := make([]store.Write, n)
		if s != nil && n <= maxKeptWrites {
			s.ws = ws
		}
		return ws
	}
	s.ws = s.ws[:n]
	return s.ws
}

// spentSets are the arenaSpent kept for the next ingests.
var spentSets = sync.Pool{New: func() any { return new(arenaSpent) }}

// newArenaSpent returns an empty arenaSpent.
func newArenaSpent() *arenaSpent { return spentSets.Get().(*arenaSpent) }

// add takes the full blocks a recorded (a is done taking: prepareAll
// resets it next).
func (s *arenaSpent) add(a *valueArena) {
	if s == nil || a.nfull == 0 {
		return
	}
	s.mu.Lock()
	s.blocks = append(s.blocks, a.full[:a.nfull]...)
	s.mu.Unlock()
}

// recycle gives s's blocks back for the next arenas, and s itself. Nothing
// may use a value held in them, nor s, afterwards.
func (s *arenaSpent) recycle() {
	if s == nil {
		return
	}
	for i, p := range s.blocks {
		if poisonSpent() {
			p[0] = poisonByte
			for n := 1; n < len(p); n *= 2 {
				copy(p[n:], p[:n])
			}
		}
		spareBlocks.Put(p)
		s.blocks[i] = nil
	}
	s.blocks = s.blocks[:0]
	clear(s.ws) // drop what the writes referred to
	s.ws = s.ws[:0]
	if cap(s.blocks) <= 4*maxFullBlocks {
		spentSets.Put(s)
	}
}

// drop forgets s's blocks and writes, which may still be used (the
// collector frees them), and gives s back.
func (s *arenaSpent) drop() {
	if s == nil {
		return
	}
	clear(s.blocks)
	s.blocks, s.ws = s.blocks[:0], nil
	if cap(s.blocks) <= 4*maxFullBlocks {
		spentSets.Put(s)
	}
}
