package mockserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
)

func TestPutAndGetAspect(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	want := aspects.DatasetProperties{Description: aspects.Ptr("daily <orders>"), CustomProperties: map[string]string{"team": "core"}}
	if err := s.PutAspect(dsURN, want); err != nil {
		t.Fatal(err)
	}
	// Typed read, pointer or value comparison.
	got, err := s.GetAspect(dsURN, "datasetProperties")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("GetAspect (-want +got):\n%s", diff)
	}
	s.CheckAspect(t, dsURN, want)
	s.CheckAspect(t, dsURN, &want)
	// The same value over HTTP, and the key aspect written with it.
	if body, status := aspectJSON(t, s, dsPath, "datasetProperties", 0); status != 200 || !strings.Contains(body, `"team":"core"`) {
		t.Errorf("over HTTP: %d %s", status, body)
	}
	if _, status := aspectJSON(t, s, dsPath, "datasetKey", 0); status != 200 {
		t.Errorf("key aspect not written: %d", status)
	}
	// Raw JSON, versions.
	if err := s.PutAspectJSON(dsURN, "datasetProperties", json.RawMessage(`{"description": "v2"}`)); err != nil {
		t.Fatal(err)
	}
	for v, want := range map[int64]string{0: `{"description":"v2"}`, 1: `"description":"daily <orders>"`} {
		raw, err := s.GetAspectJSON(dsURN, "datasetProperties", v)
		if err != nil || !strings.Contains(string(raw), want) {
			t.Errorf("version %d = %s, %v; want %s", v, raw, err, want)
		}
	}
	// Untyped aspects go in as JSON and come back unchanged.
	if err := s.PutAspectJSON(dsURN, "subTypes", json.RawMessage(`{"typeNames": ["View"]}`)); err != nil {
		t.Fatal(err)
	}
	if raw, _ := s.GetAspectJSON(dsURN, "subTypes", 0); string(raw) != `{"typeNames":["View"]}` {
		t.Errorf("subTypes = %s", raw)
	}
	if n := len(s.Proposals()); n != 0 {
		t.Errorf("direct writes recorded as proposals: %d", n)
	}
}

func TestPutAspectErrors(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tests := []struct {
		name   string
		urn    string
		aspect aspects.Aspect
		raw    string
		status int
		is     error
	}{
		{"bad urn", "urn:li:dataset:x", aspects.Status{}, "", 400, datahub.ErrValidation},
		{"aspect of another entity", "urn:li:mlFeature:(ns,f)", aspects.DatasetProperties{}, "", 422, datahub.ErrValidation},
		{"schema violation", dsURN, nil, `{"description": 1}`, 422, datahub.ErrValidation},
		{"not an object", dsURN, nil, `[]`, 400, datahub.ErrValidation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.aspect != nil {
				err = s.PutAspect(tt.urn, tt.aspect)
			} else {
				err = s.PutAspectJSON(tt.urn, "datasetProperties", json.RawMessage(tt.raw))
			}
			var de *datahub.Error
			if !errors.As(err, &de) || de.StatusCode != tt.status || !errors.Is(err, tt.is) {
				t.Errorf("err = %v, want a *datahub.Error with status %d", err, tt.status)
			}
		})
	}
	if err := s.PutAspect(dsURN, nil); err == nil {
		t.Error("nil aspect accepted")
	}
	if got := storeRows(t, s); len(got) != 0 {
		t.Errorf("state changed: %v", got)
	}
	if _, err := s.GetAspect(dsURN, "status"); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("GetAspect of a missing aspect: %v, want ErrNotFound", err)
	}
}

// recordingTB captures CheckAspect's failures.
type recordingTB struct {
	testing.TB
	errs []string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestCheckAspectReportsDiff(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	if err := s.PutAspect(dsURN, aspects.DatasetProperties{Description: aspects.Ptr("got")}); err != nil {
		t.Fatal(err)
	}
	tb := &recordingTB{TB: t}
	s.CheckAspect(tb, dsURN, aspects.DatasetProperties{Description: aspects.Ptr("want")})
	s.CheckAspect(tb, dsURN, aspects.Status{Removed: true})
	if len(tb.errs) != 2 || !strings.Contains(tb.errs[0], "(-want +got)") || !strings.Contains(tb.errs[0], `"got"`) ||
		!strings.Contains(tb.errs[1], "404") {
		t.Errorf("CheckAspect failures = %q", tb.errs)
	}
}

func TestProposalsAndReset(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithFault(Fail(OpGetEntity, FailSpec{Status: 500, Times: Forever})))
	p := map[string]any{"entityType": "mlFeature", "changeType": "UPSERT", "aspectName": "status",
		"entityKeyAspect": map[string]any{"value": `{"featureNamespace": "ns", "name": "f"}`, "contentType": "application/json"},
		"aspect":          map[string]any{"value": `{"removed": false}`, "contentType": "application/json"},
		"systemMetadata":  map[string]any{"runId": "r1"},
		"headers":         map[string]string{"X-Custom": "1"}}
	ingest(t, s, p)
	serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", batchBody(t, mcp("dataset", dsURN, "UPSERT", "foo", `{}`)))
	got := s.Proposals()
	want := []Proposal{
		{EntityType: "mlFeature", ChangeType: "UPSERT", AspectName: "status", EntityURN: "urn:li:mlFeature:(ns,f)",
			EntityKeyAspect: json.RawMessage(`{"featureNamespace": "ns", "name": "f"}`), Aspect: json.RawMessage(`{"removed": false}`),
			ContentType: "application/json", SystemMetadata: json.RawMessage(`{"runId":"r1"}`), Headers: map[string]string{"X-Custom": "1"}},
		{EntityType: "dataset", ChangeType: "UPSERT", AspectName: "foo", EntityURN: dsURN, Aspect: json.RawMessage(`{}`),
			ContentType: "application/json", Batch: true, Err: "1 of 1 proposals are invalid, nothing was written: [0] Unknown aspect foo for entity dataset"},
	}
	if diff := cmp.Diff(want, got, cmp.Transformer("json", func(m json.RawMessage) string { return string(m) })); diff != "" {
		t.Errorf("Proposals (-want +got):\n%s", diff)
	}
	// Copies: changing them changes nothing.
	got[0].Headers["X-Custom"] = "2"
	got[0].Aspect[0] = '['
	if again := s.Proposals(); again[0].Headers["X-Custom"] != "1" || again[0].Aspect[0] != '{' {
		t.Error("Proposals returned shared memory")
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if len(s.Proposals()) != 0 || len(storeRows(t, s)) != 0 || len(s.RequestCounts()) != 0 {
		t.Error("Reset left state behind")
	}
	if r := serve(t, s, http.MethodGet, "/entitiesV2/"+dsPath, ""); r.Status != 200 {
		t.Errorf("fault survived Reset: %d", r.Status)
	}
}
