package mockserver

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/openapi"
	"github.com/google/go-cmp/cmp"
)

// TestV3WriteSystemMetadataSpelling: an OpenAPI write's systemMetadata
// means the same however it is spelt: with white space, or with a repeated
// member (the last wins), it is stored as its compact form is, through the
// batch and the single-aspect routes alike; one that is no object is
// refused with the same answer.
func TestV3WriteSystemMetadataSpelling(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, compact, spelt string }{
		{"white space", `{"runId":"r1","lastObserved":5,"properties":{"a":"b c"}}`,
			" {\n\t\"runId\" : \"r1\" ,\r\n \"lastObserved\": 5, \"properties\" : { \"a\" : \"b c\" } } "},
		{"repeated member", `{"runId":"r2","lastObserved":6}`,
			`{"runId":"r1", "lastObserved":6,"runId":"r2"}`},
		{"escaped key", `{"runId":"r1","lastObserved":7}`,
			`{"run\u0049d":"r1", "lastObserved":7}`},
		{"not an object", `[1]`, `[ 1 ]`},
		{"string", `"x"`, ` "x" `},
		{"bad lastObserved", `{"lastObserved":"x"}`, `{ "lastObserved" : "x" }`},
	}
	routes := []struct {
		name string
		body func(urn, sm string) (method, path, body string)
	}{
		{"batch", func(urn, sm string) (string, string, string) {
			return "POST", "/openapi/v3/entity/dataset?async=false",
				`[{"urn":"` + urn + `","status":{"value":{"removed":false},"systemMetadata":` + sm + `}}]`
		}},
		{"single aspect", func(urn, sm string) (string, string, string) {
			return "POST", "/openapi/v3/entity/dataset/" + url.PathEscape(urn) + "/status?async=false&createIfNotExists=false",
				`{"value":{"removed":false},"systemMetadata":` + sm + `}`
		}},
	}
	for _, tc := range tests {
		for _, rt := range routes {
			t.Run(tc.name+"/"+rt.name, func(t *testing.T) {
				t.Parallel()
				clock := newFakeClock()
				s := newServer(t, WithClock(clock.Now))
				answer := func(urn, sm string) string {
					method, path, body := rt.body(urn, sm)
					r := serve(t, s, method, path, body)
					got := r.Body
					if r.Status < 300 {
						g := serve(t, s, "GET", "/openapi/v3/entity/dataset/"+url.PathEscape(urn)+"/status?systemMetadata=true", "")
						got = g.Body
					}
					return traceIDRE.ReplaceAllString(strings.ReplaceAll(got, urn, "<urn>"), "<trace>")
				}
				want := answer(v3DS, tc.compact)
				if got := answer(v3DS2, tc.spelt); got != want {
					t.Errorf("systemMetadata %s:\n got %s\nwant %s (as %s)", tc.spelt, got, want, tc.compact)
				}
			})
		}
	}
}

