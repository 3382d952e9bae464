package emitter_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestBatchSplitting checks the chunking at the count and byte limits.
func TestBatchSplitting(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 3000)
	big := func(t *testing.T, i int) emitter.Proposal {
		p, err := emitter.NewProposal(datasetURN(t, i), aspects.DatasetProperties{Description: aspects.Ptr(long)})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name      string
		opts      []emitter.Option
		n         int
		make      func(t *testing.T, i int) emitter.Proposal
		wantBatch int // ingestProposalBatch requests
		wantOne   int // ingestProposal requests
		maxBytes  int64
	}{
		{name: "count 450 by 200", n: 450, make: func(t *testing.T, i int) emitter.Proposal { return propertiesProposal(t, i, 0) }, wantBatch: 3},
		{name: "count 401 by 200", n: 401, make: func(t *testing.T, i int) emitter.Proposal { return propertiesProposal(t, i, 0) }, wantBatch: 2, wantOne: 1},
		{name: "count 10 by 3", n: 10, opts: []emitter.Option{emitter.WithMaxBatchSize(3)}, make: func(t *testing.T, i int) emitter.Proposal { return propertiesProposal(t, i, 0) }, wantBatch: 3, wantOne: 1},
		// each proposal is ~3.4 KB: 5 fit in 20,000 bytes.
		{name: "bytes 20 by 20000", n: 20, opts: []emitter.Option{emitter.WithMaxBatchBytes(20000)}, make: big, wantBatch: 4, maxBytes: 20000},
		{name: "bytes 7 by 8000", n: 7, opts: []emitter.Option{emitter.WithMaxBatchBytes(8000)}, make: big, wantBatch: 3, wantOne: 1, maxBytes: 8000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			r, c := newREST(t, s, tt.opts...)
			var ps []emitter.Proposal
			for i := range tt.n {
				ps = append(ps, tt.make(t, i))
			}
			if err := r.Emit(t.Context(), ps...); err != nil {
				t.Fatal(err)
			}
			got := [2]int{s.RequestCount(opBatchWrite), s.RequestCount(mockserver.OpIngestProposal)}
			if diff := cmp.Diff([2]int{tt.wantBatch, tt.wantOne}, got); diff != "" {
				t.Errorf("[batch, single] requests (-want +got):\n%s", diff)
			}
			if tt.maxBytes > 0 && c.largest() > tt.maxBytes {
				t.Errorf("largest request %d bytes, over the %d limit", c.largest(), tt.maxBytes)
			}
			// order kept: the server saw the proposals in the order given
			var order []string
			for _, p := range s.Proposals() {
				order = append(order, p.EntityURN)
			}
			var want []string
			for _, p := range ps {
				want = append(want, p.URN.String())
			}
			if diff := cmp.Diff(want, order); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTooLarge checks that a proposal over the byte limit alone fails
// before anything is sent, alone or in a batch (where the others are sent).
func TestTooLarge(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, c := newREST(t, s, emitter.WithMaxBatchBytes(2000))
	huge, err := emitter.NewProposal(datasetURN(t, 99), aspects.DatasetProperties{Description: aspects.Ptr(strings.Repeat("y", 5000))})
	if err != nil {
		t.Fatal(err)
	}
	err = r.Emit(t.Context(), huge)
	var tl *emitter.TooLargeError
	if !errors.As(err, &tl) || !errors.Is(err, datahub.ErrPayloadTooLarge) {
		t.Fatalf("err = %v, want a *TooLargeError matching ErrPayloadTooLarge", err)
	}
	if tl.URN != datasetURN(t, 99).String() || tl.Aspect != "datasetProperties" || tl.Limit != 2000 || tl.Size <= 5000 {
		t.Errorf("TooLargeError = %+v", tl)
	}
	if n := c.attempts.Load(); n != 0 {
		t.Errorf("%d requests sent for a proposal too large", n)
	}

	err = r.Emit(t.Context(), propertiesProposal(t, 1, 0), huge, propertiesProposal(t, 2, 0))
	var be *emitter.BatchError
	if !errors.As(err, &be) {
		t.Fatalf("err = %v, want a *BatchError", err)
	}
	if diff := cmp.Diff([]int{0, 2}, be.Written()); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
	if f := be.Failures(); len(f) != 1 || f[0].Index != 1 || f[0].Status != emitter.Rejected || !errors.As(f[0].Err, &tl) {
		t.Errorf("failures = %+v, want proposal 1 rejected as too large", f)
	}
}

// TestServer413Bisects lowers the mock's body limit below the emitter's:
// the server's 413 for a batch makes the emitter split it until the parts
// fit, and a proposal too large alone is rejected with the server's 413.
func TestServer413Bisects(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithMaxBodyBytes(12000))
	r, _ := newREST(t, s)
	var ps []emitter.Proposal
	for i := range 12 {
		ps = append(ps, propertiesProposal(t, i, 0))
	}
	huge, err := emitter.NewProposal(datasetURN(t, 99), aspects.DatasetProperties{Description: aspects.Ptr(strings.Repeat("z", 20000))})
	if err != nil {
		t.Fatal(err)
	}
	ps = append(ps[:6], append([]emitter.Proposal{huge}, ps[6:]...)...)
	err = r.Emit(t.Context(), ps...)
	var be *emitter.BatchError
	if !errors.As(err, &be) {
		t.Fatalf("err = %v, want a *BatchError", err)
	}
	f := be.Failures()
	if len(f) != 1 || f[0].Index != 6 || !errors.Is(f[0].Err, datahub.ErrPayloadTooLarge) {
		t.Errorf("failures = %+v, want only proposal 6, with the server's 413", f)
	}
	if got := len(be.Written()); got != 12 {
		t.Errorf("%d written, want 12", got)
	}
	for i := range 12 {
		if _, err := s.GetAspect(datasetURN(t, i).String(), "datasetProperties"); err != nil {
			t.Errorf("dataset %d: %v", i, err)
		}
	}
}

// TestRejectedIsolation sends a batch with invalid proposals among good
// ones: the server refuses the whole batch with 422, and the emitter
// finds the bad ones (with the server's message) and writes the others.
func TestRejectedIsolation(t *testing.T) {
	t.Parallel()
	bad := func(i int) emitter.Proposal {
		return emitter.Proposal{URN: urn.MustParse(datasetURN(t, i).String()), Aspect: emitter.RawAspect{Name: "status", JSON: json.RawMessage(`{"removed":"not a boolean"}`)}}
	}
	tests := []struct {
		name         string
		isolate      bool
		wantWritten  []int
		wantRejected []int
		wantRequests int
	}{
		{name: "isolated", isolate: true, wantWritten: []int{0, 1, 2, 4, 5, 6, 7, 9}, wantRejected: []int{3, 8}},
		{name: "whole batch", isolate: false, wantRejected: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, wantRequests: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			r, c := newREST(t, s, emitter.WithIsolateRejected(tt.isolate))
			var ps []emitter.Proposal
			for i := range 10 {
				if i == 3 || i == 8 {
					ps = append(ps, bad(i))
				} else {
					ps = append(ps, propertiesProposal(t, i, 0))
				}
			}
			err := r.Emit(t.Context(), ps...)
			var be *emitter.BatchError
			if !errors.As(err, &be) || !errors.Is(err, datahub.ErrValidation) {
				t.Fatalf("err = %v, want a *BatchError matching ErrValidation", err)
			}
			var rejected []int
			for _, f := range be.Failures() {
				rejected = append(rejected, f.Index)
				var de *datahub.Error
				if !errors.As(f.Err, &de) || de.StatusCode != validationStatus || de.Message == "" {
					t.Errorf("proposal %d: err = %v, want the server's %d", f.Index, f.Err, validationStatus)
				}
				if f.Status != emitter.Rejected {
					t.Errorf("proposal %d: status %v, want rejected", f.Index, f.Status)
				}
			}
			if diff := cmp.Diff(tt.wantRejected, rejected); diff != "" {
				t.Errorf("rejected (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantWritten, be.Written()); diff != "" {
				t.Errorf("written (-want +got):\n%s", diff)
			}
			for _, i := range tt.wantWritten {
				if _, err := s.GetAspect(datasetURN(t, i).String(), "datasetProperties"); err != nil {
					t.Errorf("dataset %d not written: %v", i, err)
				}
			}
			t.Logf("%d requests", c.attempts.Load())
			if tt.wantRequests > 0 && c.attempts.Load() != int64(tt.wantRequests) {
				t.Errorf("%d requests, want %d", c.attempts.Load(), tt.wantRequests)
			}
		})
	}
}

// TestStopOnServerFailure checks that a batch failing with a 5xx after its
// retries stops the call: its proposals are Unknown (a 500 may have been
// applied), the rest not attempted.
func TestStopOnServerFailure(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, c := newREST(t, s, datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 2, Backoff: datahub.ExponentialBackoff(time.Millisecond, time.Millisecond, 0)}))
	var ps []emitter.Proposal
	for i := range 450 {
		ps = append(ps, propertiesProposal(t, i, 0))
	}
	// The first batch lands; from the second request on, every batch gets a 500.
	c.before = func(n int64) {
		if n == 2 {
			if err := s.Inject(mockserver.Fault{Op: opBatchWrite, Times: mockserver.Forever, Status: 500}); err != nil {
				t.Error(err)
			}
		}
	}
	err := r.Emit(t.Context(), ps...)
	var be *emitter.BatchError
	if !errors.As(err, &be) {
		t.Fatalf("err = %v, want a *BatchError", err)
	}
	counts := map[emitter.Status]int{}
	for _, res := range be.Results {
		counts[res.Status]++
	}
	t.Logf("%v; statuses %v", err, counts)
	if diff := cmp.Diff(map[emitter.Status]int{emitter.Written: 200, emitter.Unknown: 200, emitter.NotAttempted: 50}, counts); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	for _, f := range be.Failures() {
		if f.Status != emitter.Unknown || !errors.Is(f.Err, datahub.ErrOutcomeUnknown) {
			t.Errorf("proposal %d: %v (%v), want unknown (no definite answer)", f.Index, f.Status, f.Err)
		}
	}
}
