package emitter

// ring is the queue of one Async worker: a circular buffer of queued
// proposals, first in first out, that doubles when full and keeps its
// memory, so that a worker taking batches from its front does not make the
// producers' appends allocate again.
type ring struct {
	buf     []queued
	head, n int
}

// newRing returns an empty ring with room for size proposals.
func newRing(size int) ring { return ring{buf: make([]queued, max(size, 1))} }

// len returns how many proposals are queued.
func (q *ring) len() int { return q.n }

// front returns the first proposal; the ring is not empty.
func (q *ring) front() *queued { return &q.buf[q.head] }

// push adds v at the end.
func (q *ring) push(v queued) {
	if q.n == len(q.buf) {
		grown := make([]queued, 2*len(q.buf))
		k := copy(grown, q.buf[q.head:])
		copy(grown[k:], q.buf[:q.head])
		q.buf, q.head = grown, 0
	}
	i := q.head + q.n
	if i >= len(q.buf) {
		i -= len(q.buf)
	}
	q.buf[i] = v
	q.n++
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
	if q.n == 0 {
		q.head = 0
	}
	return dst
}
