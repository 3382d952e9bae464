package gms

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// asyncQueue holds the writes of proposals sent with "async": "true" until
// the configured lag has passed on the server's clock, as GMS's Kafka path
// makes them visible later. Due writes are applied by the core's barrier
// before every read and write (so that a test's fake clock is honoured at
// once and writes land in order) and by one goroutine owned by the
// queue, which Close stops after applying everything still pending.
type asyncQueue struct {
	c *Core

	// mu guards pending and serialises applying, so that writes land in the
	// order they were accepted.
	mu      sync.Mutex
	pending []pendingWrite

	wake     chan struct{} // a new entry was added
	stop     chan struct{} // closed by close
	stopOnce sync.Once
	done     chan struct{} // closed when run returns; nil if never started
}

type pendingWrite struct {
	due   time.Time
	items []item
	ws    []store.Write // the items' writes
	batch bool
}

func newAsyncQueue(c *Core) *asyncQueue {
	q := &asyncQueue{c: c, wake: make(chan struct{}, 1), stop: make(chan struct{})}
	if c.opts.AsyncLag > 0 {
		q.done = make(chan struct{})
		go q.run()
	}
	return q
}

// add queues validated items and their writes ws, visible once the lag has
// passed.
func (q *asyncQueue) add(items []item, ws []store.Write, batch bool) {
	q.mu.Lock()
	q.pending = append(q.pending, pendingWrite{due: q.c.opts.Clock().Add(q.c.opts.AsyncLag), items: items, ws: ws, batch: batch})
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// flushDue applies the entries whose time has come.
func (q *asyncQueue) flushDue() { q.flush(false) }

// flush applies due entries in order (all of them when all is set), each
// proposal of an entry on its own. A write that fails now (a condition no longer holds) is dropped with a warning in
// the log, as GMS's consumer drops it: the client got its 200 long ago.
func (q *asyncQueue) flush(all bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.pending) == 0 {
		return
	}
	now := q.c.opts.Clock()
	n := 0
	for n < len(q.pending) && (all || !q.pending[n].due.After(now)) {
		q.applyEach(q.pending[n].items, q.pending[n].ws, q.pending[n].batch)
		n++
	}
	q.pending = append(q.pending[:0], q.pending[n:]...)
}

// applyEach applies the proposals of an async request in order, each on its
// own as GMS puts each on Kafka separately: one that fails is dropped (and
// logged) without the others.
func (q *asyncQueue) applyEach(items []item, ws []store.Write, batch bool) {
	for i := range items {
		if _, err := q.c.apply(items[i:i+1], ws[i:i+1], batch); err != nil {
			q.c.traces.failed(items[i:i+1], err)
			q.dropped(err)
		}
	}
}

// dropped logs an async write that failed when it was applied.
func (q *asyncQueue) dropped(err *Error) {
	q.c.opts.Logger.LogAttrs(context.Background(), slog.LevelWarn, "async write dropped",
		slog.String("kind", err.Kind.String()), slog.String("error", err.Message))
}

// next returns how long until the earliest entry is due, and whether there
// is one.
func (q *asyncQueue) next() (time.Duration, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.pending) == 0 {
		return 0, false
	}
	return q.pending[0].due.Sub(q.c.opts.Clock()), true
}

// run applies entries as they fall due in real time. With a fake clock that
// does not move, entries wait for a read or Close.
func (q *asyncQueue) run() {
	defer close(q.done)
	const minWait = 5 * time.Millisecond
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		q.flushDue()
		wait := time.Hour
		if d, ok := q.next(); ok {
			wait = max(d, minWait)
		}
		t.Reset(wait)
		select {
		case <-q.stop:
			return
		case <-q.wake:
		case <-t.C:
		}
	}
}

// reset drops every pending entry.
func (q *asyncQueue) reset() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pending = nil
}

// close stops the goroutine and applies everything still pending. It may
// be called more than once.
func (q *asyncQueue) close() error {
	q.stopOnce.Do(func() { close(q.stop) })
	if q.done != nil {
		<-q.done
	}
	q.flush(true)
	return nil
}
