package emitter_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestOpenAPINamesDatasetURNs checks that an Emit through OpenAPI, which
// writes a dataset URN into a batch element without building its text,
// names it wherever it shows: in every result of a *BatchError, and in
// the error of a write not sent after its entity's CREATE_ENTITY was
// refused (which needs the URN to tell that write from the others).
func TestOpenAPINamesDatasetURNs(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s, datahub.WithEndpoint(datahub.EndpointOpenAPI))
	ok, bad := propertiesProposal(t, 1, 0), propertiesProposal(t, 2, 0)
	bad.Aspect = emitter.RawAspect{Name: "datasetProperties", JSON: json.RawMessage(`{"customProperties": 7}`)}
	err := r.Emit(t.Context(), ok, bad)
	var be *emitter.BatchError
	if !errors.As(err, &be) || len(be.Results) != 2 {
		t.Fatalf("Emit of a refused proposal: %v, want a *BatchError of 2 results", err)
	}
	for i, want := range []string{ok.URN.String(), bad.URN.String()} {
		if got := be.Results[i].URN; got != want {
			t.Errorf("BatchError: result %d names %q, want %q", i, got, want)
		}
	}

	// The entity of ok exists: its CREATE_ENTITY is refused, and the
	// UPSERT of that entity after it is not sent, while the other one is.
	u := ok.URN
	key := emitter.Proposal{URN: u, ChangeType: emitter.CreateEntity,
		Aspect: aspects.DatasetKey{Platform: "urn:li:dataPlatform:hive", Name: "db.table_00001", Origin: "PROD"}}
	after, other := propertiesProposal(t, 1, 1), propertiesProposal(t, 3, 1)
	err = r.Emit(t.Context(), key, other, after)
	if diff := cmp.Diff([]emitter.Status{emitter.Rejected, emitter.Written, emitter.NotAttempted}, statuses(t, err, 3)); diff != "" {
		t.Fatalf("CREATE_ENTITY of an existing entity, then UPSERTs (-want +got):\n%s\nerror: %v", diff, err)
	}
	errors.As(err, &be)
	if e := be.Results[2].Err; e == nil || !strings.Contains(e.Error(), "the CREATE_ENTITY of "+u.String()+" before it was refused") {
		t.Errorf("the UPSERT not sent: error %v, want one naming %s", e, u)
	}
	for i, p := range []emitter.Proposal{key, other, after} {
		if got := be.Results[i].URN; got != p.URN.String() {
			t.Errorf("BatchError: result %d names %q, want %q", i, got, p.URN)
		}
	}
	got, gerr := s.GetAspectJSON(u.String(), "datasetProperties", 0)
	if gerr != nil || strings.Contains(string(got), "write 1") {
		t.Errorf("datasetProperties of %s = %s %v, want the first write's", u, got, gerr)
	}
}
