package mockserver

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const actorDS = "urn:li:dataset:(urn:li:dataPlatform:hive,db.actor,PROD)"

// stampedRow is what a write stamps on the latest row of an aspect.
type stampedRow struct {
	CreatedBy      string
	CreatedActor   string // systemMetadata.aspectCreated.actor
	ModifiedActor  string // systemMetadata.aspectModified.actor
	ModifiedTime   int64
	CreatedTime    int64
	Version        string
	EventSource    string
	SourceIP       string
	TelemetryTrace string
	Other          map[string]string // the other properties
}

func latestRow(t *testing.T, s *Server, urn, aspect string) stampedRow {
	t.Helper()
	for _, a := range storeRows(t, s) {
		if a.URN != urn || a.Name != aspect || a.Version != 0 {
			continue
		}
		var sm struct {
			AspectCreated, AspectModified *struct {
				Time  int64
				Actor string
			}
			Version    string
			Properties map[string]string
		}
		if err := json.Unmarshal(a.SystemMetadata, &sm); err != nil {
			t.Fatal(err)
		}
		r := stampedRow{CreatedBy: a.CreatedBy, Version: sm.Version, Other: map[string]string{}}
		if c := sm.AspectCreated; c != nil {
			r.CreatedActor, r.CreatedTime = c.Actor, c.Time
		}
		if m := sm.AspectModified; m != nil {
			r.ModifiedActor, r.ModifiedTime = m.Actor, m.Time
		}
		for k, v := range sm.Properties {
			switch k {
			case "eventSource":
				r.EventSource = v
			case "sourceIP":
				r.SourceIP = v
			case "telemetryTraceId":
				r.TelemetryTrace = v
			default:
				r.Other[k] = v
			}
		}
		return r
	}
	t.Fatalf("no row %s %s", urn, aspect)
	return stampedRow{}
}

// traceOf is the trace id of a traceparent header ("" when none).
func traceOf(r response) string {
	parts := strings.Split(r.Header.Get("traceparent"), "-")
	if len(parts) != 4 {
		return ""
	}
	return parts[1]
}

// apiWrites are one write through each adapter; each returns its answer.
var apiWrites = []struct {
	name, api string
	aspect    string // the aspect written
	write     func(t *testing.T, s *Server, desc string, header ...string) response
}{
	{"restli", "", "editableDatasetProperties", func(t *testing.T, s *Server, desc string, header ...string) response {
		return serve(t, s, "POST", "/aspects?action=ingestProposal", ingestBody(t, mcp("dataset", actorDS, "UPSERT",
			"editableDatasetProperties", `{"description":"`+desc+`"}`), ""), header...)
	}},
	{"openapi", "OPENAPI", "editableDatasetProperties", func(t *testing.T, s *Server, desc string, header ...string) response {
		return serve(t, s, "POST", "/openapi/v3/entity/dataset/"+url.PathEscape(actorDS)+"/editableDatasetProperties?async=false&createIfNotExists=false",
			`{"value":{"description":"`+desc+`"},"systemMetadata":{"properties":{"clientId":"test"}}}`, header...)
	}},
	{"graphql", "GRAPHQL", "deprecation", func(t *testing.T, s *Server, desc string, header ...string) response {
		return serve(t, s, "POST", "/api/graphql", `{"query":"mutation { updateDeprecation(input: {note: \"`+desc+
			`\", urn: \"`+actorDS+`\", deprecated: true}) }"}`, header...)
	}},
}

