package emitter_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/emitctx"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestAsyncWaitTraceUnreadable checks that EmitAsyncWait never reports a
// proposal Written when its write trace could not be read: with a 40 ms
// async lag and a trace route that answers 500, a conditional write the
// server later refuses is Unknown (not nil), and indeed not stored.
// (Before the fix Emit returned nil.)
func TestAsyncWaitTraceUnreadable(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithAsyncLag(40*time.Millisecond),
		mockserver.WithFault(mockserver.Fault{Op: mockserver.OpTraceWrite, Times: mockserver.Forever, Status: 500}))
	r, _ := newREST(t, s, datahub.WithEndpoint(datahub.EndpointOpenAPI), emitter.WithEmitMode(emitter.EmitAsyncWait),
		datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 2, Backoff: datahub.ExponentialBackoff(time.Millisecond, time.Millisecond, 0)}))
	u := datasetURN(t, 1)
	bad, _ := emitter.NewProposal(u, aspects.DatasetProperties{Description: aspects.Ptr("never")})
	bad.Headers = map[string]string{"If-Version-Match": "7"}
	err := r.Emit(t.Context(), bad)
	if diff := cmp.Diff([]emitter.Status{emitter.Unknown}, statuses(t, err, 1)); diff != "" {
		t.Fatalf("statuses (-want +got):\n%s\nerror: %v", diff, err)
	}
	if !errors.Is(err, datahub.ErrOutcomeUnknown) || errors.Is(err, datahub.ErrStopped) {
		t.Errorf("error = %v, want one matching datahub.ErrOutcomeUnknown and not datahub.ErrStopped", err)
	}
	var de *datahub.Error
	if !errors.As(err, &de) || de.StatusCode != 500 {
		t.Errorf("error = %v, want the trace route's 500 kept", err)
	}
	s.FastForward(time.Minute) // the queued write is due: applied, or refused
	if got, err := s.GetAspectJSON(u.String(), "datasetProperties", 0); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("stored datasetProperties = %s, %v; want not found (the server refused the write)", got, err)
	}
}

// TestAsyncWaitStopped checks that a caller that stops EmitAsyncWait's wait
// for the trace gets the proposals Stopped: they may have been applied,
// and the error matches datahub.ErrStopped, datahub.ErrOutcomeUnknown and
// the context's error.
func TestAsyncWaitStopped(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithAsyncLag(time.Hour))
	r, _ := newREST(t, s, datahub.WithEndpoint(datahub.EndpointOpenAPI), emitter.WithEmitMode(emitter.EmitAsyncWait))
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		for s.RequestCount(mockserver.OpTraceWrite) == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	p, _ := emitter.NewProposal(datasetURN(t, 1), aspects.Status{Removed: true})
	err := r.Emit(ctx, p)
	if diff := cmp.Diff([]emitter.Status{emitter.Stopped}, statuses(t, err, 1)); diff != "" {
		t.Fatalf("statuses (-want +got):\n%s\nerror: %v", diff, err)
	}
	for _, target := range []error{datahub.ErrStopped, datahub.ErrOutcomeUnknown, context.Canceled} {
		if !errors.Is(err, target) {
			t.Errorf("error = %v, want one matching %v", err, target)
		}
	}
}

// TestAllOrNothingRefusedBeforeSending checks that an Emit that must write
// all of its proposals or none (Entities.Create) sends nothing, over both
// endpoints, when they would need more than one request or one of them
// cannot be sent, and that a refused request is not split.
func TestAllOrNothingRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	for _, ep := range []datahub.Endpoint{datahub.EndpointRestli, datahub.EndpointOpenAPI} {
		t.Run(ep.String(), func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			r, c := newREST(t, s, datahub.WithEndpoint(ep), emitter.WithMaxBatchSize(2))
			ctx := emitctx.WithAllOrNothing(t.Context())
			var ps []emitter.Proposal
			for i := range 3 {
				ps = append(ps, propertiesProposal(t, i, 0))
			}
			if err := r.Emit(ctx, ps...); !errors.Is(err, datahub.ErrValidation) || c.attempts.Load() != 0 {
				t.Errorf("3 proposals with a batch size of 2: %v after %d requests, want ErrValidation before sending", err, c.attempts.Load())
			}
			bad, _ := emitter.NewProposal(datasetURN(t, 9), aspects.Ownership{Owners: []aspects.Owner{{Owner: "not-a-urn", Type: aspects.OwnershipTypeTechnicalOwner}}})
			err := r.Emit(ctx, ps[0], bad)
			if diff := cmp.Diff([]emitter.Status{emitter.Rejected, emitter.Rejected}, statuses(t, err, 2)); diff != "" {
				t.Errorf("statuses of a refused request (-want +got):\n%s\nerror: %v", diff, err)
			}
			if _, err := s.GetAspectJSON(ps[0].URN.String(), "datasetProperties", 0); !errors.Is(err, datahub.ErrNotFound) {
				t.Errorf("the good proposal of a refused all-or-nothing request was written: %v", err)
			}
		})
	}
}
