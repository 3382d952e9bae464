package emitter

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
)

// Emit checks and encodes the proposals before it returns, and
// queues them all, or none: once Emit returns, changing the caller's
// aspects (structs, maps, slices) does not change what is written. It
// returns the error of a proposal that cannot be sent (wrapping
// datahub.ErrValidation, or a *TooLargeError), ErrClosed after Close, and,
// when the queue has no room for them (WithQueueSize, WithQueueBytes),
// waits or returns ErrQueueFull (see WithBlock); more proposals than the
// queue holds at all are refused with an error wrapping ErrQueueFull.
// What becomes of a queued proposal goes to the handlers
// (WithResultHandler, WithErrorHandler) and Err.
func (a *Async) Emit(ctx context.Context, ps ...Proposal) error {
	if len(ps) == 0 {
		return nil
	}
	if len(ps) > a.cfg.queueSize {
		return fmt.Errorf("emitter: %d proposals do not fit a queue of %d: %w", len(ps), a.cfg.queueSize, ErrQueueFull)
	}
	// Encoded now, in the endpoint's form: what is sent is the proposals
	// as they are at this call.
	openAPI := a.inner.openAPI(ctx)
	if len(ps) == 1 && !openAPI {
		return a.emitOne(ctx, ps)
	}
	return a.emitMany(ctx, ps, openAPI)
}

// emitOne is Emit of one proposal in Rest.li's form, encoded straight into
// memory the queue keeps (see encodeKept), with nothing to copy under the
// lock: the queued proposal is written in its place in the ring.
func (a *Async) emitOne(ctx context.Context, ps []Proposal) error {
	at := nowClock() // when the proposal is queued, and observed (see Async.nowMillis)
	var items [1]encoded
	var results [1]Result
	a.inner.encodeKept(ps, a.nowMillis(at), items[:], results[:])
	item, r := &items[0], &results[0]
	if r.Status == Rejected {
		return r.Err
	}
	hash := urnHash(r.URN)
	var p *Proposal
	if a.reports() {
		p = new(Proposal)
		*p = ps[0]
	}
	size := len(item.enc) + len(r.URN)
	if err := a.lockRoom(ctx, 1, size, &at); err != nil {
		return err
	}
	a.seq++
	k := a.assign(hash)
	pt := a.parts[k]
	// Written field by field into its slot (a composite literal is built
	// on the stack and then copied, under the lock).
	q := pt.queue.add()
	q.item, q.v3, q.urn, q.aspect, q.p = *item, nil, r.URN, r.Aspect, p
	q.seq, q.hash, q.size, q.at = a.seq, hash, size, at
	pt.enqueued++
	pt.bytes += size
	a.filled(k)
	a.pending++
	a.pendingBytes += size
	n := pt.queue.len()
	a.mu.Unlock()
	// As in enqueue: a worker is woken when its queue was empty or fills a
	// batch.
	if n == 1 || n == a.cfg.batchSize {
		wake(pt.wake)
	}
	return nil
}

// emitMany is Emit of several proposals, or of one in OpenAPI's form.
func (a *Async) emitMany(ctx context.Context, ps []Proposal, openAPI bool) error {
	// The Rest.li encodings of several proposals are written in pooled
	// memory first, then copied into their worker's queue memory (see
	// partition.keep). ps itself is passed on only as a copy where
	// encoding may use other goroutines, so that it does not escape: the
	// caller's variadic proposals stay on its stack.
	var items []encoded
	var v3items []v3Encoded
	var results []Result
	var arena encodeArena
	defer arena.release()
	at := nowClock() // when the proposals are queued (see REST.nowMillis for when they are observed)
	switch {
	case openAPI:
		v3items, results = a.inner.encodeV3(slices.Clone(ps), false)
	case encoders(len(ps)) == 1:
		items, results = a.inner.encodeSeq(ps, &arena)
	default:
		items, results = a.inner.encodeIn(slices.Clone(ps), &arena)
	}
	keep := a.reports()
	var small [4]queued // the queued proposals of a small call, not kept
	var qs []queued
	if len(ps) > len(small) {
		qs = make([]queued, len(ps))
	} else {
		qs = small[:len(ps)]
	}
	size := 0
	for i := range ps {
		r := &results[i]
		if r.Status == Rejected {
			if len(ps) > 1 {
				return fmt.Errorf("emitter: proposal %d: %w", i, r.Err)
			}
			return r.Err
		}
		hash, urnLen := urnHash(r.URN), len(r.URN)
		if v3items != nil {
			qs[i] = queued{v3: &v3items[i], urn: r.URN, aspect: r.Aspect, hash: hash, size: len(v3items[i].enc) + urnLen}
		} else {
			qs[i] = queued{item: items[i], urn: r.URN, aspect: r.Aspect, hash: hash, size: len(items[i].enc) + urnLen}
		}
		if keep {
			p := ps[i]
			qs[i].p = &p
		}
		size += qs[i].size
	}
	return a.enqueue(ctx, qs, size, at)
}

