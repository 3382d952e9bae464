package emitter_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestAsyncTakesWhatItIsGiven is defect 4: Async.Emit encodes on the
// caller's goroutine, so changing the caller's struct (through a pointer),
// map or slice after Emit returns does not change what is written. The
// workers linger an hour, so the changes happen before anything is sent.
func TestAsyncTakesWhatItIsGiven(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	a := emitter.NewAsync(r, emitter.WithLinger(time.Hour))
	defer a.Close(context.Background())

	props := &aspects.DatasetProperties{
		Description:      aspects.Ptr("before"),
		CustomProperties: map[string]string{"owner": "before"},
	}
	tags := aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:before"}}}
	p1, err := emitter.NewProposal(datasetURN(t, 1), props)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := emitter.NewProposal(datasetURN(t, 2), tags)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Emit(t.Context(), p1, p2); err != nil {
		t.Fatal(err)
	}
	props.Description = aspects.Ptr("after")
	props.CustomProperties["owner"] = "after"
	props.CustomProperties["added"] = "after"
	tags.Tags[0].Tag = "urn:li:tag:after"
	if err := a.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	s.CheckAspect(t, datasetURN(t, 1).String(), aspects.DatasetProperties{
		Description: aspects.Ptr("before"), CustomProperties: map[string]string{"owner": "before"}})
	s.CheckAspect(t, datasetURN(t, 2).String(), aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:before"}}})
}

// TestAsyncEmitFailsSynchronously checks that a proposal that cannot be
// encoded or is too large fails Emit itself, and nothing of the call is
// queued.
func TestAsyncEmitFailsSynchronously(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s, emitter.WithMaxBatchBytes(2000))
	a := emitter.NewAsync(r)
	defer a.Close(context.Background())
	badJSON := emitter.Proposal{URN: datasetURN(t, 1), Aspect: emitter.RawAspect{Name: "status", JSON: json.RawMessage(`{"removed":`)}}
	big := propertiesProposal(t, 2, 0)
	big.Aspect = aspects.DatasetProperties{Description: aspects.Ptr(strings.Repeat("x", 3000))}
	tests := []struct {
		name string
		ps   []emitter.Proposal
		want error
	}{
		{name: "JSON that does not parse", ps: []emitter.Proposal{badJSON}, want: datahub.ErrValidation},
		{name: "too large", ps: []emitter.Proposal{propertiesProposal(t, 3, 0), big}, want: datahub.ErrPayloadTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := a.Emit(t.Context(), tt.ps...); !errors.Is(err, tt.want) {
				t.Errorf("Emit: %v, want %v", err, tt.want)
			}
		})
	}
	if err := a.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := len(s.Proposals()); n != 0 {
		t.Errorf("%d proposals reached the server, want none", n)
	}
}

// TestAsyncHandlerRequeues is defect 5: with one worker and a queue of
// two, an error handler that queues a corrected proposal again must not
// block Flush (it waited for room only the blocked worker could free).
func TestAsyncHandlerRequeues(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	var a *emitter.Async
	var requeued []error
	a = emitter.NewAsync(r, emitter.WithWorkers(1), emitter.WithQueueSize(2), emitter.WithLinger(0),
		emitter.WithErrorHandler(func(p emitter.Proposal, err error) {
			fixed := p
			fixed.Aspect = aspects.Status{Removed: true}
			requeued = append(requeued, a.Emit(context.Background(), fixed))
		}))
	bad := emitter.Proposal{URN: datasetURN(t, 7), Aspect: emitter.RawAspect{Name: "status", JSON: json.RawMessage(`{"removed":1}`)}}
	if err := a.Emit(t.Context(), propertiesProposal(t, 6, 0), bad); err != nil {
		t.Fatal(err)
	}
	if err := a.Flush(t.Context()); !errors.Is(err, datahub.ErrValidation) {
		t.Fatalf("first Flush: %v, want the rejected proposal's validation error", err)
	}
	if err := a.Close(t.Context()); !errors.Is(err, datahub.ErrValidation) {
		t.Fatalf("Close: %v", err)
	}
	if diff := cmp.Diff([]error{nil}, requeued, cmp.Comparer(func(x, y error) bool { return x == y })); diff != "" {
		t.Errorf("re-queue errors (-want +got):\n%s", diff)
	}
	s.CheckAspect(t, datasetURN(t, 7).String(), aspects.Status{Removed: true})
	checkWrites(t, s, 6, 1)
}

