package emitter_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestResultsNameDatasetURNs checks that the results a caller sees name
// each proposal's URN, though the encoding of a dataset URN does not build
// its text: EmitResults' on success, a BatchError's, and the Async
// emitter's errors.
func TestResultsNameDatasetURNs(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, err := emitter.NewREST(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	ps := []emitter.Proposal{propertiesProposal(t, 1, 0), propertiesProposal(t, 2, 0), propertiesProposal(t, 3, 0)}
	g, err := urn.ParseGeneric(ps[2].URN.String()) // the same dataset as a generic URN
	if err != nil {
		t.Fatal(err)
	}
	ps[2].URN = g
	results, err := r.EmitResults(t.Context(), ps...)
	if err != nil {
		t.Fatal(err)
	}
	for i, res := range results {
		if want := ps[i].URN.String(); res.URN != want {
			t.Errorf("EmitResults: result %d names %q, want %q", i, res.URN, want)
		}
	}

	// A proposal the server refuses: every result of the BatchError is named.
	bad := propertiesProposal(t, 4, 0)
	bad.Aspect = emitter.RawAspect{Name: "datasetProperties", JSON: json.RawMessage(`{"customProperties": 7}`)}
	err = r.Emit(t.Context(), ps[0], bad)
	var be *emitter.BatchError
	if !errors.As(err, &be) {
		t.Fatalf("Emit of a refused proposal: %v, want a *BatchError", err)
	}
	for i, want := range []string{ps[0].URN.String(), bad.URN.String()} {
		if got := be.Results[i].URN; got != want {
			t.Errorf("BatchError: result %d names %q, want %q", i, got, want)
		}
	}

	// The Async emitter names it in the error of a proposal not written.
	a := emitter.NewAsync(r)
	if err := a.Emit(t.Context(), bad); err != nil {
		t.Fatal(err)
	}
	err = a.Close(t.Context())
	var ae *emitter.AsyncError
	if !errors.As(err, &ae) || len(ae.Errs) != 1 || !strings.Contains(ae.Errs[0].Error(), bad.URN.String()+" datasetProperties") {
		t.Errorf("Async: %v, want one error naming %s", err, bad.URN)
	}
}
