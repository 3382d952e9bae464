package emitter

import "time"

// AsyncOption configures an Async emitter. When an option is given twice
// the last one wins.
type AsyncOption struct{ apply func(*asyncConfig) }

type asyncConfig struct {
	workers    int
	queueSize  int
	queueBytes int
	batchSize  int
	linger     time.Duration
	block      bool
	onError    func(Proposal, error)
	onResult   func(AsyncResult)
}

// WithWorkers sets the number of workers, each sending one request at a
// time (default DefaultWorkers; below 1 means 1). A proposal whose URN has
// others queued or in flight goes to their worker, behind them, so those
// for one entity keep their order; one of any other URN goes to the worker
// being filled, each in turn taking a whole batch, so that requests are
// full.
func WithWorkers(n int) AsyncOption {
	return AsyncOption{func(c *asyncConfig) { c.workers = max(n, 1) }}
}

// WithQueueSize bounds how many proposals may be queued or in flight
// (default DefaultQueueSize; below 1 means 1).
func WithQueueSize(n int) AsyncOption {
	return AsyncOption{func(c *asyncConfig) { c.queueSize = max(n, 1) }}
}

// WithQueueBytes bounds the encoded size of the proposals queued or in
// flight (default DefaultQueueBytes; 0 or less: no bound in bytes), so
// that a queue of large aspects holds less memory than one of small ones.
func WithQueueBytes(n int) AsyncOption {
	return AsyncOption{func(c *asyncConfig) { c.queueBytes = max(n, 0) }}
}

// WithBatchSize sets the most proposals a worker sends in one Emit of the
// inner REST emitter (default DefaultBatchSize; below 1 means 1), which
// splits them further by its own limits.
func WithBatchSize(n int) AsyncOption {
	return AsyncOption{func(c *asyncConfig) { c.batchSize = max(n, 1) }}
}

// WithLinger sets how long a worker waits, after a proposal reaches it, for
// more to fill a batch (default DefaultLinger). Zero sends at once. Flush
// and Close do not wait for it.
func WithLinger(d time.Duration) AsyncOption {
	return AsyncOption{func(c *asyncConfig) { c.linger = max(d, 0) }}
}

// WithBlock sets what Emit does when the queue has no room: wait for room
// or the context's end (true, the default), or return ErrQueueFull at once
// (false). Either way nothing is queued unless everything is.
func WithBlock(block bool) AsyncOption {
	return AsyncOption{func(c *asyncConfig) { c.block = block }}
}

// WithResultHandler calls f with the outcome of every proposal, written or
// not, so that a long ingestion can checkpoint what the server
// acknowledged (see AsyncResult.Seq). Handlers run on one goroutine of the
// Async emitter, one call at a time, in the order outcomes arrive (the
// order of Emit for one URN); a slow handler delays the reporting, not the
// sending. A handler may Emit again (to re-queue), but must not call Flush
// or Close.
func WithResultHandler(f func(AsyncResult)) AsyncOption {
	return AsyncOption{func(c *asyncConfig) { c.onResult = f }}
}

// WithErrorHandler calls f for every proposal that was not written, or may
// not have been (see AsyncResult.Status), with the reason. It runs as
// WithResultHandler's handler does, after it; it may Emit the proposal
// again, but must not call Flush or Close.
func WithErrorHandler(f func(Proposal, error)) AsyncOption {
	return AsyncOption{func(c *asyncConfig) { c.onError = f }}
}
