package emitter_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestNoReplayOfAppliedConditionalWrite is defect 3: a conditional write
// or CREATE that the server applied but whose answer was lost (the mock
// commits it, then drops the connection) must not be sent again, where it
// would fail its own condition and be reported as refused although the
// caller's value is stored. Its outcome is Unknown; the write is stored
// once.
func TestNoReplayOfAppliedConditionalWrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		headers map[string]string
		change  emitter.ChangeType
		seed    bool // the aspect exists before (If-Modified-Since holds only then)
	}{
		{name: "If-Version-Match -1", headers: map[string]string{"If-Version-Match": "-1"}},
		{name: "if-version-match lower case", headers: map[string]string{"if-version-match": "-1"}},
		{name: "If-None-Match", headers: map[string]string{"If-None-Match": "*"}},
		{name: "If-Unmodified-Since", headers: map[string]string{"If-Unmodified-Since": "2100-01-01T00:00:00Z"}},
		{name: "If-Modified-Since", headers: map[string]string{"If-Modified-Since": "2000-01-01T00:00:00Z"}, seed: true},
		{name: "CREATE", change: emitter.Create},
		{name: "CREATE_ENTITY", change: emitter.CreateEntity},
	}
	for _, tt := range tests {
		for _, n := range []int{1, 3} { // one proposal (ingestProposal), a batch
			t.Run(tt.name+"/"+map[int]string{1: "single", 3: "batch"}[n], func(t *testing.T) {
				t.Parallel()
				op := opWrite
				if n > 1 {
					op = opBatchWrite
				}
				s := mockserver.Start(t, mockserver.WithFault(mockserver.CommitThenDrop(op, 1)))
				r, c := newREST(t, s, datahub.WithRetry(fastRetry))
				if tt.seed {
					if err := s.PutAspect(datasetURN(t, 0).String(), aspects.DatasetProperties{Description: aspects.Ptr("seed")}); err != nil {
						t.Fatal(err)
					}
				}
				var ps []emitter.Proposal
				for i := range n {
					ps = append(ps, propertiesProposal(t, i, 0))
				}
				ps[0].Headers, ps[0].ChangeType = tt.headers, tt.change
				err := r.Emit(t.Context(), ps...)

				var be *emitter.BatchError
				if !errors.As(err, &be) {
					t.Fatalf("err = %v, want a *BatchError", err)
				}
				if !errors.Is(err, datahub.ErrOutcomeUnknown) || errors.Is(err, datahub.ErrPreconditionFailed) || errors.Is(err, datahub.ErrValidation) {
					t.Errorf("err = %v, want ErrOutcomeUnknown and no refusal", err)
				}
				var got []emitter.Status
				for _, res := range be.Results {
					got = append(got, res.Status)
				}
				want := make([]emitter.Status, n) // the whole request's outcome is unknown
				for i := range want {
					want[i] = emitter.Unknown
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("statuses (-want +got):\n%s", diff)
				}
				if a := c.attempts.Load(); a != 1 {
					t.Errorf("%d attempts, want 1 (no replay)", a)
				}
				for i := range n {
					s.CheckAspect(t, datasetURN(t, i).String(), aspects.DatasetProperties{Description: aspects.Ptr(description(i, 0))})
				}
			})
		}
	}
}

// TestReplays checks which lost answers are replayed: an UPSERT after any
// retryable failure; a conditional write only after a refused connection
// (never sent) or a 429 or 503 (not applied).
func TestReplays(t *testing.T) {
	t.Parallel()
	conditional := map[string]string{"If-Version-Match": "-1"}
	tests := []struct {
		name    string
		headers map[string]string
		fault   *mockserver.Fault
		refuse  bool
	}{
		{name: "upsert after commit-then-drop", fault: ptr(mockserver.CommitThenDrop(opWrite, 1))},
		{name: "upsert after drop", fault: ptr(mockserver.Drop(opWrite, 1))},
		{name: "conditional after 503", headers: conditional, fault: ptr(mockserver.Fail(opWrite, mockserver.FailSpec{Status: 503, Times: 1}))},
		{name: "conditional after 429", headers: conditional, fault: ptr(mockserver.Fail(opWrite, mockserver.FailSpec{Status: 429, Times: 1}))},
		{name: "conditional after refused connection", headers: conditional, refuse: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var opts []mockserver.Option
			if tt.fault != nil {
				opts = append(opts, mockserver.WithFault(*tt.fault))
			}
			s := mockserver.Start(t, opts...)
			r, c := newREST(t, s, datahub.WithRetry(fastRetry))
			if tt.refuse {
				c.refuse = func(n int64) bool { return n == 1 }
			}
			p := propertiesProposal(t, 0, 0)
			p.Headers = tt.headers
			if err := r.Emit(t.Context(), p); err != nil {
				t.Fatal(err)
			}
			if a := c.attempts.Load(); a != 2 {
				t.Errorf("%d attempts, want 2", a)
			}
			s.CheckAspect(t, datasetURN(t, 0).String(), aspects.DatasetProperties{Description: aspects.Ptr(description(0, 0))})
		})
	}
}

// TestConditionalDropNotReplayed checks that a conditional write whose
// connection dropped before the server handled it is not replayed either:
// the client cannot tell the two cases apart. Nothing is stored; the
// outcome is Unknown.
func TestConditionalDropNotReplayed(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithFault(mockserver.Drop(opWrite, 1)))
	r, c := newREST(t, s, datahub.WithRetry(fastRetry))
	p := propertiesProposal(t, 0, 0)
	p.Headers = map[string]string{"If-Version-Match": "-1"}
	err := r.Emit(t.Context(), p)
	var be *emitter.BatchError
	if !errors.As(err, &be) || be.Results[0].Status != emitter.Unknown || !errors.Is(err, datahub.ErrOutcomeUnknown) {
		t.Fatalf("err = %v, want one Unknown result", err)
	}
	if a := c.attempts.Load(); a != 1 {
		t.Errorf("%d attempts, want 1", a)
	}
	if _, err := s.GetAspect(datasetURN(t, 0).String(), "datasetProperties"); !errors.Is(err, datahub.ErrNotFound) && err == nil {
		t.Errorf("aspect stored after a dropped request")
	}
}

func ptr[T any](v T) *T { return &v }
