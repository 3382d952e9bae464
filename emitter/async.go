package emitter

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of an Async emitter.
const (
	// DefaultWorkers is the number of workers (and URN partitions).
	DefaultWorkers = 4
	// DefaultQueueSize is how many proposals may wait or be in flight,
	// as DataHub's Python sink's max_pending_requests.
	DefaultQueueSize = 2000
	// DefaultQueueBytes is how many bytes of encoded proposals may wait or
	// be in flight: 64 MiB, room for four proposals of the largest request
	// GMS takes, or thousands of ordinary ones.
	DefaultQueueBytes = 64 << 20
	// DefaultBatchSize is the most proposals a worker sends at once, as the
	// Python sink's max_per_batch.
	DefaultBatchSize = 100
	// DefaultLinger is how long a worker waits for a batch to fill before it
	// sends what it has.
	DefaultLinger = 100 * time.Millisecond
	// maxKeptErrors is how many failures Err keeps.
	maxKeptErrors = 10
)

// Async emits proposals in the background through a REST emitter: Emit
// checks and encodes them, queues them and returns; workers send them in
// batches. Its goroutines (the workers and, with handlers, one that calls them)
// belong to it and end with Close, which sends everything queued first.
// It is safe for concurrent use.
type Async struct {
	inner *REST
	cfg   asyncConfig

	// ctx is the context of the workers' requests; cancel aborts them when
	// Close's context ends first.
	ctx     context.Context
	cancel  context.CancelFunc
	stopped chan struct{} // closed once the workers and the reporter (if any) have returned

	mu           sync.Mutex
	parts        []*partition
	pins         *pins         // where the URNs with proposals queued or in flight go (see assign)
	fill         int           // the partition a proposal of any other URN goes to
	pending      int           // proposals queued or in flight
	pendingBytes int           // their encoded size
	space        chan struct{} // closed (and replaced) when pending drops, if spaceWanted
	progress     chan struct{} // closed (and replaced) when outcomes are reported, if progressWanted
	closed       bool
	seq          uint64 // proposals ever accepted
	counts       [numStatus]int
	errs         []error
	outbox       []outcomes    // outcomes the reporter has yet to hand out
	outWake      chan struct{} // wakes the reporter
	workersDone  bool
	// fillN is how many proposals a worker is given before the next one
	// is filled (see filled): a batch, or, when the queue cannot hold a
	// batch for each worker, the worker's share of it, so that every
	// worker has work. fillBytes is a worker's share of WithQueueBytes
	// (-1: no bound).
	fillN, fillBytes int

	// spaceWanted and progressWanted say that a call waits on space or
	// progress: with none waiting, nothing is closed and made again.
	spaceWanted, progressWanted bool
}

// partition is the queue of one worker. Its fields are guarded by Async.mu.
type partition struct {
	queue ring
	// kept is the memory the Rest.li encodings of the proposals queued by
	// an Emit of several are kept in, one after the other, each followed
	// by a comma, so that a batch of them is sent as one slice (see
	// joined); a full one is left to the collector, once its proposals are
	// sent, and a new one started. (A single proposal's encoding is kept
	// where encodeKept wrote it.)
	kept     []byte
	enqueued uint64 // proposals ever queued here
	bytes    int    // the size of the proposals queued here (see queued.size)
	// finished counts the proposals queued here whose outcome is counted
	// or in the outbox (the first ones queued: a worker sends in queue
	// order); a pin of this partition is live while it is short of the
	// pin's last (see pins).
	finished uint64
	done     uint64 // proposals ever reported here (written or not)
	flushTo  uint64 // send without lingering while done < flushTo
	fillRem  int    // queue.len() % Async.fillN (see Async.filled)
	wake     chan struct{}
}

// queued is a proposal as Emit took it: encoded, so that later changes to
// the caller's values do not change what is sent.
type queued struct {
	item encoded
	// v3 is the proposal encoded for OpenAPI, nil when item is Rest.li's.
	v3          *v3Encoded
	urn, aspect string
	p           *Proposal // the caller's value, kept only for the handlers
	seq         uint64
	hash        uint64 // the hash of its URN's text (see urnHash)
	size        int    // its encoded size and its URN's length
	at          clock  // when it was queued
}

