package mockserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
	"github.com/google/go-cmp/cmp"
)

// patchEpoch is the fixed server time of the PATCH tests: the audit stamps
// of template defaults carry it.
var patchEpoch = time.UnixMilli(1700000000000).UTC()

// startPatch starts a mock with a fixed clock and an emitter for it.
func startPatch(t *testing.T) (*mockserver.Server, *emitter.REST) {
	t.Helper()
	s := mockserver.Start(t, mockserver.WithClock(func() time.Time { return patchEpoch }))
	rest, err := emitter.NewREST(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	return s, rest
}

// emitPatch emits the builder's proposals.
func emitPatch(t *testing.T, rest *emitter.REST, b interface {
	Proposals() ([]emitter.Proposal, error)
}) error {
	t.Helper()
	ps, err := b.Proposals()
	if err != nil {
		t.Fatal(err)
	}
	return rest.Emit(context.Background(), ps...)
}

// aspectJSON reads the latest value of an aspect decoded as JSON data.
func aspectJSON(t *testing.T, s *mockserver.Server, u, aspect string) any {
	t.Helper()
	raw, err := s.GetAspectJSON(u, aspect, 0)
	if err != nil {
		t.Fatalf("GetAspectJSON(%s, %s): %v", u, aspect, err)
	}
	return decodeJSON(t, string(raw))
}

func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return v
}

// mustURN returns u; err (of a URN built from constants) panics.
func mustURN[U any](u U, err error) U {
	if err != nil {
		panic(err)
	}
	return u
}

