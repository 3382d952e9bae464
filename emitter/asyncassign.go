package emitter

import "sync"

// How an Async emitter assigns proposals to its workers.
//
// A proposal whose URN has others queued or in flight goes to the worker
// that has them, behind them: a worker sends one request at a time, in
// queue order, so the proposals of one URN are written in the order Emit
// took them, and their outcomes are reported in that order. A proposal of
// any other URN may go to any worker: the earlier ones of its URN have
// their outcome already. Those go to one worker until its queue holds a
// whole batch (or its share of the queue's bound in proposals or bytes,
// when that is less), then to the next: the requests are full (ten requests for
// a thousand proposals of distinct URNs in batches of a hundred, where a
// hash of the URN gave each of four workers a remainder to send alone at
// Close), and a worker has a batch to send as soon as a batch's worth was
// queued instead of when every worker's share was.

// pins maps the hash of a URN's text (urnHash) to its pin, for the URNs
// with proposals queued or in flight: an open-addressed table probed
// linearly from the hash's low bits (maphash spreads them), at most half
// full. Two URNs of the same hash share a pin: they go to one worker, which
// keeps the order of both. A table whose every pin was counted out is all
// zero again, ready for the next Async emitter (see pinPool).
type pins struct {
	slots []pin // a power of two of them; n == 0 marks a free slot
	used  int   // slots in use
}

// pin is where the proposals of one URN go while any is queued or in
// flight.
type pin struct {
	hash uint64
	part int32 // the partition (worker)
	n    int32 // how many are queued or in flight; 0: a free slot
}

// minPins is the size of a new table.
const minPins = 256

// find returns the slot of hash h: its pin, or the free slot where it
// would go.
func (ps *pins) find(h uint64) *pin { return &ps.slots[ps.index(h)] }

// index returns the index of find's slot.
func (ps *pins) index(h uint64) uint64 {
	mask := uint64(len(ps.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		if p := &ps.slots[i]; p.n == 0 || p.hash == h {
			return i
		}
	}
}

// pin counts a proposal of the URN of hash h in; it returns the partition
// its pin names, or, when the URN had none, part, which it is pinned to
// now.
func (ps *pins) pin(h uint64, part int) int {
	p := ps.find(h)
	if p.n > 0 {
		p.n++
		return int(p.part)
	}
	if 2*(ps.used+1) > len(ps.slots) {
		ps.grow()
		p = ps.find(h) // its free slot in the new table
	}
	*p = pin{hash: h, part: int32(part), n: 1}
	ps.used++
	return part
}

// grow doubles the table.
func (ps *pins) grow() {
	old := ps.slots
	ps.slots = make([]pin, max(2*len(old), minPins))
	for _, p := range old {
		if p.n > 0 {
			*ps.find(p.hash) = p
		}
	}
}

// unpin counts out a proposal of the URN of hash h, whose outcome is
// known; the URN's pin goes when its last proposal does.
func (ps *pins) unpin(h uint64) {
	i := ps.index(h)
	switch p := &ps.slots[i]; {
	case p.n > 1:
		p.n--
		return
	case p.n == 0: // not pinned: nothing to count out
		return
	}
	// Free the slot, and move back into it every pin after it, up to the
	// next free slot, that may not be looked for past it: one whose home
	// slot is not between the freed slot and its own.
	mask := uint64(len(ps.slots) - 1)
	ps.slots[i] = pin{}
	ps.used--
	for j := (i + 1) & mask; ps.slots[j].n > 0; j = (j + 1) & mask {
		home := ps.slots[j].hash & mask
		if (j-home)&mask >= (j-i)&mask { // home is not in (i, j]
			ps.slots[i], ps.slots[j] = ps.slots[j], pin{}
			i = j
		}
	}
}

// assign returns the partition of a proposal whose URN has the hash h, and
// counts the proposal in its pin. a.mu is held.
func (a *Async) assign(h uint64) int {
	return a.pins.pin(h, a.fill)
}

// filled notes that a proposal was queued in partition k: when that is the
// partition new URNs go to and its queue now holds whole batches (of
// Async.fillN), or its share of WithQueueBytes, new URNs go to the next one.
// a.mu is held.
func (a *Async) filled(k int) {
	// pt.fillRem is the length of the queue modulo a.fillN, kept without
	// a division (a batch taken from the queue sets it again: see run).
	pt := a.parts[k]
	if pt.fillRem++; pt.fillRem == a.fillN {
		pt.fillRem = 0
	}
	if k != a.fill {
		return
	}
	if pt.fillRem == 0 || a.fillBytes >= 0 && pt.bytes >= a.fillBytes {
		a.fill++
		if a.fill == len(a.parts) {
			a.fill = 0
		}
	}
}

// pinPool keeps the tables of Async emitters that ended, empty, for the
// next ones.
var pinPool sync.Pool

// maxPooledPins is the most slots a table kept in pinPool has: a larger
// one is left to the collector.
const maxPooledPins = 8192

// getPins returns an empty table from pinPool, or a new one. A pooled
// table's slots, free already, are cleared again: that loads their memory
// in order, at the pace of the hardware's prefetching, where the pins of a
// new emitter would take its cache misses one at a time under Async.mu (the
// memory of a table an emitter left is usually cold by the time the next
// one starts).
func getPins() *pins {
	if ps, ok := pinPool.Get().(*pins); ok {
		clear(ps.slots)
		return ps
	}
	return &pins{slots: make([]pin, minPins)}
}

// putPins gives ps back to pinPool when its every pin was counted out
// (its slots are all free) and it is not too large to keep.
func putPins(ps *pins) {
	if ps.used != 0 || len(ps.slots) > maxPooledPins {
		return
	}
	pinPool.Put(ps)
}