// outcomes are the results of one batch of one partition.
type outcomes struct {
	pt *partition
	// n is the number of proposals of the batch.
	n int
	// results are their outcomes, for the handlers; without handlers, only
	// those not Written (for Err).
	results []AsyncResult
}

// AsyncResult is the outcome of one proposal given to [Async.Emit].
type AsyncResult struct {
	// Seq is the proposal's position among all the proposals the Async
	// emitter accepted, from 1, in the order Emit accepted them (the
	// proposals of one Emit call are consecutive).
	Seq uint64
	// Proposal is the value given to Emit. What was sent is what its
	// aspect held when Emit returned; later changes do not show there.
	Proposal Proposal
	// Status is what happened to the proposal: Written, Rejected, Failed,
	// Unknown (its answer was lost: the emitter keeps nothing, read the
	// aspect to learn), Stopped (Close's context ended while it was in
	// flight: it may have been applied) or NotAttempted (Close's context
	// ended before it was sent). The emitter keeps no proposal once it is
	// reported: emitting it again is the handler's choice.
	Status Status
	// Err is nil when the proposal was Written, else why not; it names the
	// proposal, and matches datahub.ErrOutcomeUnknown for Unknown and
	// Stopped, and datahub.ErrStopped for Stopped.
	Err error
}

// NewAsync starts an Async emitter that sends through inner.
func NewAsync(inner *REST, opts ...AsyncOption) *Async {
	cfg := asyncConfig{
		workers:    DefaultWorkers,
		queueSize:  DefaultQueueSize,
		queueBytes: DefaultQueueBytes,
		batchSize:  DefaultBatchSize,
		linger:     DefaultLinger,
		block:      true,
	}
	for _, o := range opts {
		o.apply(&cfg)
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
		outWake:  make(chan struct{}, 1),
		pins:     getPins(),
	}
	a.fillN, a.fillBytes = max(1, min(cfg.batchSize, cfg.queueSize/cfg.workers)), -1
	if cfg.queueBytes > 0 {
		a.fillBytes = cfg.queueBytes / cfg.workers
	}
	// The last worker to return ends the Async: it lets the reporter (when
	// there are handlers to call) hand out what is left and close stopped,
	// or closes stopped itself.
	reports := a.reports()
	var running atomic.Int32
	running.Store(int32(cfg.workers))
	for range cfg.workers {
		mem := getWorkerMem()
		pt := &partition{wake: make(chan struct{}, 1), queue: mem.ring(min(4*cfg.batchSize, cfg.queueSize, 1024))}
		a.parts = append(a.parts, pt)
		go func() {
			growStack(int(running.Load()))
			a.run(pt, mem)
			if running.Add(-1) > 0 {
				return
			}
			a.mu.Lock()
			putPins(a.pins) // every proposal was reported: every pin is dead
			a.pins = nil
			a.mu.Unlock()
			if !reports {
				close(a.stopped)
				return
			}
			a.mu.Lock()
			a.workersDone = true
			a.mu.Unlock()
			wake(a.outWake)
		}()
	}
	if reports {
		go func() {
			defer close(a.stopped)
			a.report()
		}()
	}
	return a
}

// reports says whether outcomes go to handlers, through the reporter
// goroutine; without handlers, the workers account for them themselves.
func (a *Async) reports() bool { return a.cfg.onError != nil || a.cfg.onResult != nil }

// urnSeed seeds the hash that assigns a URN to its partition: the same
// URN text goes to the same partition within a process.
var urnSeed = maphash.MakeSeed()

// urnHash is the hash of the URN text u that picks its partition.
func urnHash(u string) uint64 { return maphash.String(urnSeed, u) }

