package emitter

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"time"
)

// Defaults of an Async emitter.
const (
	// DefaultWorkers is the number of workers (and URN partitions).
	DefaultWorkers = 4
	// DefaultQueueSize is how many proposals may wait or be in flight,
	// as DataHub's Python sink's max_pending_requests.
	DefaultQueueSize = 2000
	// DefaultBatchSize is the most proposals a worker sends at once, as the
	// Python sink's max_per_batch.
	DefaultBatchSize = 100
	// DefaultLinger is how long a worker waits for a batch to fill before it
	// sends what it has.
	DefaultLinger = 100 * time.Millisecond
	// maxKeptErrors is how many failures Err keeps.
	maxKeptErrors = 10
)

// AsyncOption configures an Async emitter. When an option is given twice
// the last one wins.
type AsyncOption func(*asyncConfig)

type asyncConfig struct {
	workers   int
	queueSize int
	batchSize int
	linger    time.Duration
	block     bool
	onError   func(Proposal, error)
}

// WithWorkers sets the number of workers, each sending one request at a
// time (default DefaultWorkers; below 1 means 1). Proposals are assigned to
// a worker by a hash of their URN, so those for one entity keep their order.
func WithWorkers(n int) AsyncOption {
	return func(c *asyncConfig) { c.workers = max(n, 1) }
}

// WithQueueSize bounds how many proposals may be queued or in flight
// (default DefaultQueueSize; below 1 means 1).
func WithQueueSize(n int) AsyncOption {
	return func(c *asyncConfig) { c.queueSize = max(n, 1) }
}

// WithBatchSize sets the most proposals a worker sends in one Emit of the
// inner REST emitter (default DefaultBatchSize; below 1 means 1), which
// splits them further by its own limits.
func WithBatchSize(n int) AsyncOption {
	return func(c *asyncConfig) { c.batchSize = max(n, 1) }
}

// WithLinger sets how long a worker waits, after a proposal reaches it, for
// more to fill a batch (default DefaultLinger). Zero sends at once. Flush
// and Close do not wait for it.
func WithLinger(d time.Duration) AsyncOption {
	return func(c *asyncConfig) { c.linger = max(d, 0) }
}

// WithBlock sets what Emit does when the queue has no room: wait for room
// or the context's end (true, the default), or return ErrQueueFull at once
// (false). Either way nothing is queued unless everything is.
func WithBlock(block bool) AsyncOption {
	return func(c *asyncConfig) { c.block = block }
}

// WithErrorHandler calls f for every proposal that was not written, with
// the reason (see Result.Err). f runs on a worker goroutine, possibly on
// several at once, and delays that worker's next batch; it must not call
// Flush or Close.
func WithErrorHandler(f func(Proposal, error)) AsyncOption {
	return func(c *asyncConfig) { c.onError = f }
}

// Async emits proposals in the background through a REST emitter: Emit
// queues them and returns, workers send them in batches. Its goroutines
// belong to it and end with Close, which sends everything queued first.
// It is safe for concurrent use.
type Async struct {
	inner *REST
	cfg   asyncConfig

	// ctx is the context of the workers' requests; cancel aborts them when
	// Close's context ends first.
	ctx     context.Context
	cancel  context.CancelFunc
	stopped chan struct{} // closed once every worker has returned

	mu       sync.Mutex
	parts    []*partition
	pending  int           // proposals queued or in flight
	space    chan struct{} // closed (and replaced) when pending drops
	progress chan struct{} // closed (and replaced) when a batch is done
	closed   bool
	failed   int
	errs     []error
}

// partition is the queue of one worker. Its fields are guarded by Async.mu.
type partition struct {
	queue    []queued
	enqueued uint64 // proposals ever queued here
	done     uint64 // proposals ever finished here (written or reported)
	flushTo  uint64 // send without lingering while done < flushTo
	wake     chan struct{}
}

type queued struct {
	p  Proposal
	at time.Time
}

