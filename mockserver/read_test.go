package mockserver

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestGetAspectVersions(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for _, d := range []string{"one", "two", "three"} {
		ingest(t, s, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description": "`+d+`"}`))
	}
	tests := []struct {
		version int
		status  int
		want    string
	}{
		{0, 200, `{"version":0,"aspect":{"com.linkedin.dataset.DatasetProperties":{"description":"three"}}}`},
		{1, 200, `{"version":1,"aspect":{"com.linkedin.dataset.DatasetProperties":{"description":"one"}}}`},
		{2, 200, `{"version":2,"aspect":{"com.linkedin.dataset.DatasetProperties":{"description":"two"}}}`},
		{3, 404, ``},
		{-1, 404, ``},
	}
	for _, tt := range tests {
		r := serve(t, s, http.MethodGet, "/aspects/"+dsPath+"?aspect=datasetProperties&version="+itoa(tt.version), "")
		if tt.status != 200 {
			e := wantRestliError(t, r, tt.status, "")
			if diff := cmp.Diff(restliErr{Status: 404, ExceptionClass: "com.linkedin.metadata.restli.NonExceptionHttpErrorResponse",
				StackTrace: "com.linkedin.metadata.restli.NonExceptionHttpErrorResponse [HTTP Status:404]\n\tat datahub-mock"}, e); diff != "" {
				t.Errorf("version %d: 404 body (-want +got):\n%s", tt.version, diff)
			}
			continue
		}
		if diff := cmp.Diff(response{Status: tt.status, Body: tt.want}, response{Status: r.Status, Body: r.Body}); diff != "" {
			t.Errorf("version %d (-want +got):\n%s", tt.version, diff)
		}
	}
	// No version parameter means the latest.
	if got, _ := aspectJSON(t, s, dsPath, "datasetProperties", 0); got != `{"description":"three"}` {
		t.Errorf("latest = %s", got)
	}
}

func TestGetAspectRequests(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	ingest(t, s, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`))
	tests := []struct {
		name   string
		target string
		status int
		msg    string
	}{
		{"fully encoded urn", "/aspects/" + dsPath + "?aspect=status&version=0", 200, ""},
		{"raw parentheses (docs form)", "/aspects/urn%3Ali%3Adataset%3A(urn%3Ali%3AdataPlatform%3Ahive%2Cdb.t%2CPROD)?aspect=status&version=0", 200, ""},
		{"front address", "/api/gms/aspects/" + dsPath + "?aspect=status", 200, ""},
		{"never written", "/aspects/urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cnone%2CPROD%29?aspect=status", 404, ""},
		{"bad urn", "/aspects/urn%3Ali%3Adataset%3Ax?aspect=status", 400, "Invalid urn: urn:li:dataset:x"},
		{"unknown aspect", "/aspects/" + dsPath + "?aspect=foo", 400, "Unknown aspect foo for entity dataset"},
		{"no aspect parameter", "/aspects/" + dsPath, 400, "The aspect query parameter is required"},
		{"bad version", "/aspects/" + dsPath + "?aspect=status&version=latest", 400, `ERROR :: /version :: "latest" cannot be coerced to Long`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := serve(t, s, http.MethodGet, tt.target, "")
			if tt.status == 200 {
				want := `{"version":0,"aspect":{"com.linkedin.common.Status":{"removed":false}}}`
				if diff := cmp.Diff(response{Status: 200, Body: want}, response{Status: r.Status, Body: r.Body}); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
				return
			}
			wantRestliError(t, r, tt.status, tt.msg)
		})
	}
}

func TestGetEntity(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	s := newServer(t, WithClock(clock.Now), WithDefaultAspects(false)) // the aspects written only
	ingest(t, s, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`))
	ingest(t, s, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description": "d"}`))
	ms := clock.Now().UnixMilli()
	sm := func(v string) json.RawMessage {
		return json.RawMessage(`{"lastObserved":` + itoa(int(ms)) + `,"schemaVersion":1,"version":"` + v + `"}`)
	}
	created := auditStamp{Time: ms, Actor: "urn:li:corpuser:__datahub_system"}
	key := envelopedAspect{Name: "datasetKey", Type: "VERSIONED", Value: json.RawMessage(`{"platform":"urn:li:dataPlatform:hive","name":"db.t","origin":"PROD"}`), Created: created, SystemMetadata: sm("1")}
	status := envelopedAspect{Name: "status", Type: "VERSIONED", Value: json.RawMessage(`{"removed":false}`), Created: created, SystemMetadata: sm("1")}
	props := envelopedAspect{Name: "datasetProperties", Type: "VERSIONED", Value: json.RawMessage(`{"description":"d"}`), Created: created, SystemMetadata: sm("1")}
	other := "urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD)"
	tests := []struct {
		name   string
		target string
		status int
		want   entityResponse
	}{
		{"all aspects", "/entitiesV2/" + dsPath, 200, entityResponse{EntityName: "dataset", URN: dsURN,
			Aspects: map[string]envelopedAspect{"datasetKey": key, "status": status, "datasetProperties": props}}},
		{"projection keeps the key", "/entitiesV2/" + dsPath + "?aspects=List(status)", 200, entityResponse{EntityName: "dataset", URN: dsURN,
			Aspects: map[string]envelopedAspect{"datasetKey": key, "status": status}}},
		{"projection without the key", "/api/gms/entitiesV2/" + dsPath + "?aspects=List(status,datasetProperties)&alwaysIncludeKeyAspect=false", 200,
			entityResponse{EntityName: "dataset", URN: dsURN, Aspects: map[string]envelopedAspect{"status": status, "datasetProperties": props}}},
		{"protocol 1.0 list", "/entitiesV2/" + dsPath + "?aspects=status&aspects=datasetProperties&alwaysIncludeKeyAspect=false", 200,
			entityResponse{EntityName: "dataset", URN: dsURN, Aspects: map[string]envelopedAspect{"status": status, "datasetProperties": props}}},
		{"never written: key synthesised", "/entitiesV2/urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cnone%2CPROD%29", 200,
			entityResponse{EntityName: "dataset", URN: other, Aspects: map[string]envelopedAspect{"datasetKey": {Name: "datasetKey", Type: "VERSIONED",
				Value:   json.RawMessage(`{"platform":"urn:li:dataPlatform:hive","name":"none","origin":"PROD"}`),
				Created: auditStamp{Actor: "urn:li:corpuser:__datahub_system"}}}}},
		{"never written without the key", "/entitiesV2/urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cnone%2CPROD%29?alwaysIncludeKeyAspect=false", 404, entityResponse{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := serve(t, s, http.MethodGet, tt.target, "")
			if tt.status != 200 {
				wantRestliError(t, r, tt.status, "")
				return
			}
			if r.Status != 200 {
				t.Fatalf("= %d %s", r.Status, r.Body)
			}
			var got entityResponse
			if err := json.Unmarshal([]byte(r.Body), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.Transformer("json", func(m json.RawMessage) string { return string(m) })); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("bad urn", func(t *testing.T) {
		t.Parallel()
		wantRestliError(t, serve(t, s, http.MethodGet, "/entitiesV2/urn%3Ali%3Adataset%3Ax", ""), 400, "Invalid urn")
	})
}

func TestDeleteEntity(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithDefaultAspects(false)) // the aspects written only
	ingest(t, s, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`))
	ingest(t, s, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": true}`))
	ingest(t, s, mcp("dataset", dsURN, "UPSERT", "datasetProfile", `{"timestampMillis": 1700000000000}`))
	r := serve(t, s, http.MethodPost, "/entities?action=delete", `{"urn":"`+dsURN+`"}`)
	want := `{"value":{"urn":"` + dsURN + `","rows":3,"timeseriesRows":1}}`
	if diff := cmp.Diff(response{Status: 200, Body: want}, response{Status: r.Status, Body: r.Body}); diff != "" {
		t.Errorf("delete (-want +got):\n%s", diff)
	}
	if body, status := aspectJSON(t, s, dsPath, "status", 0); status != 404 {
		t.Errorf("status after delete = %d %s", status, body)
	}
	// Deleting what does not exist succeeds with zero rows, as in GMS.
	r = serve(t, s, http.MethodPost, "/api/gms/entities?action=delete", `{"urn":"`+dsURN+`"}`)
	if want := `{"value":{"urn":"` + dsURN + `","rows":0,"timeseriesRows":0}}`; r.Status != 200 || r.Body != want {
		t.Errorf("second delete = %d %s", r.Status, r.Body)
	}
	for _, tt := range []struct{ body, msg string }{
		{`{}`, "Parameters of method 'delete' failed validation with error 'ERROR :: /urn :: field is required"},
		{`{"urn": 5}`, "ERROR :: /urn :: 5 cannot be coerced to String"},
		{`{"urn": "urn:li:dataset:x"}`, "Invalid urn"},
		{`{"urn"`, "Error parsing entity body"},
	} {
		wantRestliError(t, serve(t, s, http.MethodPost, "/entities?action=delete", tt.body), 400, tt.msg)
	}
	wantRestliError(t, serve(t, s, http.MethodPost, "/entities?action=delete", `{"urn":"`+dsURN+`","aspectName":"datasetProfile"}`), 501,
		"Deleting only the aspect datasetProfile")
}

func TestConfig(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithToken("secret"))
	for _, target := range []string{"/config", "/api/gms/config"} {
		r := serve(t, s, http.MethodGet, target, "")
		if r.Status != 200 {
			t.Fatalf("%s = %d %s", target, r.Status, r.Body)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(r.Body), &got); err != nil {
			t.Fatal(err)
		}
		if got["noCode"] != "true" {
			t.Errorf("%s noCode = %v, want the string \"true\"", target, got["noCode"])
		}
		versions, _ := got["versions"].(map[string]any)
		if v, _ := versions["acryldata/datahub"].(map[string]any); v["version"] != DefaultServerVersion {
			t.Errorf("%s versions = %v", target, got["versions"])
		}
	}
	if s.RequestCount(OpConfig) != 2 {
		t.Errorf("RequestCount(OpConfig) = %d, want 2", s.RequestCount(OpConfig))
	}
	_ = time.Now
}
