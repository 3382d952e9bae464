package emitter_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestAsyncCloseUnderLoad has producers queue proposals while the server
// is slow, and closes the emitter while they still run: every proposal
// Emit accepted lands, in order per dataset, and the others got ErrClosed.
func TestAsyncCloseUnderLoad(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithFault(
		mockserver.Latency(opBatchWrite, 20*time.Millisecond),
		mockserver.Latency(opWrite, 20*time.Millisecond)))
	r, _ := newREST(t, s, datahub.WithRetry(fastRetry))
	var reported atomic.Int64
	a := emitter.NewAsync(r, emitter.WithWorkers(4), emitter.WithQueueSize(500), emitter.WithBatchSize(50),
		emitter.WithErrorHandler(func(emitter.Proposal, error) { reported.Add(1) }))

	const producers, datasets, writes = 8, 400, 4 // each producer owns datasets p, p+8, ...
	accepted := make([]int, datasets)             // writes accepted per dataset
	var wg sync.WaitGroup
	var closedSeen, acceptedN atomic.Int64
	for p := range producers {
		wg.Go(func() {
			for w := range writes {
				for i := p; i < datasets; i += producers {
					err := a.Emit(t.Context(), propertiesProposal(t, i, w))
					switch {
					case err == nil:
						accepted[i]++
						acceptedN.Add(1)
					case errors.Is(err, emitter.ErrClosed):
						closedSeen.Add(1)
						return // later writes of this producer would skip one
					default:
						t.Error(err)
						return
					}
				}
			}
		})
	}
	for acceptedN.Load() < 800 { // close half way, the queue full
		time.Sleep(time.Millisecond)
	}
	if err := a.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := a.Emit(t.Context(), propertiesProposal(t, 0, 9)); !errors.Is(err, emitter.ErrClosed) {
		t.Errorf("Emit after Close: %v, want ErrClosed", err)
	}
	total := 0
	for _, n := range accepted {
		total += n
	}
	t.Logf("%d proposals accepted before Close, %d producers stopped by ErrClosed", total, closedSeen.Load())
	if reported.Load() != 0 {
		t.Errorf("%d proposals reported failed", reported.Load())
	}
	// A producer stops at the first ErrClosed, so every dataset's accepted
	// writes are a prefix 0..n-1 of its writes.
	for i, n := range accepted {
		if n == 0 {
			if _, err := s.GetAspect(datasetURN(t, i).String(), "datasetProperties"); !errors.Is(err, datahub.ErrNotFound) {
				t.Errorf("dataset %d: no write accepted, but read gives %v", i, err)
			}
			continue
		}
		if !checkWrites(t, s, i, n) {
			break
		}
	}
}

