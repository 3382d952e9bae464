package kafka_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/kafka"
	"github.com/catalogkit/datahub-go/urn"
)

func dataset(t testing.TB, name string) urn.Dataset {
	t.Helper()
	u, err := urn.NewDataset("hive", name, "PROD")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func props(desc string) aspects.DatasetProperties {
	return aspects.DatasetProperties{Description: &desc}
}

// getJSON reads an aspect back from the mock; "" when it has none.
func getJSON(t testing.TB, e *env, u, aspect string) string {
	t.Helper()
	raw, err := e.mock.GetAspectJSON(u, aspect, 0)
	if errors.Is(err, datahub.ErrNotFound) {
		return ""
	}
	var de *datahub.Error
	if errors.As(err, &de) && de.StatusCode == http.StatusNotFound {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestRoundTripChangeTypes emits every change type the REST emitter
// supports through Kafka and checks the result in the mock.
func TestRoundTripChangeTypes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 3)
	em := e.emitter(t)
	b, rec := e.bridge(t)
	ctx := context.Background()

	up, created, entity, gone, patched := dataset(t, "up"), dataset(t, "created"), dataset(t, "entity"), dataset(t, "gone"), dataset(t, "patched")
	del, err := emitter.NewDeleteEntity(gone)
	if err != nil {
		t.Fatal(err)
	}
	ps := []emitter.Proposal{
		{URN: up, Aspect: props("v1")},
		{URN: up, Aspect: props("v2")},
		{URN: created, ChangeType: emitter.Create, Aspect: props("first")},
		{URN: created, ChangeType: emitter.Create, Aspect: props("second")}, // refused: exists
		{URN: entity, ChangeType: emitter.CreateEntity, Aspect: props("new entity")},
		{URN: entity, ChangeType: emitter.CreateEntity, Aspect: aspects.Status{}}, // refused: entity exists
		{URN: gone, Aspect: props("to be deleted")},
		del,
		{URN: patched, Aspect: aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:a"}}}},
		{EntityType: "dataset", KeyAspect: aspects.DatasetKey{Platform: "urn:li:dataPlatform:hive", Name: "bykey", Origin: "PROD"}, Aspect: props("by key")},
		{URN: patched, ChangeType: emitter.Patch, Aspect: emitter.RawAspect{Name: "globalTags",
			JSON: json.RawMessage(`[{"op":"add","path":"/tags/urn:li:tag:b","value":{"tag":"urn:li:tag:b"}}]`)}},
	}
	if err := em.Emit(ctx, ps...); err != nil {
		t.Fatalf("Emit: %v", err)
	}
	if n := syncBridge(t, b); n != len(ps) {
		t.Errorf("bridge handled %d messages, want %d", n, len(ps))
	}

	// Outcomes per entity, in the order emitted.
	outcomes := map[string][]string{}
	var patchErr error
	for _, a := range rec.list() {
		o := string(a.ChangeType) + " " + a.Aspect + ": ok"
		if a.Err != nil {
			o = string(a.ChangeType) + " " + a.Aspect + ": refused"
			if a.ChangeType == emitter.Patch {
				patchErr = a.Err
				o = "PATCH globalTags: (see below)"
			}
		} else if a.ChangeType == emitter.Patch {
			o = "PATCH globalTags: (see below)"
		}
		outcomes[a.URN] = append(outcomes[a.URN], o)
	}
	want := map[string][]string{
		up.String():      {"UPSERT datasetProperties: ok", "UPSERT datasetProperties: ok"},
		created.String(): {"CREATE datasetProperties: ok", "CREATE datasetProperties: refused"},
		entity.String():  {"CREATE_ENTITY datasetProperties: ok", "CREATE_ENTITY status: refused"},
		gone.String():    {"UPSERT datasetProperties: ok", "DELETE datasetKey: ok"},
		patched.String(): {"UPSERT globalTags: ok", "PATCH globalTags: (see below)"},
		"":               {"UPSERT datasetProperties: ok"}, // named by its key aspect only
	}
	if diff := cmp.Diff(want, outcomes); diff != "" {
		t.Errorf("outcomes per entity (-want +got):\n%s", diff)
	}

	for _, c := range []struct{ urn, aspect, want string }{
		{up.String(), "datasetProperties", `"description":"v2"`},
		{created.String(), "datasetProperties", `"description":"first"`},
		{entity.String(), "datasetProperties", `"description":"new entity"`},
		{entity.String(), "status", ""},
		{gone.String(), "datasetProperties", ""},
		{dataset(t, "bykey").String(), "datasetProperties", `"description":"by key"`},
	} {
		got := getJSON(t, e, c.urn, c.aspect)
		if (c.want == "") != (got == "") || !contains(got, c.want) {
			t.Errorf("%s %s = %s, want it to contain %q", c.urn, c.aspect, got, c.want)
		}
	}
	// PATCH travels as a proposal; the mock applies it, or refuses it with
	// 422 while it does not support PATCH.
	tags := getJSON(t, e, patched.String(), "globalTags")
	var de *datahub.Error
	switch {
	case patchErr == nil && (!contains(tags, "urn:li:tag:a") || !contains(tags, "urn:li:tag:b")):
		t.Errorf("PATCH applied, but globalTags = %s", tags)
	case patchErr != nil && (!errors.As(patchErr, &de) || de.StatusCode != http.StatusUnprocessableEntity || !contains(de.Message, "PATCH")):
		t.Errorf("PATCH refused with %v, want the mock's 422 about PATCH", patchErr)
	case patchErr != nil && contains(tags, "urn:li:tag:b"):
		t.Errorf("PATCH refused but applied: %s", tags)
	}
	if patchErr != nil {
		t.Logf("PATCH reached the mock, which refused it: %v", patchErr)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestEmitInvalidProposal checks that an invalid proposal is rejected
// without being sent while the others are written.
func TestEmitInvalidProposal(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 1)
	em := e.emitter(t)
	b, _ := e.bridge(t)
	ok := dataset(t, "ok")
	err := em.Emit(context.Background(),
		emitter.Proposal{URN: ok, Aspect: props("fine")},
		emitter.Proposal{URN: ok, AspectName: "datasetProperties"}, // no aspect
	)
	var be *emitter.BatchError
	if !errors.As(err, &be) {
		t.Fatalf("Emit error = %v, want *emitter.BatchError", err)
	}
	if diff := cmp.Diff([]int{0}, be.Written()); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
	if f := be.Failures(); len(f) != 1 || f[0].Status != emitter.Rejected || !errors.Is(f[0].Err, datahub.ErrValidation) {
		t.Errorf("failures = %+v, want index 1 rejected with ErrValidation", f)
	}
	if n := syncBridge(t, b); n != 1 {
		t.Errorf("bridge handled %d messages, want 1 (the invalid proposal must not be sent)", n)
	}
	if got := getJSON(t, e, ok.String(), "datasetProperties"); !contains(got, "fine") {
		t.Errorf("datasetProperties = %s", got)
	}
}

// TestKeyIsURN checks the message key and the subject of the schema.
func TestKeyIsURN(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 1)
	var acks []kafka.Ack
	em := e.emitter(t, kafka.WithOnAck(func(a kafka.Ack) { acks = append(acks, a) }))
	u := dataset(t, "keyed")
	if err := em.Emit(context.Background(), emitter.Proposal{URN: u, Aspect: props("k")}); err != nil {
		t.Fatal(err)
	}
	want := []kafka.Ack{{URN: u.String(), Aspect: "datasetProperties", ChangeType: emitter.Upsert, Topic: kafka.DefaultMCPTopic, Partition: 0, Offset: 0}}
	if diff := cmp.Diff(want, acks); diff != "" {
		t.Errorf("acks (-want +got):\n%s", diff)
	}
	recs := consumeAll(t, e, kafka.DefaultMCPTopic, 1)
	if got := string(recs[0].Key); got != u.String() {
		t.Errorf("key = %q, want the URN", got)
	}
	id, err := em.SchemaID(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ss := e.subjectSchema(t, kafka.DefaultMCPTopic+"-value")
	if ss.ID != id || ss.Schema.Schema != kafka.MCPSchema {
		t.Errorf("subject %s-value holds id %d (want %d), schema equal to MCPSchema: %v", kafka.DefaultMCPTopic, ss.ID, id, ss.Schema.Schema == kafka.MCPSchema)
	}
}
