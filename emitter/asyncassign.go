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
// whole batch, then to the next: the requests are full (ten requests for
// a thousand proposals of distinct URNs in batches of a hundred, where a
// hash of the URN gave each of four workers a remainder to send alone at
// Close), and a worker has a batch to send as soon as a batch's worth was
// queued instead of when every worker's share was.

// pins maps the hash of a URN's text (urnHash) to its pin, for the URNs
// with proposals queued or in flight. Two URNs of the same hash share a
// pin: they go to one worker, which keeps the order of both.
type pins map[uint64]pin

// pin is where the proposals of one URN go while any is queued or in
// flight.
type pin struct {
	part int32 // the partition (worker)
	n    int32 // how many are queued or in flight
}

// assign returns the partition of a proposal whose URN has the hash h, and
// counts the proposal in its pin. a.mu is held.
func (a *Async) assign(h uint64) int {
	if p, ok := a.pins[h]; ok {
		p.n++
		a.pins[h] = p
		return int(p.part)
	}
	a.pins[h] = pin{part: int32(a.fill), n: 1}
	a.pinsPeak = max(a.pinsPeak, len(a.pins))
	return a.fill
}

// filled notes that a proposal was queued in partition k: when that is the
// partition new URNs go to and its queue now holds whole batches, new URNs
// go to the next one. a.mu is held.
func (a *Async) filled(k int) {
	if k == a.fill && a.parts[k].queue.len()%a.cfg.batchSize == 0 {
		a.fill = (a.fill + 1) % len(a.parts)
	}
}

// unpin counts out a proposal of the URN of hash h, whose outcome is
// known. a.mu is held.
func (ps pins) unpin(h uint64) {
	p := ps[h]
	if p.n <= 1 {
		delete(ps, h)
		return
	}
	p.n--
	ps[h] = p
}

// pinPool keeps the pins of Async emitters that ended, empty, for the
// next ones: a map's memory is kept by clear.
var pinPool sync.Pool

// getPins returns an empty pins from pinPool.
func getPins() pins {
	if ps, ok := pinPool.Get().(pins); ok {
		return ps
	}
	return pins{}
}

// maxPooledPins is the most URNs a map kept in pinPool held: a larger one
// is left to the collector.
const maxPooledPins = 4096

// putPins gives ps, whose URNs have all been counted out, back to pinPool.
// grown is how many URNs it held at most.
func putPins(ps pins, grown int) {
	if len(ps) != 0 || grown > maxPooledPins {
		return
	}
	pinPool.Put(ps)
}
