package store

// TakeDue removes the pending events for which due reports true, up to the
// first for which it reports false, and returns them in order. It takes
// them at once, under one lock: when every pending event is due, the
// subscription's queue itself is handed over and spare (a slice TakeDue
// returned before, which the caller is done with) becomes the queue, so
// that nothing is copied. The events returned are the caller's until it
// passes them back as spare; due must not call the subscription.
func (sub *Subscription) TakeDue(spare []Event, due func(*Event) bool) []Event {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if sub.closed || sub.head >= len(sub.queue) {
		return spare[:0]
	}
	pending := sub.queue[sub.head:]
	n, size := 0, 0
	for n < len(pending) && due(&pending[n]) {
		size += eventSize(&pending[n])
		n++
	}
	if n == 0 {
		return spare[:0]
	}
	sub.bytes -= size
	if n == len(pending) {
		clear(spare)
		sub.queue, sub.head, sub.bytes = spare[:0], 0, 0
		return pending
	}
	out := append(spare[:0], pending[:n]...)
	clear(pending[:n])
	sub.head += n
	if sub.head == len(sub.queue) {
		sub.queue, sub.head, sub.bytes = sub.queue[:0], 0, 0
	}
	return out
}