// TestAsyncCloseDeadline is defect 12: Close with a deadline that ends
// while requests are in flight. Their proposals were applied (the answers
// are held back until the context ends) and must be reported Unknown, not
// as not written; the proposals still queued are NotAttempted and not
// stored. Every proposal is reported exactly once.
func TestAsyncCloseDeadline(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, c := newREST(t, s, datahub.WithRetry(fastRetry))
	c.hold.Store(true)
	var mu sync.Mutex
	results := map[uint64]emitter.AsyncResult{}
	errs := map[string]error{}
	a := emitter.NewAsync(r, emitter.WithWorkers(2), emitter.WithBatchSize(10), emitter.WithLinger(0),
		emitter.WithResultHandler(func(res emitter.AsyncResult) {
			mu.Lock()
			defer mu.Unlock()
			if _, dup := results[res.Seq]; dup {
				t.Errorf("proposal %d reported twice", res.Seq)
			}
			results[res.Seq] = res
		}),
		emitter.WithErrorHandler(func(p emitter.Proposal, err error) {
			mu.Lock()
			errs[p.URN.String()] = err
			mu.Unlock()
		}))
	const n = 200
	var ps []emitter.Proposal
	for i := range n {
		ps = append(ps, propertiesProposal(t, i, 0))
	}
	if err := a.Emit(t.Context(), ps...); err != nil { // queued at once: each worker's first batch is full
		t.Fatal(err)
	}
	for c.attempts.Load() < 2 || s.RequestCount(opBatchWrite) < 2 { // both workers in flight
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := a.Close(ctx)
	var ae *emitter.AsyncError
	if !errors.Is(err, context.Canceled) || !errors.As(err, &ae) {
		t.Fatalf("Close: %v, want context.Canceled and an *AsyncError", err)
	}
	counts := map[emitter.Status]int{}
	for seq := uint64(1); seq <= n; seq++ {
		res, ok := results[seq]
		if !ok {
			t.Errorf("proposal %d not reported", seq)
			continue
		}
		counts[res.Status]++
		u := res.Proposal.URN.String()
		_, rerr := s.GetAspect(u, "datasetProperties")
		stored := rerr == nil
		switch res.Status {
		case emitter.Written:
			if !stored {
				t.Errorf("%s reported written, not stored", u)
			}
		case emitter.Stopped:
			if !errors.Is(errs[u], datahub.ErrOutcomeUnknown) || !errors.Is(errs[u], datahub.ErrStopped) {
				t.Errorf("%s: handler got %v, want ErrStopped and ErrOutcomeUnknown", u, errs[u])
			}
		default:
			if stored {
				t.Errorf("%s reported %v (%v) but stored", u, res.Status, errs[u])
			}
		}
		if stored && res.Status != emitter.Written && !errors.Is(errs[u], datahub.ErrOutcomeUnknown) {
			t.Errorf("%s stored but reported to the error handler as %v", u, errs[u])
		}
	}
	t.Logf("outcomes %v; %v", counts, err)
	if diff := cmp.Diff(map[emitter.Status]int{emitter.Stopped: 20, emitter.NotAttempted: 180}, counts); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if ae.Stopped != counts[emitter.Stopped] || ae.Unknown != 0 || ae.NotAttempted != counts[emitter.NotAttempted] {
		t.Errorf("AsyncError %+v does not match the outcomes %v", ae, counts)
	}
}

func TestAsyncQueueFull(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithFault(mockserver.Latency(mockserver.OpAny, 200*time.Millisecond)))
	r, _ := newREST(t, s)
	tests := []struct {
		name    string
		block   bool
		wantErr error
	}{
		{name: "non-blocking", block: false, wantErr: emitter.ErrQueueFull},
		{name: "blocking", block: true, wantErr: context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := emitter.NewAsync(r, emitter.WithQueueSize(10), emitter.WithWorkers(1), emitter.WithLinger(0), emitter.WithBlock(tt.block))
			defer a.Close(context.Background())
			var ps []emitter.Proposal
			for i := range 10 {
				ps = append(ps, propertiesProposal(t, i, 0))
			}
			if err := a.Emit(t.Context(), ps...); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
			defer cancel()
			if err := a.Emit(ctx, propertiesProposal(t, 10, 0)); !errors.Is(err, tt.wantErr) {
				t.Errorf("Emit on a full queue: %v, want %v", err, tt.wantErr)
			}
			if err := a.Emit(t.Context(), append(ps, ps[0])...); !errors.Is(err, emitter.ErrQueueFull) {
				t.Errorf("Emit of more than the queue holds: %v, want ErrQueueFull", err)
			}
			if err := a.Flush(t.Context()); err != nil {
				t.Fatal(err)
			}
			if err := a.Emit(t.Context(), propertiesProposal(t, 10, 0)); err != nil {
				t.Errorf("Emit after Flush: %v", err)
			}
		})
	}
}

