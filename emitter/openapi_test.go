package emitter_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// statuses returns the status of each proposal of an Emit's error (all
// Written when err is nil).
func statuses(t *testing.T, err error, n int) []emitter.Status {
	t.Helper()
	out := make([]emitter.Status, n)
	if err == nil {
		for i := range out {
			out[i] = emitter.Written
		}
		return out
	}
	var be *emitter.BatchError
	if !errors.As(err, &be) {
		t.Fatalf("Emit error %v is not a *BatchError", err)
	}
	for _, r := range be.Results {
		out[r.Index] = r.Status
	}
	return out
}

// TestOpenAPIAsyncWait checks EmitAsyncWait through the mock's async lag:
// Emit returns only once the search index caught up with every written
// proposal, and a proposal the server refuses after queueing it (a failed
// If-Version-Match) is Rejected with a *TraceError while the others are
// Written.
func TestOpenAPIAsyncWait(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithAsyncLag(40*time.Millisecond))
	r, _ := newREST(t, s, datahub.WithEndpoint(datahub.EndpointOpenAPI), emitter.WithEmitMode(emitter.EmitAsyncWait))
	a, b := datasetURN(t, 1), datasetURN(t, 2)
	pa, _ := emitter.NewProposal(a, aspects.DatasetProperties{Description: aspects.Ptr("a")})
	pb, _ := emitter.NewProposal(b, aspects.Status{Removed: true})
	bad, _ := emitter.NewProposal(b, aspects.DatasetProperties{Description: aspects.Ptr("never")})
	bad.Headers = map[string]string{"If-Version-Match": "7"}
	err := r.Emit(t.Context(), pa, pb, bad)
	if diff := cmp.Diff([]emitter.Status{emitter.Written, emitter.Written, emitter.Rejected}, statuses(t, err, 3)); diff != "" {
		t.Fatalf("statuses (-want +got):\n%s\nerror: %v", diff, err)
	}
	var te *emitter.TraceError
	if !errors.As(err, &te) || te.URN != b.String() || te.Aspect != "datasetProperties" || te.Primary != "ERROR" || te.Message != "Expected version 7, actual version -1" {
		t.Errorf("error = %v (%+v), want a *TraceError for %s datasetProperties with the server's reason", err, te, b)
	}
	// Emit returned: the index holds what was written, without waiting.
	if got := s.IndexedAspects(a.String()); got["datasetProperties"] == nil {
		t.Errorf("index of %s after EmitAsyncWait = %v, want datasetProperties", a, got)
	}
	if got := s.IndexedAspects(b.String()); got["status"] == nil || got["datasetProperties"] != nil {
		t.Errorf("index of %s after EmitAsyncWait = %v, want status only", b, got)
	}
	if s.RequestCount(mockserver.OpTraceWrite) == 0 {
		t.Error("no trace was polled")
	}
}

// TestOpenAPIKeepsMeaning checks that each change type keeps its meaning on
// the OpenAPI path: a CREATE of an existing aspect is refused, PATCH and
// UPSERT of one aspect apply in order, a DELETE deletes the entity, and
// UPDATE is refused before anything is sent.
func TestOpenAPIKeepsMeaning(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s, datahub.WithEndpoint(datahub.EndpointOpenAPI))
	u := datasetURN(t, 1)
	up, _ := emitter.NewProposal(u, aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:a"}}})
	patch := emitter.Proposal{URN: u, ChangeType: emitter.Patch, AspectName: "globalTags",
		Aspect: rawAspect{"globalTags", `[{"op":"add","path":"/tags/urn:li:tag:b","value":{"tag":"urn:li:tag:b"}}]`}}
	create, _ := emitter.NewProposal(u, aspects.Status{})
	create.ChangeType = emitter.Create
	createAgain := create
	update := up
	update.ChangeType = emitter.Update
	err := r.Emit(t.Context(), up, patch, create, createAgain, update)
	want := []emitter.Status{emitter.Written, emitter.Written, emitter.Written, emitter.Rejected, emitter.Rejected}
	if diff := cmp.Diff(want, statuses(t, err, 5)); diff != "" {
		t.Fatalf("statuses (-want +got):\n%s\nerror: %v", diff, err)
	}
	if !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("error %v does not match datahub.ErrValidation", err)
	}
	got, gerr := s.GetAspectJSON(u.String(), "globalTags", 0)
	if gerr != nil || string(got) != `{"tags":[{"tag":"urn:li:tag:a"},{"tag":"urn:li:tag:b"}]}` {
		t.Errorf("globalTags = %s %v, want the upsert then the patch", got, gerr)
	}
	// An entity's CREATE_ENTITY and its CREATEs are all or nothing on
	// Rest.li; on OpenAPI what follows a refused CREATE_ENTITY is not sent.
	key := emitter.Proposal{URN: u, ChangeType: emitter.CreateEntity, Aspect: aspects.DatasetKey{Platform: "urn:li:dataPlatform:hive", Name: "db.table_00001", Origin: "PROD"}}
	props, _ := emitter.NewProposal(u, aspects.DatasetProperties{Description: aspects.Ptr("must not land")})
	props.ChangeType = emitter.Create
	err = r.Emit(t.Context(), key, props)
	if diff := cmp.Diff([]emitter.Status{emitter.Rejected, emitter.NotAttempted}, statuses(t, err, 2)); diff != "" {
		t.Errorf("CREATE_ENTITY of an existing entity, then a CREATE (-want +got):\n%s\nerror: %v", diff, err)
	}
	if _, err := s.GetAspectJSON(u.String(), "datasetProperties", 0); err == nil {
		t.Error("a CREATE after a refused CREATE_ENTITY was written")
	}
	del, _ := emitter.NewDeleteEntity(u)
	if err := r.Emit(t.Context(), del); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetAspectJSON(u.String(), "globalTags", 0); err == nil {
		t.Error("the entity survived its DELETE")
	}
	if n := s.RequestCount(mockserver.OpIngestProposal) + s.RequestCount(mockserver.OpIngestProposalBatch); n != 0 {
		t.Errorf("%d Rest.li requests on the OpenAPI path", n)
	}
}

