package emitter_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// view is what a round trip through a file must keep of a proposal.
type view struct {
	EntityType, URN, ChangeType, AspectName, ContentType string
	Aspect                                               any
	KeyAspect                                            any
	SystemMetadata                                       *aspects.SystemMetadata
	Headers                                              map[string]string
}

func viewOf(p emitter.Proposal) view {
	v := view{EntityType: p.EntityType, ChangeType: string(p.ChangeType), AspectName: p.AspectName, ContentType: p.ContentType,
		SystemMetadata: p.SystemMetadata, Headers: p.Headers}
	if v.ChangeType == "" {
		v.ChangeType = string(emitter.Upsert)
	}
	if p.URN != nil {
		v.URN = p.URN.String()
		if v.EntityType == "" {
			v.EntityType = p.URN.EntityType()
		}
	}
	norm := func(a aspects.Aspect) any {
		if a == nil {
			return nil
		}
		if v.AspectName == "" {
			v.AspectName = a.AspectName()
		}
		if r, ok := a.(emitter.RawAspect); ok {
			var buf bytes.Buffer
			_ = json.Compact(&buf, r.JSON)
			return r.Name + " " + buf.String()
		}
		if rv := reflect.ValueOf(a); rv.Kind() != reflect.Pointer { // compare T and *T alike
			pv := reflect.New(rv.Type())
			pv.Elem().Set(rv)
			return pv.Interface()
		}
		return a
	}
	v.Aspect = norm(p.Aspect)
	v.KeyAspect = norm(p.KeyAspect)
	return v
}

