package emitter_test

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestOpenAPIEmitsReuseMemory: batched OpenAPI Emit calls from several
// goroutines at once, whose request bodies are read from memory the calls
// give back for later ones, each write what they were given: every
// dataset holds each of its writes, in order, once.
func TestOpenAPIEmitsReuseMemory(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithRecording(false))
	r, err := emitter.NewREST(s.URL(), datahub.WithEndpoint(datahub.EndpointOpenAPI))
	if err != nil {
		t.Fatal(err)
	}
	const goroutines, perCall, writes = 4, 50, 8
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			ps := make([]emitter.Proposal, perCall)
			for w := range writes {
				for i := range ps {
					ps[i] = propertiesProposal(t, g*perCall+i, w)
				}
				if err := r.Emit(t.Context(), ps...); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	for i := range goroutines * perCall {
		if !checkWrites(t, s, i, writes) {
			break
		}
	}
}

// TestOpenAPIResultsOutliveLaterEmits: the results of a batched OpenAPI
// Emit that failed in part stay as they were while later calls, whose
// bookkeeping memory goes back for reuse, run (in requests of 3, so that a
// call sends several); each of the later calls writes what it was given.
func TestOpenAPIResultsOutliveLaterEmits(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithRecording(false))
	r, err := emitter.NewREST(s.URL(), datahub.WithEndpoint(datahub.EndpointOpenAPI), emitter.WithMaxBatchSize(3))
	if err != nil {
		t.Fatal(err)
	}
	const n, writes = 8, 5
	ps := make([]emitter.Proposal, n)
	for i := range ps {
		ps[i] = propertiesProposal(t, 100+i, 0)
	}
	ps[5].ChangeType = emitter.Update // no OpenAPI form: Rejected
	err = r.Emit(t.Context(), ps...)
	var be *emitter.BatchError
	if !errors.As(err, &be) {
		t.Fatalf("Emit = %v, want a *BatchError", err)
	}
	want := slices.Clone(be.Results)
	if want[5].Status != emitter.Rejected || want[0].Status != emitter.Written || want[0].URN == "" {
		t.Fatalf("results = %+v", want)
	}
	for w := range writes {
		for i := range ps {
			ps[i] = propertiesProposal(t, i, w)
		}
		if err := r.Emit(t.Context(), ps...); err != nil {
			t.Fatal(err)
		}
	}
	if d := cmp.Diff(want, be.Results, cmpopts.EquateErrors()); d != "" {
		t.Errorf("the failed call's results changed (-before +after):\n%s", d)
	}
	for i := range n {
		if !checkWrites(t, s, i, writes) {
			break
		}
	}
}