func wake(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// progressed wakes the calls waiting for outcomes to be reported. a.mu is
// held.
func (a *Async) progressed() {
	if a.progressWanted {
		broadcast(&a.progress)
		a.progressWanted = false
	}
}

// broadcast closes *ch and replaces it, waking every waiter. a.mu is held.
func broadcast(ch *chan struct{}) {
	close(*ch)
	*ch = make(chan struct{})
}

// run is the loop of the worker of pt, whose memory, mem, it gives back
// to workerPool when it returns.
func (a *Async) run(pt *partition, mem *workerMem) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	batch := mem.batch[:0] // the copy of a batch that wraps around the ring's end, its memory used again
	sc := &mem.sc
	for {
		a.mu.Lock()
		if pt.queue.len() == 0 {
			closed := a.closed
			a.mu.Unlock()
			if closed {
				mem.batch = batch[:0]
				putWorkerMem(mem, &pt.queue)
				return
			}
			<-pt.wake
			continue
		}
		wait := pt.queue.front().at.until(a.cfg.linger)
		ready := pt.queue.len() >= a.cfg.batchSize || a.closed || pt.flushTo > pt.done || wait <= 0
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
		n := min(pt.queue.len(), a.cfg.batchSize)
		// The batch is sent from the ring's memory, lent (nothing copied
		// under the lock), or, when it wraps around the ring's end, from a
		// copy in batch.
		qs := pt.queue.lend(n)
		lent := qs != nil
		if !lent {
			batch = pt.queue.take(batch[:0], n)
			qs = batch
		}
		pt.fillRem = pt.queue.len() % a.fillN
		size := 0
		for i := range qs {
			size += qs[i].size
		}
		pt.bytes -= size
		a.mu.Unlock()

		reports := a.reports()
		results := a.send(qs, reports, sc)
		clear(qs) // the proposals are not kept past their outcome (and lent slots go back cleared)

		// The room is given back before the outcomes are handed out, so that
		// a handler that queues again does not wait for itself.
		a.mu.Lock()
		if lent {
			pt.queue.giveBack()
		}
		a.pending -= n
		a.pendingBytes -= size
		// The batch's pins go dead, unless a later proposal of their URN
		// is queued here: each outcome is counted or in the outbox before
		// a later one of its URN may go to another worker.
		pt.finished += uint64(n)
		for i := range results {
			if r := &results[i]; r.Status != Written {
				a.counts[r.Status]++
				if len(a.errs) < maxKeptErrors {
					a.errs = append(a.errs, r.Err)
				}
			}
		}
		if reports {
			a.outbox = append(a.outbox, outcomes{pt: pt, n: n, results: results})
		} else { // nothing to hand out: the outcomes are counted
			pt.done += uint64(n)
			a.progressed()
		}
		if a.spaceWanted {
			broadcast(&a.space)
			a.spaceWanted = false
		}
		a.mu.Unlock()
		if reports {
			wake(a.outWake)
		}
	}
}

// sendScratch is the memory a worker sends its batches with, used again
// for each batch.
type sendScratch struct {
	results []Result
	items   []encoded
	// es holds the indexes of a request's proposals (emitScratch.idx).
	es emitScratch
	// holds is the arenaHolds of the last batch, free (see batchHolds).
	holds *arenaHolds
	// dups is batchHolds' count of each chunk's items beyond the first.
	dups []int32
	// parts is the memory of allParts, free (see keepParts).
	parts [][]byte
}

