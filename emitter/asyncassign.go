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

// pins maps the hash of a URN's text (urnHash) to its pin: an
// open-addressed table probed linearly from the hash's low bits (maphash
// spreads them), at most half full. A pin names the URN's partition and the
// position there (partition.enqueued once it was queued) of the URN's last
// proposal queued; it is live while that partition has not finished that
// position (partition.finished, which its worker advances once a batch),
// that is while a proposal of the URN is queued or in flight. Nothing is
// counted out a proposal: a dead pin stays in its slot until its URN comes
// again (it is pinned anew in that slot) or the table fills and sweep drops
// it. A pin keeps the hash's low 32 bits: two URNs that share them share a
// pin, and go to one worker, which keeps the order of both.
type pins struct {
	slots []pin // a power of two of them; last == 0 marks a free slot
	used  int   // slots holding a pin, live or dead
	// spare is sweep's scratch, kept for the next sweep.
	spare []pin
}

// pin is where the proposals of one URN go while any is queued or in
// flight.
type pin struct {
	tag  uint32 // the low 32 bits of the URN's hash
	part int32  // the partition (worker)
	// last is the position in part of the URN's last proposal queued (its
	// partition.enqueued once queued, from 1); 0: a free slot.
	last uint64
}

// minPins is the size of a new table.
const minPins = 256

// pinTag is what a pin keeps of the hash h.
func pinTag(h uint64) uint32 { return uint32(h) }

// find returns the slot of the tag t: its pin, or the free slot where it
// would go.
func (ps *pins) find(t uint32) *pin {
	mask := uint64(len(ps.slots) - 1)
	for i := uint64(t) & mask; ; i = (i + 1) & mask {
		if p := &ps.slots[i]; p.last == 0 || p.tag == t {
			return p
		}
	}
}

// live reports whether p, a pin, is live: its partition has not finished
// its URN's last proposal.
func (p *pin) live(parts []*partition) bool { return parts[p.part].finished < p.last }

// pin returns the partition of a proposal of the URN of hash h that is
// about to be queued: the partition its pin names while it is live, or
// else part, which it is pinned to now. The pin's last proposal is this
// one: its position is its partition's enqueued count plus one.
func (ps *pins) pin(h uint64, part int, parts []*partition) int {
	t := pinTag(h)
	p := ps.find(t)
	if p.last != 0 {
		if p.live(parts) {
			part = int(p.part)
		} else {
			p.part = int32(part) // dead: pinned anew, in its slot
		}
		p.last = parts[part].enqueued + 1
		return part
	}
	if 2*(ps.used+1) > len(ps.slots) {
		ps.sweep(parts)
		p = ps.find(t) // its free slot in the swept table
	}
	*p = pin{tag: t, part: int32(part), last: parts[part].enqueued + 1}
	ps.used++
	return part
}

// sweep drops the dead pins, and doubles the table when the live ones
// fill more than a quarter of it, so that at least a quarter of it is
// pinned before the next sweep: a sweep's cost, a pass over the table, is
// spread over as many new pins.
func (ps *pins) sweep(parts []*partition) {
	live := ps.spare[:0]
	for i := range ps.slots {
		if p := &ps.slots[i]; p.last != 0 && p.live(parts) {
			live = append(live, *p)
		}
	}
	if n := len(ps.slots); 4*(len(live)+1) > n {
		ps.slots = make([]pin, max(2*n, minPins))
	} else {
		clear(ps.slots)
	}
	for _, p := range live {
		*ps.find(p.tag) = p
	}
	ps.used = len(live)
	ps.spare = live[:0]
}

// assign returns the partition of a proposal whose URN has the hash h,
// about to be queued there, and notes it as its URN's last (see pins).
// a.mu is held.
func (a *Async) assign(h uint64) int {
	return a.pins.pin(h, a.fill, a.parts)
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

// pinPool keeps the tables of Async emitters that ended, for the next
// ones (getPins clears them).
var pinPool sync.Pool

// maxPooledPins is the most slots a table kept in pinPool has: a larger
// one is left to the collector.
const maxPooledPins = 8192

// getPins returns an empty table from pinPool, or a new one. A pooled
// table's slots are cleared (its pins name the partitions of an emitter
// that ended); that also loads their memory
// in order, at the pace of the hardware's prefetching, where the pins of a
// new emitter would take its cache misses one at a time under Async.mu (the
// memory of a table an emitter left is usually cold by the time the next
// one starts).
func getPins() *pins {
	if ps, ok := pinPool.Get().(*pins); ok {
		clear(ps.slots)
		ps.used = 0
		return ps
	}
	return &pins{slots: make([]pin, minPins)}
}

// putPins gives ps, whose emitter ended, back to pinPool unless it is too
// large to keep.
func putPins(ps *pins) {
	if len(ps.slots) > maxPooledPins {
		return
	}
	pinPool.Put(ps)
}
