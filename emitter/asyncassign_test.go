package emitter_test

import (
	"sync"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestAsyncFullRequests has 4 goroutines queue 1000 proposals of distinct
// datasets on 4 workers sending batches of 100, lingering an hour (so
// that only a full batch or Close sends): the proposals go out in 10 full
// requests, where spreading them over the workers by a hash of their URN
// left each worker a remainder to send alone at Close (12 or 13 requests).
func TestAsyncFullRequests(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, c := newREST(t, s)
	a := emitter.NewAsync(r, emitter.WithWorkers(4), emitter.WithBatchSize(100), emitter.WithLinger(time.Hour))
	const n, goroutines = 1000, 4
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := g; i < n; i += goroutines {
				if err := a.Emit(t.Context(), propertiesProposal(t, i, 0)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := a.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := c.attempts.Load(); got != n/100 {
		t.Errorf("%d requests for %d proposals in batches of 100, want %d", got, n, n/100)
	}
	for i := range n {
		if !checkWrites(t, s, i, 1) {
			break
		}
	}
}

// TestAsyncOrderPerURN has producers queue several writes of each of their
// datasets, one or two at a call, to workers whose requests take a while,
// so that a dataset's next write is queued now while its last one is in
// flight (it must follow it on the same worker) and now after its outcome
// (it may go to any worker). Every dataset's writes land in order, and
// every proposal is reported once, in the order Emit took them per URN.
func TestAsyncOrderPerURN(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithFault(
		mockserver.Latency(opBatchWrite, 2*time.Millisecond),
		mockserver.Latency(opWrite, 2*time.Millisecond)))
	r, _ := newREST(t, s)
	var mu sync.Mutex
	reported := map[uint64]bool{}
	last := map[string]uint64{} // the last Seq reported per URN
	a := emitter.NewAsync(r, emitter.WithWorkers(3), emitter.WithBatchSize(5), emitter.WithQueueSize(40),
		emitter.WithLinger(time.Millisecond),
		emitter.WithResultHandler(func(res emitter.AsyncResult) {
			mu.Lock()
			defer mu.Unlock()
			if reported[res.Seq] {
				t.Errorf("proposal %d reported twice", res.Seq)
			}
			reported[res.Seq] = true
			if res.Status != emitter.Written {
				t.Errorf("proposal %d: %v", res.Seq, res.Err)
			}
			u := res.Proposal.URN.String()
			if res.Seq < last[u] {
				t.Errorf("%s: proposal %d reported after %d", u, res.Seq, last[u])
			}
			last[u] = res.Seq
		}))
	const producers, datasets, writes = 6, 60, 8 // producer p owns datasets p, p+6, ...
	var wg sync.WaitGroup
	for p := range producers {
		wg.Go(func() {
			for w := 0; w < writes; w += 2 {
				for i := p; i < datasets; i += producers {
					var err error
					if (i/producers+w/2)%2 == 0 { // two writes of a dataset in one call
						err = a.Emit(t.Context(), propertiesProposal(t, i, w), propertiesProposal(t, i, w+1))
					} else if err = a.Emit(t.Context(), propertiesProposal(t, i, w)); err == nil {
						err = a.Emit(t.Context(), propertiesProposal(t, i, w+1))
					}
					if err != nil {
						t.Error(err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if err := a.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if len(reported) != datasets*writes {
		t.Errorf("%d proposals reported, want %d", len(reported), datasets*writes)
	}
	for seq := range uint64(datasets * writes) {
		if !reported[seq+1] {
			t.Errorf("proposal %d not reported", seq+1)
			break
		}
	}
	for i := range datasets {
		if !checkWrites(t, s, i, writes) {
			break
		}
	}
}