// NewAsync starts an Async emitter that sends through inner.
func NewAsync(inner *REST, opts ...AsyncOption) *Async {
	cfg := asyncConfig{
		workers:   DefaultWorkers,
		queueSize: DefaultQueueSize,
		batchSize: DefaultBatchSize,
		linger:    DefaultLinger,
		block:     true,
	}
	for _, o := range opts {
		o(&cfg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &Async{
		inner:    inner,
		cfg:      cfg,
		ctx:      ctx,
		cancel:   cancel,
		stopped:  make(chan struct{}),
		space:    make(chan struct{}),
		progress: make(chan struct{}),
	}
	var wg sync.WaitGroup
	for range cfg.workers {
		pt := &partition{wake: make(chan struct{}, 1)}
		a.parts = append(a.parts, pt)
		wg.Go(func() { a.run(pt) })
	}
	go func() {
		wg.Wait()
		close(a.stopped)
	}()
	return a
}

// Emit checks the proposals and queues them all, or none. It returns an
// error wrapping datahub.ErrValidation for a proposal that cannot be sent,
// ErrClosed after Close, and, when the queue has no room for them, waits or
// returns ErrQueueFull (see WithBlock); more proposals than the queue holds
// at all are refused with an error wrapping ErrQueueFull. Failures to write
// a queued proposal go to the error handler and Err.
func (a *Async) Emit(ctx context.Context, ps ...Proposal) error {
	if len(ps) == 0 {
		return nil
	}
	for i := range ps {
		if err := ps[i].check(); err != nil {
			if len(ps) > 1 {
				return fmt.Errorf("emitter: proposal %d: %w", i, err)
			}
			return err
		}
	}
	if len(ps) > a.cfg.queueSize {
		return fmt.Errorf("emitter: %d proposals do not fit a queue of %d: %w", len(ps), a.cfg.queueSize, ErrQueueFull)
	}
	a.mu.Lock()
	for {
		if a.closed {
			a.mu.Unlock()
			return ErrClosed
		}
		if a.pending+len(ps) <= a.cfg.queueSize {
			break
		}
		if !a.cfg.block {
			a.mu.Unlock()
			return ErrQueueFull
		}
		space := a.space
		a.mu.Unlock()
		select {
		case <-space:
		case <-ctx.Done():
			return ctx.Err()
		}
		a.mu.Lock()
	}
	now := time.Now()
	var touched uint64 // bit i: partition i got work (first 64 partitions; the rest always woken)
	for i := range ps {
		k := a.partitionOf(&ps[i])
		pt := a.parts[k]
		pt.queue = append(pt.queue, queued{p: ps[i], at: now})
		pt.enqueued++
		if k < 64 {
			touched |= 1 << k
		}
	}
	a.pending += len(ps)
	a.mu.Unlock()
	for k, pt := range a.parts {
		if k >= 64 || touched&(1<<k) != 0 {
			wake(pt.wake)
		}
	}
	return nil
}

// partitionOf returns the worker of p: a hash of its URN.
func (a *Async) partitionOf(p *Proposal) int {
	h := fnv.New32a()
	h.Write([]byte(p.urnString()))
	return int(h.Sum32() % uint32(len(a.parts)))
}

func wake(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// broadcast closes *ch and replaces it, waking every waiter. a.mu is held.
func broadcast(ch *chan struct{}) {
	close(*ch)
	*ch = make(chan struct{})
}

// run is the loop of the worker of pt.
func (a *Async) run(pt *partition) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		a.mu.Lock()
		if len(pt.queue) == 0 {
			closed := a.closed
			a.mu.Unlock()
			if closed {
				return
			}
			<-pt.wake
			continue
		}
		wait := time.Until(pt.queue[0].at.Add(a.cfg.linger))
		ready := len(pt.queue) >= a.cfg.batchSize || a.closed || pt.flushTo > pt.done || wait <= 0
		if !ready {
			a.mu.Unlock()
			timer.Reset(wait)
			select {
			case <-pt.wake:
				timer.Stop()
			case <-timer.C:
			}
			continue
		}
		n := min(len(pt.queue), a.cfg.batchSize)
		batch := make([]Proposal, n)
		for i := range n {
			batch[i] = pt.queue[i].p
		}
		clear(pt.queue[:n])
		pt.queue = pt.queue[n:]
		a.mu.Unlock()

		a.send(batch)

		a.mu.Lock()
		pt.done += uint64(n)
		a.pending -= n
		broadcast(&a.space)
		broadcast(&a.progress)
		a.mu.Unlock()
	}
}

// send emits batch through the inner emitter and reports what was not
// written.
func (a *Async) send(batch []Proposal) {
	err := a.inner.Emit(a.ctx, batch...)
	if err == nil {
		return
	}
	var be *BatchError
	if len(batch) > 1 && errors.As(err, &be) {
		for _, r := range be.Results {
			if r.Status != Written {
				a.report(batch[r.Index], r.Err)
			}
		}
		return
	}
	for _, p := range batch {
		a.report(p, err)
	}
}

// report records a proposal that was not written and calls the handler.
func (a *Async) report(p Proposal, err error) {
	if err == nil {
		err = errors.New("emitter: proposal not written")
	}
	err = fmt.Errorf("emitter: %s %s: %w", p.urnString(), p.aspectName(), err)
	a.mu.Lock()
	a.failed++
	if len(a.errs) < maxKeptErrors {
		a.errs = append(a.errs, err)
	}
	a.mu.Unlock()
	if a.cfg.onError != nil {
		a.cfg.onError(p, err)
	}
}

// Err returns nil if every proposal handled so far was written, else an
// *AsyncError counting the failures. It is sticky.
func (a *Async) Err() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.failed == 0 {
		return nil
	}
	return &AsyncError{Failed: a.failed, Errs: append([]error(nil), a.errs...)}
}