// TestAsyncFlush checks that Flush sends at once (not after the linger
// time) and returns once everything queued before it is written.
func TestAsyncFlush(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	a := emitter.NewAsync(r, emitter.WithLinger(time.Hour), emitter.WithWorkers(3))
	defer a.Close(context.Background())
	for i := range 30 {
		if err := a.Emit(t.Context(), propertiesProposal(t, i, 0)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	start := time.Now()
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("Flush took %v", time.Since(start))
	for i := range 30 {
		if !checkWrites(t, s, i, 1) {
			break
		}
	}
	// Nothing queued: Flush returns at once.
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestAsyncFailures checks that a proposal the server refuses goes to the
// handler and Err, and that one that cannot be sent fails Emit at once.
func TestAsyncFailures(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	var mu sync.Mutex
	var got []string
	a := emitter.NewAsync(r, emitter.WithLinger(0), emitter.WithErrorHandler(func(p emitter.Proposal, err error) {
		mu.Lock()
		got = append(got, p.URN.String())
		mu.Unlock()
		if !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("handler got %v, want a validation error", err)
		}
	}))
	bad := emitter.Proposal{URN: datasetURN(t, 7), Aspect: emitter.RawAspect{Name: "status", JSON: json.RawMessage(`{"removed":1}`)}}
	if err := a.Emit(t.Context(), propertiesProposal(t, 6, 0), bad, propertiesProposal(t, 8, 0)); err != nil {
		t.Fatal(err)
	}
	err := a.Flush(t.Context())
	var ae *emitter.AsyncError
	if !errors.As(err, &ae) || ae.Rejected != 1 || !errors.Is(err, datahub.ErrValidation) {
		t.Fatalf("Flush: %v, want an *AsyncError with 1 validation failure", err)
	}
	mu.Lock()
	if diff := cmp.Diff([]string{datasetURN(t, 7).String()}, got); diff != "" {
		t.Errorf("reported (-want +got):\n%s", diff)
	}
	mu.Unlock()
	for _, i := range []int{6, 8} {
		checkWrites(t, s, i, 1)
	}
	if err := a.Emit(t.Context(), emitter.Proposal{URN: datasetURN(t, 1)}); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("Emit of a proposal without an aspect: %v, want ErrValidation", err)
	}
	if err := a.Close(t.Context()); !errors.As(err, &ae) {
		t.Errorf("Close: %v, want the sticky *AsyncError", err)
	}
	if err := a.Close(t.Context()); !errors.As(err, &ae) {
		t.Errorf("second Close: %v", err)
	}
}

// TestAsyncEmitWaitsForRoom has one goroutine queue 20 proposals into a
// queue of 2 whose requests take a while, so that most Emit calls wait for
// room: each is woken when a request's outcome frees some (not by Close),
// and every proposal is written. A wake-up lost makes an Emit wait until
// its context ends.
func TestAsyncEmitWaitsForRoom(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithFault(mockserver.Latency(opBatchWrite, 5*time.Millisecond)))
	r, _ := newREST(t, s)
	a := emitter.NewAsync(r, emitter.WithQueueSize(2), emitter.WithWorkers(1), emitter.WithLinger(0))
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	const n = 20
	for i := range n {
		if err := a.Emit(ctx, propertiesProposal(t, i, 0)); err != nil {
			t.Fatalf("Emit %d: %v", i, err)
		}
	}
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if !checkWrites(t, s, i, 1) {
			break
		}
	}
}

// TestAsyncDeleteEntity sends a delete through an Async emitter, alone and
// among writes of other URNs in one batch: the worker's request deletes the
// entity its proposal names (the URN goes from the queued proposal to the
// batch's result, which the delete request is made from), and the others
// are written.
func TestAsyncDeleteEntity(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, err := emitter.NewREST(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	a := emitter.NewAsync(r, emitter.WithWorkers(1), emitter.WithLinger(time.Hour))
	for i := range 4 {
		if err := a.Emit(t.Context(), propertiesProposal(t, i, 0)); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	del1, err := emitter.NewDeleteEntity(datasetURN(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	del2, err := emitter.NewDeleteEntity(datasetURN(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	// One alone (Emit of one), one among others (Emit of several).
	if err := a.Emit(t.Context(), del1); err != nil {
		t.Fatal(err)
	}
	if err := a.Emit(t.Context(), propertiesProposal(t, 4, 0), del2, propertiesProposal(t, 5, 0)); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := s.RequestCount(mockserver.OpDeleteEntity); n != 2 {
		t.Errorf("%d delete requests, want 2", n)
	}
	for i := range 6 {
		_, err := s.GetAspect(datasetURN(t, i).String(), "datasetProperties")
		if deleted := i == 1 || i == 2; deleted != (err != nil) {
			t.Errorf("dataset %d: deleted %v, GetAspect error %v", i, deleted, err)
		}
	}
}