// TestAsyncResults checks the outcome stream: every proposal is reported
// once with its sequence number, written or rejected.
func TestAsyncResults(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	var mu sync.Mutex
	got := map[uint64]emitter.Status{}
	a := emitter.NewAsync(r, emitter.WithWorkers(3), emitter.WithBatchSize(7), emitter.WithLinger(0),
		emitter.WithResultHandler(func(res emitter.AsyncResult) {
			mu.Lock()
			defer mu.Unlock()
			if _, dup := got[res.Seq]; dup {
				t.Errorf("proposal %d reported twice", res.Seq)
			}
			got[res.Seq] = res.Status
			if (res.Err == nil) != (res.Status == emitter.Written) {
				t.Errorf("proposal %d: %v with error %v", res.Seq, res.Status, res.Err)
			}
		}))
	want := map[uint64]emitter.Status{}
	for i := range 50 {
		p := propertiesProposal(t, i, 0)
		want[uint64(i+1)] = emitter.Written
		if i%10 == 3 {
			p.Aspect = emitter.RawAspect{Name: "datasetProperties", JSON: json.RawMessage(`{"description":7}`)}
			want[uint64(i+1)] = emitter.Rejected
		}
		if err := a.Emit(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(t.Context()); !errors.Is(err, datahub.ErrValidation) {
		t.Fatalf("Close: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

// TestAsyncQueueBytes checks the bound in bytes: a call larger than the
// bound is refused, and a full queue refuses more (WithBlock(false)) until
// it drains. The workers linger an hour, so the queue drains only at
// Flush.
func TestAsyncQueueBytes(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	one := propertiesProposal(t, 0, 0)
	a := emitter.NewAsync(r, emitter.WithQueueBytes(1200), emitter.WithBlock(false), emitter.WithLinger(time.Hour))
	defer a.Close(context.Background())
	var ps []emitter.Proposal
	for i := range 20 { // about 520 bytes each
		ps = append(ps, propertiesProposal(t, i, 0))
	}
	if err := a.Emit(t.Context(), ps...); !errors.Is(err, emitter.ErrQueueFull) || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("Emit of more bytes than the queue holds: %v, want ErrQueueFull", err)
	}
	if err := a.Emit(t.Context(), one, propertiesProposal(t, 1, 0)); err != nil {
		t.Fatal(err)
	}
	if err := a.Emit(t.Context(), propertiesProposal(t, 2, 0)); !errors.Is(err, emitter.ErrQueueFull) {
		t.Errorf("Emit on a queue full in bytes: %v, want ErrQueueFull", err)
	}
	if err := a.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := a.Emit(t.Context(), propertiesProposal(t, 2, 0)); err != nil {
		t.Errorf("Emit after Flush: %v", err)
	}
}

// TestAsyncKeepsWhatEachProposalNeeds emits single proposals of several
// kinds, each of which a queued proposal keeps something else of (its
// URN's text, the caller's proposal for the handlers, the encoding's
// unsafe mark), and checks what their outcomes show: a dataset proposal
// that is not the usual one (encoded by the general path) and another
// entity's, both refused, name their URN in their error and come back as
// given; a conditional write (not replayed) whose connection dropped is
// Unknown after one attempt.
func TestAsyncKeepsWhatEachProposalNeeds(t *testing.T) {
	t.Parallel()
	t.Run("refused", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t)
		r, _ := newREST(t, s)
		user, err := urn.NewCorpUser("someone")
		if err != nil {
			t.Fatal(err)
		}
		ps := []emitter.Proposal{
			{URN: datasetURN(t, 1), Aspect: emitter.RawAspect{Name: "datasetProperties", JSON: json.RawMessage(`{"description":7}`)}},
			{URN: user, Aspect: emitter.RawAspect{Name: "corpUserEditableInfo", JSON: json.RawMessage(`{"displayName":7}`)}},
		}
		var mu sync.Mutex
		got := map[uint64]emitter.AsyncResult{}
		a := emitter.NewAsync(r, emitter.WithLinger(0), emitter.WithResultHandler(func(res emitter.AsyncResult) {
			mu.Lock()
			defer mu.Unlock()
			got[res.Seq] = res
		}))
		for _, p := range ps {
			if err := a.Emit(t.Context(), p); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.Close(t.Context()); !errors.Is(err, datahub.ErrValidation) {
			t.Fatalf("Close: %v", err)
		}
		for i, p := range ps {
			res := got[uint64(i+1)]
			if res.Status != emitter.Rejected || res.Err == nil || !strings.Contains(res.Err.Error(), p.URN.String()+" "+p.Aspect.AspectName()+" ") {
				t.Errorf("proposal %d: %v, error %v; want Rejected, naming %s %s", i+1, res.Status, res.Err, p.URN, p.Aspect.AspectName())
			}
			if !reflect.DeepEqual(p, res.Proposal) {
				t.Errorf("proposal %d reported as %+v, given %+v", i+1, res.Proposal, p)
			}
		}
	})
	t.Run("not replayed", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t, mockserver.WithFault(mockserver.Drop(opBatchWrite, 1)), mockserver.WithFault(mockserver.Drop(opWrite, 1)))
		r, c := newREST(t, s, datahub.WithRetry(fastRetry))
		var status emitter.Status
		a := emitter.NewAsync(r, emitter.WithLinger(0), emitter.WithResultHandler(func(res emitter.AsyncResult) { status = res.Status }))
		p := propertiesProposal(t, 0, 0)
		p.Headers = map[string]string{"If-Version-Match": "-1"}
		if err := a.Emit(t.Context(), p); err != nil {
			t.Fatal(err)
		}
		if err := a.Close(t.Context()); !errors.Is(err, datahub.ErrOutcomeUnknown) {
			t.Fatalf("Close: %v, want the outcome unknown", err)
		}
		if status != emitter.Unknown || c.attempts.Load() != 1 {
			t.Errorf("%v after %d attempts, want Unknown after 1", status, c.attempts.Load())
		}
	})
}
