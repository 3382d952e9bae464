package mockserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGetTimeseriesAspectValues(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for _, ts := range []string{"1000", "3000", "2000"} {
		p := mcp("dataset", dsURN, "UPSERT", "datasetProfile", `{"timestampMillis": `+ts+`, "rowCount": `+ts+`}`)
		p["systemMetadata"] = map[string]any{"lastObserved": 5, "runId": "r"}
		ingest(t, s, p)
	}
	doc := func(ts string) string {
		return `{"aspect":{"value":"{\"timestampMillis\":` + ts + `,\"rowCount\":` + ts + `}","contentType":"application/json"},` +
			`"systemMetadata":{"lastObserved":5,"runId":"r","schemaVersion":1}}`
	}
	tests := []struct {
		name, body, want string
	}{
		{"all, newest first", `{"urn":"` + dsURN + `","entity":"dataset","aspect":"datasetProfile"}`,
			`{"value":{"entityName":"dataset","aspectName":"datasetProfile","values":[` + doc("3000") + `,` + doc("2000") + `,` + doc("1000") + `]}}`},
		{"range and limit as the Python client sends them", `{"urn":"` + dsURN + `","entity":"dataset","aspect":"datasetProfile","startTimeMillis":1500,"endTimeMillis":3000,"limit":1,"filter":{"or":[{"and":[]}]}}`,
			`{"value":{"entityName":"dataset","aspectName":"datasetProfile","startTimeMillis":1500,"endTimeMillis":3000,"limit":1,"values":[` + doc("3000") + `]}}`},
		{"latest value", `{"urn":"` + dsURN + `","entity":"dataset","aspect":"datasetProfile","latestValue":true}`,
			`{"value":{"entityName":"dataset","aspectName":"datasetProfile","values":[` + doc("3000") + `]}}`},
		{"nothing", `{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD)","entity":"dataset","aspect":"operation"}`,
			`{"value":{"entityName":"dataset","aspectName":"operation","values":[]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := serve(t, s, http.MethodPost, "/api/gms/aspects?action=getTimeseriesAspectValues", tt.body)
			if diff := cmp.Diff(response{Status: 200, Body: tt.want}, response{Status: r.Status, Body: r.Body}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	for _, tt := range []struct {
		body   string
		status int
		msg    string
	}{
		{`{"entity":"dataset","aspect":"datasetProfile"}`, 400, "ERROR :: /urn :: field is required"},
		{`{"urn":"x","entity":"dataset","aspect":"datasetProfile"}`, 400, "Invalid urn"},
		{`{"urn":"` + dsURN + `","entity":"dataset","aspect":"status"}`, 400, "Aspect status is not a timeseries aspect"},
		{`{"urn":"` + dsURN + `","entity":"dataset","aspect":"foo"}`, 400, "Unknown aspect foo for entity dataset"},
		{`{"urn":"` + dsURN + `","entity":"dataset","aspect":"datasetProfile","limit":"x"}`, 400, "Error parsing entity body"},
		{`{"urn":"` + dsURN + `","entity":"dataset","aspect":"datasetProfile","filter":{"or":[{"and":[{"field":"x","value":"y"}]}]}}`, 501, "Filters with criteria"},
	} {
		wantRestliError(t, serve(t, s, http.MethodPost, "/aspects?action=getTimeseriesAspectValues", tt.body), tt.status, tt.msg)
	}
	if n := s.RequestCount(OpGetTimeseries); n < 6 {
		t.Errorf("RequestCount(OpGetTimeseries) = %d, want at least 6", n)
	}
}

func TestGetCount(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for _, name := range []string{"a", "b", "c_1"} {
		ingest(t, s, mcp("dataset", "urn:li:dataset:(urn:li:dataPlatform:hive,"+name+",PROD)", "UPSERT", "status", `{"removed": false}`))
	}
	ingest(t, s, mcp("dataset", "urn:li:dataset:(urn:li:dataPlatform:kafka,a,PROD)", "UPSERT", "status", `{"removed": false}`))
	for _, tt := range []struct{ body, want string }{
		{`{"aspect":"status"}`, `{"value":4}`},
		{`{"aspect":"status","urnLike":"urn:li:dataset:(urn:li:dataPlatform:hive,%"}`, `{"value":3}`},
		{`{"aspect":"status","urnLike":"%,_,PROD)"}`, `{"value":3}`},
		{`{"aspect":"datasetProperties"}`, `{"value":0}`},
	} {
		r := serve(t, s, http.MethodPost, "/aspects?action=getCount", tt.body)
		if diff := cmp.Diff(response{Status: 200, Body: tt.want}, response{Status: r.Status, Body: r.Body}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.body, diff)
		}
	}
	wantRestliError(t, serve(t, s, http.MethodPost, "/aspects?action=getCount", `{}`), 400, "ERROR :: /aspect :: field is required")
	wantRestliError(t, serve(t, s, http.MethodPost, "/aspects?action=getCount", `{"aspect":"nope"}`), 400, "Unknown aspect nope")
}

// TestGetCountHugePattern is a reviewer's probe: a 3 MB urnLike of % once
// panicked compiling a regular expression.
func TestGetCountHugePattern(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	ingest(t, s, mcp("dataset", "urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)", "UPSERT", "status", `{"removed": false}`))
	for _, tt := range []struct{ pattern, want string }{
		{strings.Repeat("%", 3_000_000), `{"value":1}`},
		{strings.Repeat("_", 3_000_000), `{"value":0}`},
		{strings.Repeat("(%", 1_000_000), `{"value":0}`},
	} {
		r := serve(t, s, http.MethodPost, "/aspects?action=getCount", `{"aspect":"status","urnLike":"`+tt.pattern+`"}`)
		if diff := cmp.Diff(response{Status: 200, Body: tt.want}, response{Status: r.Status, Body: r.Body}); diff != "" {
			t.Errorf("pattern %.8s... (-want +got):\n%s", tt.pattern, diff)
		}
	}
}