// TestPatchBuilders emits each builder kind's output to the mock over HTTP
// and reads the merged aspects back. Each case first writes a base value
// (or none), so that the patch is shown merging, not overwriting.
func TestPatchBuilders(t *testing.T) {
	t.Parallel()
	ds := mustURN(urn.NewDataset("hive", "db.orders", "PROD"))
	up := mustURN(urn.NewDataset("hive", "db.raw_orders", "PROD"))
	model := mustURN(urn.NewMLModel("mlflow", "churn", "PROD"))
	table := mustURN(urn.NewMLFeatureTable("feast", "users"))
	feature := mustURN(urn.NewMLFeature("users", "age"))
	const stamp = `{"time":1700000000000,"actor":"urn:li:corpuser:__datahub_system"}`
	tests := []struct {
		name   string
		u      string
		aspect string
		base   string // "" : the aspect is absent before the patch
		build  func() interface {
			Proposals() ([]emitter.Proposal, error)
		}
		want string
	}{
		{"tags", ds.String(), "globalTags", `{"tags":[{"tag":"urn:li:tag:pii"}]}`, func() interface {
			Proposals() ([]emitter.Proposal, error)
		} {
			d := patch.NewDataset(ds)
			d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:gold"})
			d.RemoveTag("urn:li:tag:pii")
			d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:a/b~c"})
			return d
		}, `{"tags":[{"tag":"urn:li:tag:gold"},{"tag":"urn:li:tag:a/b~c"}]}`},
		{"terms on an absent aspect", ds.String(), "glossaryTerms", "", func() interface {
			Proposals() ([]emitter.Proposal, error)
		} {
			d := patch.NewDataset(ds)
			d.AddTerm(aspects.GlossaryTermAssociation{URN: "urn:li:glossaryTerm:Sales.Order"})
			return d
		}, `{"terms":[{"urn":"urn:li:glossaryTerm:Sales.Order"}],"auditStamp":` + stamp + `}`},
		{"owners", ds.String(), "ownership", `{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"lastModified":{"time":1,"actor":"urn:li:corpuser:a"}}`, func() interface {
			Proposals() ([]emitter.Proposal, error)
		} {
			d := patch.NewDataset(ds)
			d.AddOwner(aspects.Owner{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeTechnicalOwner})
			return d
		}, `{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"},{"owner":"urn:li:corpuser:jdoe","type":"TECHNICAL_OWNER"}],"lastModified":{"time":1,"actor":"urn:li:corpuser:a"}}`},
		{"upstreams", ds.String(), "upstreamLineage", "", func() interface {
			Proposals() ([]emitter.Proposal, error)
		} {
			d := patch.NewDataset(ds)
			d.AddUpstream(aspects.Upstream{Dataset: up.String(), Type: aspects.DatasetLineageTypeTransformed})
			return d
		}, `{"upstreams":[{"auditStamp":{"time":0,"actor":"urn:li:corpuser:unknown"},"dataset":"` + up.String() + `","type":"TRANSFORMED"}],"fineGrainedLineages":[]}`},
		{"custom properties and description", ds.String(), "datasetProperties", `{"customProperties":{"a":"1"},"name":"orders"}`, func() interface {
			Proposals() ([]emitter.Proposal, error)
		} {
			d := patch.NewDataset(ds)
			d.AddCustomProperty("team/owner", "sales")
			d.RemoveCustomProperty("a")
			d.SetDescription("daily orders")
			return d
		}, `{"customProperties":{"team/owner":"sales"},"name":"orders","description":"daily orders","tags":[]}`},
		{"editable schema field description", ds.String(), "editableSchemaMetadata", "", func() interface {
			Proposals() ([]emitter.Proposal, error)
		} {
			d := patch.NewDataset(ds)
			d.Field("address.zip").SetDescription("postal code")
			return d
		}, `{"editableSchemaFieldInfo":[{"fieldPath":"address.zip","description":"postal code"}],"created":` + stamp + `,"lastModified":` + stamp + `}`},
		{"ML model features and groups (generic)", model.String(), "mlModelProperties", `{"name":"churn","mlFeatures":["urn:li:mlFeature:(users,tenure)"]}`, func() interface {
			Proposals() ([]emitter.Proposal, error)
		} {
			m := patch.NewMLModel(model)
			m.AddFeature("urn:li:mlFeature:(users,age)")
			m.AddGroup("urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)")
			return m
		}, `{"name":"churn","mlFeatures":["urn:li:mlFeature:(users,tenure)","urn:li:mlFeature:(users,age)"],"groups":["urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)"]}`},
		{"feature table features", table.String(), "mlFeatureTableProperties", "", func() interface {
			Proposals() ([]emitter.Proposal, error)
		} {
			b := patch.NewMLFeatureTable(table)
			b.AddFeature(feature.String())
			return b
		}, `{"mlFeatures":["` + feature.String() + `"]}`},
		{"feature sources", feature.String(), "mlFeatureProperties", `{"description":"age in years"}`, func() interface {
			Proposals() ([]emitter.Proposal, error)
		} {
			b := patch.NewMLFeature(feature)
			b.AddSource(ds.String())
			return b
		}, `{"description":"age in years","sources":["` + ds.String() + `"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, rest := startPatch(t)
			if tt.base != "" {
				if err := s.PutAspectJSON(tt.u, tt.aspect, json.RawMessage(tt.base)); err != nil {
					t.Fatal(err)
				}
			}
			if err := emitPatch(t, rest, tt.build()); err != nil {
				t.Fatalf("Emit: %v", err)
			}
			if diff := cmp.Diff(decodeJSON(t, tt.want), aspectJSON(t, s, tt.u, tt.aspect)); diff != "" {
				t.Errorf("%s after the patch (-want +got):\n%s", tt.aspect, diff)
			}
		})
	}
}

// rawPatch is a PATCH proposal with the given patch document.
func rawPatch(u urn.URN, aspect, doc string) emitter.Proposal {
	return emitter.Proposal{URN: u, ChangeType: emitter.Patch, AspectName: aspect,
		Aspect: emitter.RawAspect{Name: aspect, JSON: json.RawMessage(doc)}}
}

// wantStatus checks that err is a *datahub.Error with the status and a
// message containing msg.
func wantStatus(t *testing.T, err error, status int, msg string) {
	t.Helper()
	var de *datahub.Error
	if !errors.As(err, &de) {
		t.Fatalf("error = %v, want a *datahub.Error with status %d", err, status)
	}
	if de.StatusCode != status || !strings.Contains(de.Message, msg) {
		t.Errorf("error = %d %q, want %d and a message containing %q", de.StatusCode, de.Message, status, msg)
	}
}

// TestPatchConcurrentAdders: 64 goroutines each add a distinct tag (and a
// distinct feature to a feature table, through the generic patcher) by
// PATCH through the emitter; the server merges them all.
func TestPatchConcurrentAdders(t *testing.T) {
	t.Parallel()
	s, rest := startPatch(t)
	ds := mustURN(urn.NewDataset("hive", "db.orders", "PROD"))
	table := mustURN(urn.NewMLFeatureTable("feast", "users"))
	const n = 64
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Go(func() {
			d := patch.NewDataset(ds)
			d.AddTag(aspects.TagAssociation{Tag: fmt.Sprintf("urn:li:tag:t%02d", i)})
			ps, err := d.Proposals()
			if err == nil {
				err = rest.Emit(context.Background(), ps...)
			}
			errs <- err
		})
		wg.Go(func() {
			b := patch.NewMLFeatureTable(table)
			b.AddFeature(fmt.Sprintf("urn:li:mlFeature:(users,f%02d)", i))
			ps, err := b.Proposals()
			if err == nil {
				err = rest.Emit(context.Background(), ps...)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("Emit: %v", err)
		}
	}
	var tags struct{ Tags []struct{ Tag string } }
	var features struct{ MLFeatures []string }
	for _, r := range []struct {
		u, aspect string
		into      any
	}{{ds.String(), "globalTags", &tags}, {table.String(), "mlFeatureTableProperties", &features}} {
		raw, err := s.GetAspectJSON(r.u, r.aspect, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, r.into); err != nil {
			t.Fatal(err)
		}
	}
	var gotTags []string
	for _, tg := range tags.Tags {
		gotTags = append(gotTags, tg.Tag)
	}
	slices.Sort(gotTags)
	slices.Sort(features.MLFeatures)
	var wantTags, wantFeatures []string
	for i := range n {
		wantTags = append(wantTags, fmt.Sprintf("urn:li:tag:t%02d", i))
		wantFeatures = append(wantFeatures, fmt.Sprintf("urn:li:mlFeature:(users,f%02d)", i))
	}
	if diff := cmp.Diff(wantTags, gotTags); diff != "" {
		t.Errorf("tags after %d concurrent adders (-want +got):\n%s", n, diff)
	}
	if diff := cmp.Diff(wantFeatures, features.MLFeatures); diff != "" {
		t.Errorf("features after %d concurrent adders (-want +got):\n%s", n, diff)
	}
	// Every patch made a version: 64 adds, 64 versions.
	if _, err := s.GetAspectJSON(ds.String(), "globalTags", n-1); err != nil {
		t.Errorf("history version %d of globalTags: %v", n-1, err)
	}
}

// TestPatchUnsupportedAspect: a bare patch of an aspect without a template
// is refused with 422 (real GMS: 500) and a message naming the aspect and
// the remedy; the generic form of the same change works.
func TestPatchUnsupportedAspect(t *testing.T) {
	t.Parallel()
	s, rest := startPatch(t)
	ds := mustURN(urn.NewDataset("hive", "db.orders", "PROD"))
	model := mustURN(urn.NewMLModel("mlflow", "churn", "PROD"))
	for _, p := range []emitter.Proposal{
		rawPatch(ds, "institutionalMemory", `[{"op":"add","path":"/elements/0","value":{"url":"https://x","description":"x","createStamp":{"time":0,"actor":"urn:li:corpuser:a"}}}]`),
		rawPatch(model, "mlModelProperties", `[{"op":"add","path":"/mlFeatures/0","value":"urn:li:mlFeature:(users,age)"}]`),
	} {
		err := rest.Emit(context.Background(), p)
		wantStatus(t, err, 422, "DataHub has no patch template for "+p.AspectName+"; write it with a conditional read-modify-write (UPSERT with If-Version-Match), or send the patch as {\"patch\":[...],\"forceGenericPatch\":true}")
		if _, err := s.GetAspectJSON(p.URN.String(), p.AspectName, 0); !errors.Is(err, datahub.ErrNotFound) {
			t.Errorf("%s after a refused patch: %v, want ErrNotFound", p.AspectName, err)
		}
	}
	d := patch.NewDataset(ds)
	d.AddLink(aspects.InstitutionalMemoryMetadata{URL: "https://wiki/orders", Description: "runbook",
		CreateStamp: aspects.AuditStamp{Time: 1, Actor: "urn:li:corpuser:a"}})
	if err := emitPatch(t, rest, d); err != nil {
		t.Fatalf("generic link patch: %v", err)
	}
	want := `{"elements":[{"url":"https://wiki/orders","description":"runbook","createStamp":{"time":1,"actor":"urn:li:corpuser:a"}}]}`
	if diff := cmp.Diff(decodeJSON(t, want), aspectJSON(t, s, ds.String(), "institutionalMemory")); diff != "" {
		t.Errorf("institutionalMemory (-want +got):\n%s", diff)
	}
}

// TestPatchRefused: a patch that does not parse or has a bad op is a 400,
// one that cannot apply or whose result does not validate a 422; none
// writes anything, the existing value stays.
func TestPatchRefused(t *testing.T) {
	t.Parallel()
	ds := mustURN(urn.NewDataset("hive", "db.orders", "PROD"))
	const base = `{"tags":[{"tag":"urn:li:tag:pii"}]}`
	tests := []struct {
		name, aspect, doc string
		status            int
		msg               string
	}{
		{"not JSON", "globalTags", `[{"op":`, 400, "Invalid JSON Patch: patch globalTags: not a JSON patch"},
		{"a string", "globalTags", `"add"`, 400, "Invalid JSON Patch: patch globalTags: not a JSON patch: neither an array"},
		{"not a patch", "globalTags", `{"ops":[]}`, 400, `Invalid JSON Patch: patch globalTags: not a JSON patch: an object without a "patch" member`},
		{"bad op", "globalTags", `[{"op":"merge","path":"/tags/x","value":{}}]`, 400, "Invalid JSON Patch: patch globalTags: unsupported patch operation: operation 0"},
		{"no value", "globalTags", `[{"op":"add","path":"/tags/x"}]`, 400, "Invalid JSON Patch: patch globalTags: not a JSON patch: operation 0"},
		{"path not a pointer", "globalTags", `[{"op":"add","path":"tags","value":[]}]`, 400, "Invalid JSON Patch: patch globalTags: bad patch path"},
		{"replace of a missing key", "globalTags", `[{"op":"replace","path":"/tags/urn:li:tag:gone","value":{"tag":"urn:li:tag:gone"}}]`, 422,
			`Failed to apply the PATCH (datahub-mock): patch globalTags: bad patch path: operation 0 (replace "/tags/urn:li:tag:gone")`},
		{"test fails", "globalTags", `[{"op":"test","path":"/tags/urn:li:tag:pii/tag","value":"urn:li:tag:other"}]`, 422, "patch test failed"},
		{"result does not validate", "globalTags", `[{"op":"add","path":"/tags/urn:li:tag:x","value":{"tag":7}}]`, 422,
			"Failed to validate record with class com.linkedin.common.GlobalTags"},
		{"absent aspect's result does not validate", "status", `[{"op":"add","path":"/removed","value":"yes"}]`, 422,
			"Failed to validate record with class com.linkedin.common.Status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, rest := startPatch(t)
			if err := s.PutAspectJSON(ds.String(), "globalTags", json.RawMessage(base)); err != nil {
				t.Fatal(err)
			}
			before := dump(t, s, ds.String())
			var err error
			if json.Valid([]byte(tt.doc)) && strings.ContainsAny(tt.doc[:1], "[{") {
				err = rest.Emit(context.Background(), rawPatch(ds, tt.aspect, tt.doc))
			} else { // the emitter refuses to send it: post it as is
				err = postPatch(t, s, ds.String(), tt.aspect, tt.doc)
			}
			wantStatus(t, err, tt.status, tt.msg)
			if diff := cmp.Diff(before, dump(t, s, ds.String())); diff != "" {
				t.Errorf("a refused patch changed the entity (-before +after):\n%s", diff)
			}
		})
	}
}

// dump is every latest aspect of u with its version, as text.
func dump(t *testing.T, s *mockserver.Server, u string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range []string{"datasetKey", "globalTags", "status", "datasetProperties"} {
		raw, err := s.GetAspectJSON(u, name, 0)
		if errors.Is(err, datahub.ErrNotFound) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(raw)
		if h, err := s.GetAspectJSON(u, name, -1); err == nil {
			out[name+" history"] = string(h)
		}
	}
	return out
}

// TestPatchBatchAllOrNothing: a batch of an UPSERT, a good PATCH and a
// failing PATCH writes nothing; without the failing one, the PATCH sees the
// UPSERT before it.
func TestPatchBatchAllOrNothing(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithClock(func() time.Time { return patchEpoch }))
	rest, err := emitter.NewREST(s.URL(), emitter.WithIsolateRejected(false))
	if err != nil {
		t.Fatal(err)
	}
	ds := mustURN(urn.NewDataset("hive", "db.orders", "PROD"))
	upsert, err := emitter.NewProposal(ds, &aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:pii"}}})
	if err != nil {
		t.Fatal(err)
	}
	good := rawPatch(ds, "globalTags", `[{"op":"add","path":"/tags/urn:li:tag:gold","value":{"tag":"urn:li:tag:gold"}}]`)
	bad := rawPatch(ds, "globalTags", `[{"op":"replace","path":"/tags/urn:li:tag:none","value":{"tag":"urn:li:tag:none"}}]`)
	err = rest.Emit(context.Background(), upsert, good, bad)
	wantStatus(t, err, 422, "[2] Failed to apply the PATCH (datahub-mock): patch globalTags: bad patch path")
	if diff := cmp.Diff(map[string]string{}, dump(t, s, ds.String())); diff != "" {
		t.Errorf("a refused batch wrote (-want +got):\n%s", diff)
	}
	if err := rest.Emit(context.Background(), upsert, good); err != nil {
		t.Fatal(err)
	}
	want := `{"tags":[{"tag":"urn:li:tag:pii"},{"tag":"urn:li:tag:gold"}]}`
	if diff := cmp.Diff(decodeJSON(t, want), aspectJSON(t, s, ds.String(), "globalTags")); diff != "" {
		t.Errorf("globalTags after UPSERT then PATCH in one batch (-want +got):\n%s", diff)
	}
}

// postPatch posts a PATCH proposal with the document as is, and returns the
// refusal as a *datahub.Error (nil for a 200).
func postPatch(t *testing.T, s *mockserver.Server, u, aspect, doc string) error {
	t.Helper()
	body, err := json.Marshal(map[string]any{"proposal": map[string]any{
		"entityType": "dataset", "entityUrn": u, "changeType": "PATCH", "aspectName": aspect,
		"aspect": map[string]string{"value": doc, "contentType": "application/json-patch+json"}}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(s.URL()+"/aspects?action=ingestProposal", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct{ Message string }
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode == http.StatusOK {
		return nil
	}
	return &datahub.Error{StatusCode: resp.StatusCode, Message: answer.Message}
}

// TestPatchConditionsAndAsync: a PATCH honours If-Version-Match like any
// write, and an async PATCH is applied when it falls due, to the value
// current then.
func TestPatchConditionsAndAsync(t *testing.T) {
	t.Parallel()
	ds := mustURN(urn.NewDataset("hive", "db.orders", "PROD"))
	tags := func(names ...string) *aspects.GlobalTags {
		g := &aspects.GlobalTags{Tags: []aspects.TagAssociation{}}
		for _, n := range names {
			g.Tags = append(g.Tags, aspects.TagAssociation{Tag: "urn:li:tag:" + n})
		}
		return g
	}
	addTag := func(name, ifVersion string) *patch.Dataset {
		d := patch.NewDataset(ds)
		d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:" + name})
		if ifVersion != "" {
			d.SetHeader("If-Version-Match", ifVersion)
		}
		return d
	}
	t.Run("If-Version-Match", func(t *testing.T) {
		t.Parallel()
		s, rest := startPatch(t)
		if err := s.PutAspect(ds.String(), tags("pii")); err != nil {
			t.Fatal(err)
		}
		wantStatus(t, emitPatch(t, rest, addTag("stale", "7")), 412, "Expected version 7, actual version 1")
		if err := emitPatch(t, rest, addTag("gold", "1")); err != nil {
			t.Fatalf("patch at the current version: %v", err)
		}
		s.CheckAspect(t, ds.String(), tags("pii", "gold"))
		wantStatus(t, emitPatch(t, rest, addTag("late", "1")), 412, "Expected version 1, actual version 2")
		s.CheckAspect(t, ds.String(), tags("pii", "gold"))
	})
	t.Run("async", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t, mockserver.WithClock(func() time.Time { return patchEpoch }), mockserver.WithAsyncLag(time.Minute))
		async, err := emitter.NewREST(s.URL(), emitter.WithEmitMode(emitter.EmitAsync))
		if err != nil {
			t.Fatal(err)
		}
		if err := emitPatch(t, async, addTag("gold", "")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetAspectJSON(ds.String(), "globalTags", 0); !errors.Is(err, datahub.ErrNotFound) {
			t.Fatalf("async patch visible before its lag: %v", err)
		}
		if err := s.PutAspect(ds.String(), tags("pii")); err != nil {
			t.Fatal(err)
		}
		s.FastForward(time.Minute)
		s.CheckAspect(t, ds.String(), tags("pii", "gold"))
	})
}

// TestPatchEnvelopeUnknownMember: GMS binds the envelope form to
// GenericJsonPatch with Jackson's defaults, which refuse any member it does
// not know: a misspelt "arrayPrimaryKeys" (or a "from" in one of its
// operations) is refused, not ignored, and nothing is written.
func TestPatchEnvelopeUnknownMember(t *testing.T) {
	t.Parallel()
	s, rest := startPatch(t)
	ds := mustURN(urn.NewDataset("hive", "db.orders", "PROD"))
	for _, tt := range []struct{ aspect, doc, member string }{
		{"globalTags", `{"patch":[{"op":"add","path":"/tags/urn:li:tag:pii","value":{"tag":"urn:li:tag:pii"}}],"arrayPrimaryKey":{"tags":["tag"]}}`,
			`Unrecognized field "arrayPrimaryKey" (class com.linkedin.metadata.aspect.patch.GenericJsonPatch)`},
		{"institutionalMemory", `{"patch":[{"op":"copy","from":"/a","path":"/b"}],"forceGenericPatch":true}`,
			`Unrecognized field "from" (class com.linkedin.metadata.aspect.patch.GenericJsonPatch$PatchOp)`},
	} {
		err := rest.Emit(context.Background(), rawPatch(ds, tt.aspect, tt.doc))
		wantStatus(t, err, 400, tt.member)
		if _, err := s.GetAspectJSON(ds.String(), tt.aspect, 0); !errors.Is(err, datahub.ErrNotFound) {
			t.Errorf("%s after a refused patch: %v, want ErrNotFound", tt.aspect, err)
		}
	}
}