func TestFileRoundTrip(t *testing.T) {
	t.Parallel()
	sm := &aspects.SystemMetadata{LastObserved: 1700000000000, RunID: aspects.Ptr("run-1"), LastRunID: aspects.Ptr("run-0"), Properties: map[string]string{"clientId": "datahub-go", "clientVersion": datahub.Version}}
	ds := datasetURN(t, 1)
	del, err := emitter.NewDeleteEntity(datasetURN(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	del.SystemMetadata = sm
	ps := []emitter.Proposal{
		propertiesProposal(t, 1, 0),
		{URN: ds, Aspect: aspects.Ownership{Owners: []aspects.Owner{{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeTechnicalOwner}}, OwnerTypes: map[string][]string{}, LastModified: aspects.AuditStamp{Actor: "urn:li:corpuser:jdoe"}}},
		{URN: ds, Aspect: aspects.SubTypes{TypeNames: []string{"view"}}}, // read back typed, as every registry aspect is
		{URN: ds, ChangeType: emitter.Patch, Aspect: emitter.RawAspect{Name: "globalTags", JSON: json.RawMessage(`[{"op":"add","path":"/tags/urn:li:tag:pii","value":{"tag":"urn:li:tag:pii"}}]`)}},
		{URN: ds, Aspect: aspects.Status{Removed: true}, Headers: map[string]string{"If-Version-Match": "1"}},
		{EntityType: "dataset", KeyAspect: aspects.DatasetKey{Platform: "urn:li:dataPlatform:hive", Name: "db.k", Origin: "PROD"}, AspectName: "status", Aspect: aspects.Status{}},
		del,
	}
	for i := range ps {
		if ps[i].SystemMetadata == nil {
			ps[i].SystemMetadata = sm
		}
	}
	path := filepath.Join(t.TempDir(), "mcps.json")
	f, err := emitter.NewFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Emit(t.Context(), ps[:3]...); err != nil {
		t.Fatal(err)
	}
	// One invalid proposal: nothing of this call is written.
	if err := f.Emit(t.Context(), ps[3], emitter.Proposal{URN: ds}); !errors.Is(err, datahub.ErrValidation) {
		t.Fatalf("Emit with an invalid proposal: %v, want ErrValidation", err)
	}
	for _, p := range ps[3:] {
		if err := f.Emit(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := f.Emit(t.Context(), ps[0]); !errors.Is(err, emitter.ErrClosed) {
		t.Errorf("Emit after Close: %v, want ErrClosed", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var records []map[string]any
	if err := json.Unmarshal(data, &records); err != nil {
		t.Fatalf("file is not a JSON array: %v\n%s", err, data)
	}
	if len(records) != len(ps) {
		t.Fatalf("%d records, want %d", len(records), len(ps))
	}
	if _, ok := records[0]["aspect"].(map[string]any)["json"].(map[string]any); !ok {
		t.Errorf(`record 0 aspect = %v, want {"json": {...}}`, records[0]["aspect"])
	}

	back, err := emitter.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want, got []view
	for _, p := range ps {
		want = append(want, viewOf(p))
	}
	for _, p := range back {
		got = append(got, viewOf(p))
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// TestFileSeedsMock writes a file and loads it into the mock server, as
// its -seed flag does.
func TestFileSeedsMock(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "seed.json")
	f, err := emitter.NewFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ps []emitter.Proposal
	for i := range 20 {
		ps = append(ps, propertiesProposal(t, i, 0))
	}
	ps = append(ps, emitter.Proposal{URN: datasetURN(t, 0), Aspect: emitter.RawAspect{Name: "subTypes", JSON: json.RawMessage(`{"typeNames":["view"]}`)}})
	if err := f.Emit(t.Context(), ps...); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	s := mockserver.New()
	defer s.Close()
	n, err := s.LoadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	if n != len(ps) {
		t.Errorf("mock loaded %d proposals, want %d", n, len(ps))
	}
	for i := range 20 {
		if !checkWrites(t, s, i, 1) {
			break
		}
	}
}

func TestFileEmpty(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "empty.json")
	f, err := emitter.NewFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	ps, err := emitter.ReadFile(path)
	if err != nil || len(ps) != 0 {
		t.Errorf("ReadFile of an empty file: %v, %v", ps, err)
	}
	if _, err := emitter.NewFile(filepath.Join(t.TempDir(), "no", "such", "dir.json")); err == nil {
		t.Error("NewFile in a missing directory: want an error")
	}
}

// TestReadFilePython reads records as DataHub's Python file sink writes
// them, with an aspect whose fields the typed struct lacks: it is kept
// whole as a RawAspect.
func TestReadFilePython(t *testing.T) {
	t.Parallel()
	const file = `[
{
    "entityType": "dataset",
    "entityUrn": "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",
    "changeType": "UPSERT",
    "aspectName": "status",
    "aspect": {
        "json": {
            "removed": false
        }
    },
    "systemMetadata": {
        "lastObserved": 1586847600000,
        "runId": "file-test",
        "lastRunId": "no-run-id-provided"
    }
},
{
    "entityType": "dataset",
    "entityUrn": "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",
    "changeType": "UPSERT",
    "aspectName": "datasetProperties",
    "aspect": {
        "json": {
            "customProperties": {},
            "description": "d",
            "tags": [],
            "someFutureField": 1
        }
    }
},
{
    "entityType": "dataJob",
    "entityUrn": "urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),load)",
    "changeType": "UPSERT",
    "aspectName": "dataJobInfo",
    "aspect": {
        "value": "{\"name\": \"load\", \"customProperties\": {}}",
        "contentType": "application/json"
    }
}
]`
	path := filepath.Join(t.TempDir(), "py.json")
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, err := emitter.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []view{
		{EntityType: "dataset", URN: "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)", ChangeType: "UPSERT", AspectName: "status",
			Aspect: &aspects.Status{}, SystemMetadata: &aspects.SystemMetadata{LastObserved: 1586847600000, RunID: aspects.Ptr("file-test"), LastRunID: aspects.Ptr("no-run-id-provided")}},
		{EntityType: "dataset", URN: "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)", ChangeType: "UPSERT", AspectName: "datasetProperties",
			Aspect: `datasetProperties {"customProperties":{},"description":"d","tags":[],"someFutureField":1}`},
		{EntityType: "dataJob", URN: "urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),load)", ChangeType: "UPSERT", AspectName: "dataJobInfo",
			Aspect: `dataJobInfo {"name":"load","customProperties":{}}`},
	}
	var got []view
	for _, p := range ps {
		got = append(got, viewOf(p))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadFile (-want +got):\n%s", diff)
	}
	if _, ok := ps[2].URN.(urn.DataJob); !ok {
		t.Errorf("dataJob URN is a %T, want urn.DataJob", ps[2].URN)
	}
	bad := filepath.Join(t.TempDir(), "mce.json")
	if err := os.WriteFile(bad, []byte(`[{"proposedSnapshot": {}}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := emitter.ReadFile(bad); err == nil {
		t.Error("ReadFile of an MCE file: want an error")
	}
}