// AsyncError reports proposals an Async emitter could not write.
type AsyncError struct {
	// Failed counts the proposals not written.
	Failed int
	// Errs holds the first failures (at most 10), each naming its proposal.
	Errs []error
}

// Error counts the failures and shows the first.
func (e *AsyncError) Error() string {
	if len(e.Errs) == 0 {
		return fmt.Sprintf("emitter: %d proposals not written", e.Failed)
	}
	return fmt.Sprintf("emitter: %d proposals not written; first: %v", e.Failed, e.Errs[0])
}

// Unwrap returns the failures kept.
func (e *AsyncError) Unwrap() []error { return e.Errs }

// Flush sends everything queued before the call without waiting for
// batches to fill, and waits until it has been written or reported. It
// returns ctx's error if ctx ends first (the proposals stay queued), else
// Err.
func (a *Async) Flush(ctx context.Context) error {
	a.mu.Lock()
	targets := make([]uint64, len(a.parts))
	for i, pt := range a.parts {
		targets[i] = pt.enqueued
		if pt.flushTo < pt.enqueued {
			pt.flushTo = pt.enqueued
			wake(pt.wake)
		}
	}
	a.mu.Unlock()
	for {
		a.mu.Lock()
		done := true
		for i, pt := range a.parts {
			if pt.done < targets[i] {
				done = false
				break
			}
		}
		progress := a.progress
		a.mu.Unlock()
		if done {
			return a.Err()
		}
		select {
		case <-progress:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Close stops accepting proposals, sends everything queued and waits for
// the workers to end. If ctx ends first, Close aborts the requests in
// flight; every proposal not written is then reported to the error handler
// and Err (none is dropped silently), and Close returns ctx's error once
// the workers have ended. Otherwise it returns Err. Close may be called
// more than once.
func (a *Async) Close(ctx context.Context) error {
	a.mu.Lock()
	if !a.closed {
		a.closed = true
		broadcast(&a.space) // blocked Emit calls see closed
		for _, pt := range a.parts {
			wake(pt.wake)
		}
	}
	a.mu.Unlock()
	select {
	case <-a.stopped:
	case <-ctx.Done():
		a.cancel()
		<-a.stopped
		return ctx.Err()
	}
	a.cancel()
	return a.Err()
}