// send emits batch through the inner emitter and returns the outcome of
// each proposal; without all, only of those not Written (nil when all
// were).
func (a *Async) send(qs []queued, all bool, sc *sendScratch) []AsyncResult {
	sc.results = slices.Grow(sc.results[:0], len(qs))[:len(qs)]
	results := sc.results // zero: cleared after each batch
	sc.items = slices.Grow(sc.items[:0], len(qs))[:len(qs)]
	items := sc.items
	defer clear(items) // the encodings are not kept past their outcome
	v3s, deletes := 0, 0
	for i := range qs {
		q := &qs[i]
		items[i] = q.item
		if q.v3 != nil {
			v3s++
		} else if q.item.enc == nil {
			deletes++
		}
	}
	// The requests of Rest.li's encodings write only each result's Status
	// and Err, and read its URN for a delete alone (whose request is made
	// of it): the results are named (as encodePart names them) only for a
	// batch with a delete or OpenAPI's form; the others' members stay
	// zero, and only Status and Err are cleared again (below).
	named := v3s > 0 || deletes > 0
	if named {
		defer clear(results) // the errors are not kept past their outcome
		for i := range qs {
			// Field by field, not a literal built and copied (see emitOne).
			q, r := &qs[i], &results[i]
			r.Index, r.URN, r.Aspect = i, q.urn, q.aspect
		}
	}
	switch {
	case v3s == 0: // the usual case: every proposal in Rest.li's form
		b := &batch{r: a.inner, items: items, results: results, holds: sc.batchHolds(items), scratch: &sc.es}
		if deletes == 0 && b.holds != nil { // its parts' memory is free again when the holds are
			b.parts, b.partsLen = sc.allParts(items, a.inner.batchTail)
		}
		_ = b.run(a.ctx) // the outcomes are in results
		// The chunks go back once the requests let go too; so does the
		// memory of the parts, kept for the next batch.
		free := b.holds != nil && sc.releaseHolds(b.holds)
		if b.parts != nil {
			sc.keepParts(b.parts, free)
		}
	default:
		a.sendMixed(qs, results, v3s)
	}
	var out []AsyncResult
	if all {
		out = make([]AsyncResult, 0, len(qs))
	}
	for i := range qs {
		q, r := &qs[i], &results[i]
		status, rerr := r.Status, r.Err
		if !named {
			r.Status, r.Err = 0, nil // the errors are not kept past their outcome
		}
		if !all && status == Written {
			continue
		}
		res := AsyncResult{Seq: q.seq, Status: status}
		if q.p != nil {
			res.Proposal = *q.p
		}
		if status != Written {
			err := rerr
			if err == nil {
				err = errors.New("emitter: proposal not written")
			}
			res.Err = fmt.Errorf("emitter: %s %s %s: %w", q.urn, q.aspect, status, err)
		}
		out = append(out, res)
	}
	return out
}

// sendMixed is send of a batch with v3s proposals in OpenAPI's form, the
// others in Rest.li's, their outcomes written to results.
func (a *Async) sendMixed(qs []queued, results []Result, v3s int) {
	// Each proposal goes in the form it was encoded in at Emit: usually
	// one form for all (an automatic endpoint may be decided differently
	// by a later Emit).
	var restli, v3 []int
	for i, q := range qs {
		if q.v3 != nil {
			v3 = append(v3, i)
		} else {
			restli = append(restli, i)
		}
	}
	if len(v3) > 0 {
		run := &v3Run{r: a.inner, items: make([]v3Encoded, len(v3)), results: results}
		if len(restli) > 0 {
			run.results = make([]Result, len(v3))
		}
		for k, i := range v3 {
			run.items[k] = *qs[i].v3
			run.results[k] = Result{Index: k, URN: qs[i].urn, Aspect: qs[i].aspect}
		}
		_ = run.run(a.ctx) // the outcomes are in run.results
		for k, i := range v3 {
			results[i] = run.results[k]
		}
	}
	if len(restli) > 0 {
		b := &batch{r: a.inner, items: make([]encoded, len(restli)), results: make([]Result, len(restli))}
		for k, i := range restli {
			b.items[k] = qs[i].item
			b.results[k] = Result{Index: k, URN: qs[i].urn, Aspect: qs[i].aspect}
		}
		b.holds = chunkHolds(b.items)
		_ = b.run(a.ctx)
		if b.holds != nil {
			b.holds.release()
		}
		for k, i := range restli {
			results[i] = b.results[k]
		}
	}
}