// TestV3WriteRecordsProposals: the proposals of OpenAPI writes are recorded
// as received: their systemMetadata as spelt, the batch ones with Batch and
// their index across the body's groups, the single-aspect one with neither,
// and those of a refused request with the refusal.
func TestV3WriteRecordsProposals(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	sm := `{ "runId" : "r1" }`
	steps := []struct{ method, path, body string }{
		{"POST", "/openapi/v3/entity/generic?async=false", `{"dataset":[{"urn":"` + v3DS + `","status":{"value":{"removed":false},"systemMetadata":` + sm + `}}],` +
			`"DataSet":[{"urn":"` + v3DS2 + `","status":{"value":{"removed":true}},"datasetKey":{"value":{"platform":"urn:li:dataPlatform:hive","name":"db.u","origin":"PROD"}}}]}`},
		{"POST", "/openapi/v3/entity/dataset/" + url.PathEscape(v3DS) + "/status?async=true&createIfNotExists=false",
			`{"value":{"removed":true},"systemMetadata":` + sm + `,"headers":{"If-Version-Match":"1"}}`},
		{"POST", "/openapi/v3/entity/dataset?async=false", `[{"urn":"` + v3DS + `","status":{"value":{"removed":false},"systemMetadata":{"lastObserved":"x"}}}]`},
	}
	var refusal string
	for i, st := range steps {
		r := serve(t, s, st.method, st.path, st.body)
		if i < 2 && r.Status >= 300 {
			t.Fatalf("%s %s = %d %s", st.method, st.path, r.Status, r.Body)
		}
		if i == 2 {
			var e struct{ Error, Message string }
			if err := json.Unmarshal([]byte(r.Body), &e); err != nil || r.Status < 400 {
				t.Fatalf("refused write = %d %s", r.Status, r.Body)
			}
			refusal = e.Error + ": " + e.Message
		}
	}
	status := func(removed string) json.RawMessage { return json.RawMessage(`{"removed":` + removed + `}`) }
	want := []Proposal{
		{EntityType: "dataset", ChangeType: "UPSERT", AspectName: "status", EntityURN: v3DS, Aspect: status("false"),
			ContentType: "application/json", SystemMetadata: json.RawMessage(sm), Batch: true},
		{EntityType: "dataset", ChangeType: "UPSERT", AspectName: "status", EntityURN: v3DS2, Aspect: status("true"),
			ContentType: "application/json", Batch: true, Index: 1},
		{EntityType: "dataset", ChangeType: "UPSERT", AspectName: "datasetKey", EntityURN: v3DS2,
			Aspect:      json.RawMessage(`{"platform":"urn:li:dataPlatform:hive","name":"db.u","origin":"PROD"}`),
			ContentType: "application/json", Batch: true, Index: 2},
		{EntityType: "dataset", ChangeType: "UPSERT", AspectName: "status", EntityURN: v3DS, Aspect: status("true"),
			ContentType: "application/json", SystemMetadata: json.RawMessage(sm), Headers: map[string]string{"If-Version-Match": "1"}, Async: true},
		{EntityType: "dataset", ChangeType: "UPSERT", AspectName: "status", EntityURN: v3DS, Aspect: status("false"),
			ContentType: "application/json", SystemMetadata: json.RawMessage(`{"lastObserved":"x"}`), Batch: true, Err: refusal},
	}
	if diff := cmp.Diff(want, s.Proposals()); diff != "" {
		t.Errorf("Proposals (-want +got):\n%s", diff)
	}
}

// TestV3PatchAnswersItsOwnWrite: the answer of a synchronous single-aspect
// PATCH is the aspect the PATCH wrote, even when another writer changes the
// aspect right after it (here at the core's next barrier): it is not read
// again. It failed before: the answer showed the other writer's tag.
func TestV3PatchAnswersItsOwnWrite(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	var core *gms.Core
	interleaved := false
	old := s.core
	t.Cleanup(func() { _ = old.Close() })
	core = gms.New(s.store, gms.Options{Follow: func() {
		a, err := s.store.Get(v3DS, "globalTags", 0)
		if interleaved || err != nil || !strings.Contains(string(a.Value), "urn:li:tag:mine") {
			return
		}
		interleaved = true // the PATCH is applied: another writer follows at once
		if err := core.Ingest(t.Context(), []gms.Proposal{{EntityType: "dataset", EntityURN: v3DS, ChangeType: "UPSERT",
			AspectName: "globalTags", ContentType: "application/json",
			Aspect: json.RawMessage(`{"tags":[{"tag":"urn:li:tag:theirs"}]}`)}}, gms.IngestOptions{}); err != nil {
			t.Error(err)
		}
	}})
	s.core = core
	s.openapi = openapi.New(core, openapi.Hooks{Clock: s.cfg.clock, Receive: s.receive})
	r := serve(t, s, "PATCH", "/openapi/v3/entity/dataset/"+url.PathEscape(v3DS)+"/globalTags?async=false",
		`{"patch":[{"op":"add","path":"/tags/urn:li:tag:mine","value":{"tag":"urn:li:tag:mine"}}]}`)
	if r.Status != 200 {
		t.Fatalf("PATCH: %d %s", r.Status, r.Body)
	}
	want := `{"urn":"` + v3DS + `","globalTags":{"value":{"tags":[{"tag":"urn:li:tag:mine"}]}}}`
	if diff := cmp.Diff(want, r.Body); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
	// The other writer writes at the next barrier at the latest.
	g := serve(t, s, "GET", "/openapi/v3/entity/dataset/"+url.PathEscape(v3DS)+"/globalTags", "")
	if !interleaved || !strings.Contains(g.Body, "urn:li:tag:theirs") {
		t.Errorf("no other writer followed the PATCH: %s", g.Body)
	}
}