// rawAspect is an aspect given as its JSON text.
type rawAspect struct{ name, json string }

func (a rawAspect) AspectName() string           { return a.name }
func (a rawAspect) MarshalJSON() ([]byte, error) { return []byte(a.json), nil }

// TestEndpointAuto checks that datahub.EndpointAuto writes through OpenAPI to a
// server reporting 1.0.1 or later, and through Rest.li to an older one.
func TestEndpointAuto(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		version string
		openAPI bool
	}{{"v1.0.1", true}, {"v1.0.0", false}, {"v0.14.1", false}, {"v1.3.0rc2", true}} {
		t.Run(c.version, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t, mockserver.WithServerVersion(c.version))
			r, _ := newREST(t, s, datahub.WithEndpoint(datahub.EndpointAuto))
			for i := range 2 {
				p, _ := emitter.NewProposal(datasetURN(t, i), aspects.Status{})
				if err := r.Emit(t.Context(), p); err != nil {
					t.Fatal(err)
				}
			}
			got := [3]int{s.RequestCount(mockserver.OpConfig), s.RequestCount(mockserver.OpV3Write), s.RequestCount(mockserver.OpIngestProposal)}
			want := [3]int{1, 0, 2}
			if c.openAPI {
				want = [3]int{1, 2, 0}
			}
			if got != want {
				t.Errorf("[config, v3 writes, Rest.li writes] = %v, want %v", got, want)
			}
		})
	}
}

// TestEndpointFromEnv checks the Python emitter's environment override.
func TestEndpointFromEnv(t *testing.T) {
	for v, want := range map[string]datahub.Endpoint{"OPENAPI": datahub.EndpointOpenAPI, "restli": datahub.EndpointRestli, "": datahub.EndpointAuto, "other": datahub.EndpointAuto} {
		t.Setenv(datahub.EnvEndpoint, v)
		if got := datahub.EndpointFromEnv(); got != want {
			t.Errorf("%s=%q: datahub.EndpointFromEnv() = %v, want %v", datahub.EnvEndpoint, v, got, want)
		}
	}
}

// TestOpenAPIOrderAcrossBatches checks that a write is not sent before an
// earlier write of the same URN that waits in another batch request: the
// UPSERT of u2 below waits for the PATCH of u2 before it, though the
// UPSERT of u1 opened its batch first.
func TestOpenAPIOrderAcrossBatches(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s, datahub.WithEndpoint(datahub.EndpointOpenAPI))
	u1, u2 := datasetURN(t, 1), datasetURN(t, 2)
	tags := aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:a"}}}
	up1, _ := emitter.NewProposal(u1, tags)
	patch2 := emitter.Proposal{URN: u2, ChangeType: emitter.Patch, AspectName: "globalTags",
		Aspect: rawAspect{"globalTags", `[{"op":"add","path":"/tags/urn:li:tag:b","value":{"tag":"urn:li:tag:b"}}]`}}
	up2, _ := emitter.NewProposal(u2, tags)
	if err := r.Emit(t.Context(), up1, patch2, up2); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetAspectJSON(u2.String(), "globalTags", 0)
	if err != nil || string(got) != `{"tags":[{"tag":"urn:li:tag:a"}]}` {
		t.Errorf("globalTags of %s = %s %v, want the UPSERT's value (the PATCH applied first)", u2, got, err)
	}
}