// TestWriteActor: a write through every adapter is the request's actor's,
// as GMS's authentication gives it: the bearer token's with authentication
// on, X-DataHub-Actor's or the system actor's with it off; aspectCreated
// and aspectModified carry a non-system actor, and the rows' createdBy the
// actor.
func TestWriteActor(t *testing.T) {
	t.Parallel()
	auths := []struct {
		name   string
		opts   []Option
		header []string
		actor  string
	}{
		{"token", []Option{WithToken("tok")}, []string{"Authorization", "Bearer tok"}, "urn:li:corpuser:datahub"},
		{"actor header", nil, []string{"X-DataHub-Actor", "urn:li:corpuser:jdoe"}, "urn:li:corpuser:jdoe"},
		{"auth off, token ignored", nil, []string{"Authorization", "Bearer tok"}, "urn:li:corpuser:__datahub_system"},
		{"anonymous", nil, nil, "urn:li:corpuser:__datahub_system"},
	}
	for _, a := range auths {
		for _, w := range apiWrites {
			t.Run(a.name+"/"+w.name, func(t *testing.T) {
				t.Parallel()
				s := newServer(t, a.opts...)
				ingest := serve(t, s, "POST", "/aspects?action=ingestProposal", ingestBody(t, mcp("dataset", actorDS, "UPSERT",
					"status", `{"removed":false}`), ""), a.header...)
				if ingest.Status != 200 {
					t.Fatalf("seed: %d %s", ingest.Status, ingest.Body)
				}
				r := w.write(t, s, "d1", a.header...)
				if r.Status >= 300 || strings.Contains(r.Body, `"errors"`) {
					t.Fatalf("write: %d %s", r.Status, r.Body)
				}
				got := latestRow(t, s, actorDS, w.aspect)
				want := stampedRow{CreatedBy: a.actor, Version: "1", CreatedTime: got.CreatedTime, ModifiedTime: got.ModifiedTime,
					Other: got.Other}
				if a.actor != "urn:li:corpuser:__datahub_system" {
					want.CreatedActor, want.ModifiedActor = a.actor, a.actor
					if got.ModifiedTime == 0 || got.CreatedTime != got.ModifiedTime {
						t.Errorf("aspectCreated time %d, aspectModified time %d: want equal, not 0", got.CreatedTime, got.ModifiedTime)
					}
				}
				if w.api != "" {
					want.EventSource, want.SourceIP, want.TelemetryTrace = w.api, "192.0.2.1", traceOf(r)
					if want.TelemetryTrace == "" {
						t.Error("no traceparent answered")
					}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("row (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestWriteActorRefused: a request GMS's authentication refuses is 401 and
// writes nothing: a token the server does not know with authentication on,
// an X-DataHub-Actor that is not a URN with it off (an anonymous request).
func TestWriteActorRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		opts   []Option
		header []string
	}{
		{"unknown token", []Option{WithToken("tok")}, []string{"Authorization", "Bearer other"}},
		{"actor header with auth on is no credential", []Option{WithToken("tok")}, []string{"X-DataHub-Actor", "urn:li:corpuser:jdoe"}},
		{"actor header not a URN", nil, []string{"X-DataHub-Actor", "jdoe"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, tc.opts...)
			for _, w := range apiWrites {
				if r := w.write(t, s, "d", tc.header...); r.Status != 401 {
					t.Errorf("%s: %d %s, want 401", w.name, r.Status, r.Body)
				}
			}
			if rows := storeRows(t, s); len(rows) != 0 {
				t.Errorf("%d rows written", len(rows))
			}
		})
	}
}

// TestWriteTelemetryUpdate: an update keeps the first version's
// aspectCreated and the stored properties, and takes the new write's
// aspectModified and, in a traced request, its telemetry properties (GMS
// forces them on the latest row); a Rest.li update, untraced, leaves them.
func TestWriteTelemetryUpdate(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	s := newServer(t, WithToken("tok"), WithClock(clock.Now))
	auth := []string{"Authorization", "Bearer tok"}
	openapi, restli := apiWrites[1], apiWrites[0]
	first := openapi.write(t, s, "d1", auth...)
	one := latestRow(t, s, actorDS, "editableDatasetProperties")
	clock.Advance(time.Second)
	second := openapi.write(t, s, "d2", "Authorization", "Bearer tok", "X-Forwarded-For", "203.0.113.9")
	two := latestRow(t, s, actorDS, "editableDatasetProperties")
	if traceOf(first) == traceOf(second) {
		t.Fatal("two requests with one trace id")
	}
	want := stampedRow{CreatedBy: "urn:li:corpuser:datahub", CreatedActor: "urn:li:corpuser:datahub", CreatedTime: one.CreatedTime,
		ModifiedActor: "urn:li:corpuser:datahub", ModifiedTime: one.ModifiedTime + 1000, Version: "2",
		EventSource: "OPENAPI", SourceIP: "203.0.113.9", TelemetryTrace: traceOf(second), Other: map[string]string{"clientId": "test"}}
	if diff := cmp.Diff(want, two); diff != "" {
		t.Errorf("after an OpenAPI update (-want +got):\n%s", diff)
	}
	clock.Advance(time.Second)
	restli.write(t, s, "d3", auth...)
	three := latestRow(t, s, actorDS, "editableDatasetProperties")
	want.Version, want.ModifiedTime = "3", one.ModifiedTime+2000
	if diff := cmp.Diff(want, three); diff != "" {
		t.Errorf("after a Rest.li update (-want +got):\n%s", diff)
	}
}

// TestMutationStampActor: the audit stamps a GraphQL mutation writes into
// its values are the request's actor's; a request of the system actor
// (no authentication, no X-DataHub-Actor) stamps the mock's UI user,
// urn:li:corpuser:datahub.
func TestMutationStampActor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		opts   []Option
		header []string
		actor  string
	}{
		{"token", []Option{WithToken(testDataHubToken("alice"))}, []string{"Authorization", "Bearer " + testDataHubToken("alice")}, "urn:li:corpuser:alice"},
		{"actor header", nil, []string{"X-DataHub-Actor", "urn:li:corpuser:jdoe"}, "urn:li:corpuser:jdoe"},
		{"system actor", nil, nil, "urn:li:corpuser:datahub"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, tc.opts...)
			if r := serve(t, s, "POST", "/aspects?action=ingestProposal", ingestBody(t, mcp("dataset", actorDS, "UPSERT",
				"status", `{"removed":false}`), ""), tc.header...); r.Status != 200 {
				t.Fatalf("seed: %d %s", r.Status, r.Body)
			}
			if r := apiWrites[2].write(t, s, "old", tc.header...); strings.Contains(r.Body, `"errors"`) {
				t.Fatalf("updateDeprecation: %s", r.Body)
			}
			var dep struct{ Actor string }
			for _, a := range storeRows(t, s) {
				if a.URN == actorDS && a.Name == "deprecation" && a.Version == 0 {
					if err := json.Unmarshal(a.Value, &dep); err != nil {
						t.Fatal(err)
					}
				}
			}
			if dep.Actor != tc.actor {
				t.Errorf("deprecation.actor = %q, want %q", dep.Actor, tc.actor)
			}
		})
	}
}

// testDataHubToken is a token of the shape of DataHub's whose claims name
// actorID.
func testDataHubToken(actorID string) string {
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(`{"alg":"HS256"}`)) + "." +
		enc.EncodeToString([]byte(`{"actorType":"USER","actorId":"`+actorID+`","type":"PERSONAL","version":"2"}`)) + ".c2ln"
}
