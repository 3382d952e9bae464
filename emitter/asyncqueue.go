package emitter

import (
	"sync"
)

// ring is the queue of one Async worker: a circular buffer of queued
// proposals, first in first out, that doubles when full and keeps its
// memory, so that a worker taking batches from its front does not make the
// producers' appends allocate again. The worker sends a batch from the
// ring's memory, lent to it (lend), unless the batch wraps around its end
// (take copies it).
type ring struct {
	buf     []queued
	head, n int
	// lent is how many slots lend lent, not given back yet: add keeps that
	// many free, the lent ones before head (or, once the ring grew, as
	// many of its new memory, the lent ones being in the old).
	lent int
}

// newRing returns an empty ring with room for size proposals.
func newRing(size int) ring { return ring{buf: make([]queued, max(size, 1))} }

// len returns how many proposals are queued.
func (q *ring) len() int { return q.n }

// front returns the first proposal; the ring is not empty.
func (q *ring) front() *queued { return &q.buf[q.head] }

// push adds v at the end.
func (q *ring) push(v queued) { *q.add() = v }

// add adds an empty slot at the end and returns it, for the caller to
// fill.
func (q *ring) add() *queued {
	if q.n+q.lent == len(q.buf) {
		// Only the queue is copied: lent slots stay in the old memory, the
		// borrower's alone.
		grown := make([]queued, 2*len(q.buf))
		k := copy(grown[:q.n], q.buf[q.head:])
		copy(grown[k:q.n], q.buf)
		q.buf, q.head = grown, 0
	}
	i := q.head + q.n
	if i >= len(q.buf) {
		i -= len(q.buf)
	}
	q.n++
	return &q.buf[i]
}

// take appends the first n proposals (n <= q.len()) to dst, removes them
// (their slots cleared, so that the ring does not keep what they point
// to) and returns dst.
func (q *ring) take(dst []queued, n int) []queued {
	first := min(n, len(q.buf)-q.head)
	dst = append(dst, q.buf[q.head:q.head+first]...)
	clear(q.buf[q.head : q.head+first])
	if rest := n - first; rest > 0 {
		dst = append(dst, q.buf[:rest]...)
		clear(q.buf[:rest])
	}
	q.head += n
	if q.head >= len(q.buf) {
		q.head -= len(q.buf)
	}
	q.n -= n
	if q.n == 0 && q.lent == 0 {
		q.head = 0
	}
	return dst
}

// lend removes the first n proposals (n <= q.len()) from the queue and
// returns them in q's memory, not copied, when they lie in one run of it
// and nothing is lent already; otherwise it returns nil (take copies
// them). Their slots are the borrower's, unused by add, until giveBack;
// the borrower clears them first, so that the ring does not keep what
// they point to.
func (q *ring) lend(n int) []queued {
	if q.lent != 0 || q.head+n > len(q.buf) {
		return nil
	}
	s := q.buf[q.head : q.head+n : q.head+n]
	q.head += n
	if q.head == len(q.buf) {
		q.head = 0
	}
	q.n -= n
	q.lent = n
	return s
}

// giveBack ends the loan of lend: the slots it lent, cleared, are the
// ring's again (or, when the ring grew since, the slots it kept free in
// their stead).
func (q *ring) giveBack() {
	q.lent = 0
	if q.n == 0 {
		q.head = 0
	}
}

// workerMem is the memory of one Async worker: its queue's ring, the
// copy of a batch that wraps around the ring's end, and its sendScratch.
// A worker that returns gives it back to workerPool, empty, for the
// workers of the next Async emitter.
type workerMem struct {
	buf   []queued // the ring's, given back
	batch []queued
	sc    sendScratch
}

// workerPool holds the memory of workers that returned.
var workerPool sync.Pool

// maxPooledRing is the most proposals a ring kept in workerPool holds.
const maxPooledRing = 4096

// getWorkerMem returns a workerMem from workerPool.
func getWorkerMem() *workerMem {
	if m, ok := workerPool.Get().(*workerMem); ok {
		return m
	}
	return new(workerMem)
}

// ring returns an empty ring with room for size proposals, in m's memory
// when it has room.
func (m *workerMem) ring(size int) ring {
	if len(m.buf) >= size && len(m.buf) > 0 {
		buf := m.buf
		m.buf = nil
		return ring{buf: buf}
	}
	return newRing(size)
}

// putWorkerMem gives m back to workerPool with the memory of q, an empty
// ring (whose slots take cleared), unless it grew too large to keep.
func putWorkerMem(m *workerMem, q *ring) {
	if q.n != 0 || len(q.buf) > maxPooledRing || cap(m.batch) > maxPooledRing {
		return
	}
	m.buf = q.buf
	*q = ring{}
	clear(m.batch[:cap(m.batch)])
	workerPool.Put(m)
}
