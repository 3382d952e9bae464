package store

import "sync"

// Concurrent batches (Apply) commit one after the other under the writer
// lock. A batch that finds another committing does not wait to take the
// lock itself: it queues, and the batch committing applies the queued
// batches after its own, each in its own update (its own transaction,
// rollback and events, as if it had taken the lock), in the order they
// queued, and wakes each once it is applied. The lock is so never left
// free while its next writer wakes up: the writes of concurrent batches
// follow each other without a gap, and a queued batch's goroutine, woken
// once its batch is in, only answers.

// maxCombined is the most queued batches a committing batch applies for
// others before it hands the rest over to the first of them and returns
// (so that no caller applies others' batches for ever).
const maxCombined = 8

// commitQueue is the batches waiting for the one committing (see above).
type commitQueue struct {
	mu      sync.Mutex
	running bool // a batch is committing
	queue   []*queuedCommit
}

// queuedCommit is a batch waiting in a commitQueue.
type queuedCommit struct {
	a     *applying
	later *tidy
	// lead, set before done is closed, hands the queue over: the batch
	// was not applied, its goroutine commits it and goes on with the queue.
	lead     bool
	err      error
	panicked any // what the batch's update panicked with, re-raised by its goroutine
	done     chan struct{}
}

// commit applies a's batch under the writer lock (see applying.update),
// or has the batch committing apply it; it returns once it is applied.
func (q *commitQueue) commit(a *applying, later *tidy) error {
	q.mu.Lock()
	if !q.running {
		q.running = true
		q.mu.Unlock()
		defer q.drain()
		return a.update(later)
	}
	c := &queuedCommit{a: a, later: later, done: make(chan struct{})}
	q.queue = append(q.queue, c)
	q.mu.Unlock()
	<-c.done
	if c.lead {
		defer q.drain()
		return a.update(later)
	}
	if c.panicked != nil {
		panic(c.panicked)
	}
	return c.err
}

// drain applies the batches queued while the caller's committed, in order,
// then lets the next batch commit: it clears running when none is queued,
// and after maxCombined batches hands the queue to the first one waiting.
func (q *commitQueue) drain() {
	for n := 0; ; n++ {
		q.mu.Lock()
		if len(q.queue) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		c := q.queue[0]
		q.queue[0] = nil
		q.queue = q.queue[1:]
		if len(q.queue) == 0 {
			q.queue = nil
		}
		if n == maxCombined {
			c.lead = true // running stays set: c's goroutine drains the rest
			q.mu.Unlock()
			close(c.done)
			return
		}
		q.mu.Unlock()
		c.apply()
		close(c.done)
	}
}

// apply applies c's batch for its goroutine, keeping its error or panic.
func (c *queuedCommit) apply() {
	defer func() {
		if v := recover(); v != nil {
			c.panicked = v
		}
	}()
	c.err = c.a.update(c.later)
}