// enqueue queues qs, size bytes in all, taken at at, all or none, waiting
// for room as Emit does; their Rest.li encodings are copied into their
// partition's memory.
func (a *Async) enqueue(ctx context.Context, qs []queued, size int, at clock) error {
	if err := a.lockRoom(ctx, len(qs), size, &at); err != nil {
		return err
	}
	// A worker is woken only when it has something new to do: a queue
	// that was empty (it starts to linger) or that fills a batch. While
	// it lingers on a queue, more proposals need not wake it.
	var touched uint64 // bit i: partition i is woken (first 64 partitions; the rest always are)
	for i := range qs {
		q := &qs[i]
		a.seq++
		q.seq, q.at = a.seq, at
		k := a.assign(q.hash)
		pt := a.parts[k]
		if q.v3 == nil {
			q.item.enc = pt.keep(q.item.enc)
		}
		pt.queue.push(*q)
		pt.enqueued++
		pt.bytes += q.size
		a.filled(k)
		if k < 64 && (pt.queue.len() == 1 || pt.queue.len() == a.cfg.batchSize) {
			touched |= 1 << k
		}
	}
	a.pending += len(qs)
	a.pendingBytes += size
	a.mu.Unlock()
	for ; touched != 0; touched &= touched - 1 {
		wake(a.parts[bits.TrailingZeros64(touched)].wake)
	}
	if len(a.parts) > 64 {
		for _, pt := range a.parts[64:] {
			wake(pt.wake)
		}
	}
	return nil
}

// lockRoom takes a.mu when the queue has room for n proposals of size
// bytes, waiting for it as Emit does (*at, when they are queued, is then
// read again), and returns nil with a.mu held; or returns why not (the
// proposals do not fit at all, ErrClosed, ErrQueueFull, ctx's error)
// without it.
func (a *Async) lockRoom(ctx context.Context, n, size int, at *clock) error {
	if a.cfg.queueBytes > 0 && size > a.cfg.queueBytes {
		return fmt.Errorf("emitter: %d bytes of proposals do not fit a queue of %d bytes: %w", size, a.cfg.queueBytes, ErrQueueFull)
	}
	a.mu.Lock()
	for {
		if a.closed {
			a.mu.Unlock()
			return ErrClosed
		}
		if a.pending+n <= a.cfg.queueSize && (a.cfg.queueBytes <= 0 || a.pendingBytes+size <= a.cfg.queueBytes) {
			return nil
		}
		if !a.cfg.block {
			a.mu.Unlock()
			return ErrQueueFull
		}
		space := a.space
		a.spaceWanted = true
		a.mu.Unlock()
		select {
		case <-space:
			*at = nowClock() // queued now, after the wait
		case <-ctx.Done():
			return ctx.Err()
		}
		a.mu.Lock()
	}
}

// nowMillis is REST.nowMillis at c, a clock of the last moments: the
// observation time of a proposal queued at c, without a read of the wall
// clock each time (see wallMillis).
func (a *Async) nowMillis(c clock) int64 {
	if a.inner.now != nil {
		return a.inner.now().UnixMilli()
	}
	return wallMillis(c)
}

// keep copies enc to the end of pt.kept and returns the copy, its
// capacity up to the end of pt.kept (see joined). a.mu is held.
func (pt *partition) keep(enc []byte) []byte {
	if len(enc) == 0 {
		return enc
	}
	if cap(pt.kept)-len(pt.kept) < len(enc)+1 {
		pt.kept = make([]byte, 0, max(keptSize, len(enc)+1))
	}
	start := len(pt.kept)
	pt.kept = append(pt.kept, enc...)
	pt.kept = append(pt.kept, ',')
	return pt.kept[start : start+len(enc)]
}