// report is the loop of the goroutine that hands outcomes to the handlers,
// one at a time, in the order the workers produced them.
func (a *Async) report() {
	for {
		a.mu.Lock()
		if len(a.outbox) == 0 {
			done := a.workersDone
			a.mu.Unlock()
			if done {
				return
			}
			<-a.outWake
			continue
		}
		o := a.outbox[0]
		a.outbox[0] = outcomes{}
		a.outbox = a.outbox[1:]
		a.mu.Unlock()
		for _, r := range o.results {
			if a.cfg.onResult != nil {
				a.cfg.onResult(r)
			}
			if r.Status != Written && a.cfg.onError != nil {
				a.cfg.onError(r.Proposal, r.Err)
			}
		}
		a.mu.Lock()
		o.pt.done += uint64(o.n)
		a.progressed()
		a.mu.Unlock()
	}
}

// Err returns nil if every proposal handled so far was written, else an
// *AsyncError counting the others. It is sticky.
func (a *Async) Err() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.errLocked()
}

func (a *Async) errLocked() error {
	c := a.counts
	if c[Rejected]+c[Failed]+c[Unknown]+c[Stopped]+c[NotAttempted] == 0 {
		return nil
	}
	return &AsyncError{Rejected: c[Rejected], Failed: c[Failed], Unknown: c[Unknown], Stopped: c[Stopped],
		NotAttempted: c[NotAttempted], Errs: append([]error(nil), a.errs...)}
}

// AsyncError reports proposals an Async emitter did not write, or does not
// know it wrote, counted by Status.
type AsyncError struct {
	// Rejected, Failed and NotAttempted count the proposals not written.
	Rejected, Failed, NotAttempted int
	// Unknown counts the proposals that may or may not have been written
	// because their answer was lost.
	Unknown int
	// Stopped counts the proposals that may or may not have been written
	// because Close's context ended while they were in flight.
	Stopped int
	// Errs holds the first of these outcomes (at most 10), each naming its
	// proposal.
	Errs []error
}

// Error counts the outcomes and shows the first.
func (e *AsyncError) Error() string {
	notWritten := e.Rejected + e.Failed + e.NotAttempted
	s := fmt.Sprintf("emitter: %d proposals not written (%d rejected, %d failed, %d not attempted), %d of unknown outcome",
		notWritten, e.Rejected, e.Failed, e.NotAttempted, e.Unknown+e.Stopped)
	if e.Stopped > 0 {
		s += fmt.Sprintf(" (%d stopped by Close)", e.Stopped)
	}
	if len(e.Errs) > 0 {
		s += fmt.Sprintf("; first: %v", e.Errs[0])
	}
	return s
}

// Unwrap returns the failures kept.
func (e *AsyncError) Unwrap() []error { return e.Errs }

// Flush sends everything queued before the call without waiting for
// batches to fill, and waits until the outcome of each has been handed to
// the handlers. It returns Err, or, if ctx ends first, an error wrapping
// ctx's error that counts the proposals whose outcome is not known yet
// (they stay queued or in flight, and are reported when they end).
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
		var left uint64
		for i, pt := range a.parts {
			if pt.done < targets[i] {
				left += targets[i] - pt.done
			}
		}
		progress := a.progress
		if left > 0 {
			a.progressWanted = true
		}
		err := a.errLocked()
		a.mu.Unlock()
		if left == 0 {
			return err
		}
		select {
		case <-progress:
		case <-ctx.Done():
			return fmt.Errorf("emitter: flush: %d proposals not reported yet: %w", left, ctx.Err())
		}
	}
}

// Close stops accepting proposals, sends everything queued and waits for
// the workers and the handlers to end. If ctx ends first, Close aborts the
// requests in flight: their proposals are reported Stopped (they may have
// been applied) and those still queued NotAttempted, to the handlers and
// Err, none dropped silently; Close then returns ctx's error joined with
// Err once every outcome has been handed out. Otherwise it returns Err.
// Close may be called more than once.
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
		return errors.Join(ctx.Err(), a.Err())
	}
	a.cancel()
	return a.Err()
}
