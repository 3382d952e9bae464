package mockserver

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestControlAPI(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithControl(true), WithToken("tok"))
	auth := []string{"Authorization", "Bearer tok"}
	ok := func(method, target, body string) string {
		t.Helper()
		r := serve(t, s, method, target, body, auth...)
		if r.Status != 200 {
			t.Fatalf("%s %s = %d %s", method, target, r.Status, r.Body)
		}
		return r.Body
	}
	if r := serve(t, s, http.MethodPost, ControlPrefix+"/reset", ""); r.Status != 401 {
		t.Errorf("control without a token = %d", r.Status)
	}
	ok(http.MethodPost, ControlPrefix+"/faults", `{"op":"ingestProposal","times":1,"status":503,"retryAfterSeconds":2}`)
	body := ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`), "false")
	r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", body, auth...)
	if r.Status != 503 || r.Header.Get("Retry-After") != "2" {
		t.Errorf("faulted request = %d Retry-After %q", r.Status, r.Header.Get("Retry-After"))
	}
	ingestWith := serve(t, s, http.MethodPost, "/api/gms/aspects?action=ingestProposal", body, auth...)
	if ingestWith.Status != 200 {
		t.Fatalf("ingest = %d %s", ingestWith.Status, ingestWith.Body)
	}
	serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", `{"proposal":{"entityType":"dataset","entityUrn":"`+dsURN+
		`","changeType":"UPSERT","aspectName":"status","aspect":{"value":"{not json","contentType":"application/json"}}}`, auth...)

	var props struct{ Value []map[string]any }
	if err := json.Unmarshal([]byte(ok(http.MethodGet, ControlPrefix+"/proposals", "")), &props); err != nil {
		t.Fatal(err)
	}
	if len(props.Value) != 2 || props.Value[0]["entityUrn"] != dsURN || props.Value[1]["aspect"] != "{not json" {
		t.Errorf("proposals = %v", props.Value)
	}
	if diff := cmp.Diff(`{"value":{"ingestProposal":3}}`, ok(http.MethodGet, ControlPrefix+"/requests", "")); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	ok(http.MethodPost, ControlPrefix+"/faults", `{"op":"*","times":"forever","delayMillis":1}`)
	ok(http.MethodDelete, ControlPrefix+"/faults", "")
	ok(http.MethodPost, ControlPrefix+"/reset", "")
	if got := storeRows(t, s); len(got) != 0 || len(s.Proposals()) != 0 {
		t.Errorf("reset left state: %v", got)
	}
	for _, tt := range []struct {
		method, target, body string
		status               int
		msg                  string
	}{
		{http.MethodPost, ControlPrefix + "/faults", `{"times":1}`, 400, `Fault member "op" is required: one of [ingestProposal`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"nope"}`, 400, `Invalid fault member "op": op must be one of [ingestProposal ingestProposalBatch `},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":`, 400, "A fault must be a JSON object with the members op, times, status"},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":1,"times":"forever"}`, 400, `Member "times" is given more than once`},
		{http.MethodPost, ControlPrefix + "/index", `{"paused":true,"paused":false}`, 400, `Member "paused" is given more than once`},
		{http.MethodPost, ControlPrefix + "/faults", `[{"op":"config"}]`, 400, "A fault must be a JSON object"},
		// Defect 11: each of these was accepted.
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","time":1,"status":503}`, 400, `Unknown fault member "time"; the members are op, times, status`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","status":503}`, 400, `Fault member "times" is required: a positive count or "forever"`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":0,"status":503}`, 400, `Invalid fault member "times": times must be a positive count or "forever", not 0`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":-1,"status":503}`, 400, `Invalid fault member "times": times must be a positive count or "forever", not -1`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":1.5,"status":503}`, 400, `Fault member "times" must be an integer or "forever", not 1.5`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":"always","status":503}`, 400, `Fault member "times" must be an integer or "forever", not "always"`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":1,"status":200}`, 400, `Invalid fault member "status": status must be an error status (400 to 599), not 200`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":1,"status":7}`, 400, "not 7"},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":1,"status":"503"}`, 400, `Fault member "status" must be an integer, not "503"`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":1,"delayMillis":1e12}`, 400, `Invalid fault member "delayMillis": must be between 0 and 600000 (10m0s), not 1e12`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":1,"delayMillis":-5}`, 400, `Invalid fault member "delayMillis"`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":1,"status":503,"retryAfterSeconds":1e12}`, 400, `Invalid fault member "retryAfterSeconds": must be between 0 and 600 (10m0s)`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":1,"retryAfterSeconds":1}`, 400, `Invalid fault member "retryAfterSeconds": retryAfterSeconds needs a status to go with`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":1}`, 400, `Invalid fault member "status": status is 0 and none of drop, commitThenDrop or delayMillis is set: the fault does nothing`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":1,"drop":true,"commitThenDrop":true}`, 400, `Invalid fault member "drop": drop and commitThenDrop exclude each other`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":1,"status":503,"drop":true}`, 400, `Invalid fault member "status": status excludes drop and commitThenDrop`},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","times":1,"drop":"yes"}`, 400, `Fault member "drop" must be true or false, not "yes"`},
		{http.MethodGet, ControlPrefix + "/nothing", ``, 404, "No control route GET /__datahub_mock/nothing"},
	} {
		wantRestliError(t, serve(t, s, tt.method, tt.target, tt.body, auth...), tt.status, tt.msg)
	}
	// A refused fault installs nothing.
	if r := serve(t, s, http.MethodGet, "/config", ""); r.Status != 200 {
		t.Errorf("after refused faults /config = %d %s", r.Status, r.Body)
	}
	// Without WithControl the prefix is an unknown GMS resource.
	plain := newServer(t)
	wantRestliError(t, serve(t, plain, http.MethodPost, ControlPrefix+"/reset", ""), 404, "No root resource defined for path '/__datahub_mock'")
}

func TestControlClock(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := newServer(t, WithControl(true), WithClock(func() time.Time { return t0 }), WithAsyncLag(time.Minute))
	r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
		ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed":true}`), "true"))
	if r.Status != 200 {
		t.Fatalf("async write = %d %s", r.Status, r.Body)
	}
	for _, tt := range []struct {
		method, body, want string
	}{
		{http.MethodGet, "", `{"value":"2026-01-02T03:04:05Z"}`},
		{http.MethodPost, `{"fastForwardMillis":60000}`, `{"value":"2026-01-02T03:05:05Z"}`},
		{http.MethodPost, `{"time":"2027-01-01T00:00:00.5Z"}`, `{"value":"2027-01-01T00:00:00.5Z"}`},
	} {
		r := serve(t, s, tt.method, ControlPrefix+"/clock", tt.body)
		if diff := cmp.Diff(tt.want, r.Body); r.Status != 200 || diff != "" {
			t.Errorf("%s %s = %d (-want +got):\n%s", tt.method, tt.body, r.Status, diff)
		}
	}
	// The fast-forward applied the due async write (read without the read barrier).
	if a, err := s.store.Get(dsURN, "status", 0); err != nil || string(a.Value) != `{"removed":true}` {
		t.Errorf("after fastForwardMillis: %s %v", a.Value, err)
	}
	for _, tt := range []struct{ body, msg string }{
		{`{}`, "A clock change must be a JSON object with one of the members fastForwardMillis, time"},
		{`{"fastForwardMillis":1,"time":"2027-01-01T00:00:00Z"}`, "with one of the members"},
		{`{"fastforward":1}`, `Unknown clock member "fastforward"`},
		{`{"fastForwardMillis":-1}`, `Clock member "fastForwardMillis" must be a non-negative number of milliseconds, not -1`},
		{`{"fastForwardMillis":"1"}`, `not "1"`},
		{`{"time":"yesterday"}`, `Clock member "time" must be an RFC 3339 string, not "yesterday"`},
		{`[1]`, "must be a JSON object"},
		{`{"time":"2027-01-01T00:00:00Z","time":"2028-01-01T00:00:00Z"}`, `Member "time" is given more than once`},
		{`{"fastForwardMillis":9223372036854}`, `Clock member "fastForwardMillis": 9223372036854 moves the clock more than 292 years`},
		{`{"time":"9999-12-31T00:00:00Z"}`, `Clock member "time": "9999-12-31T00:00:00Z" moves the clock more than 292 years`},
		{`{"time":"0001-01-01T00:00:00Z"}`, `Clock member "time": "0001-01-01T00:00:00Z" moves the clock`},
	} {
		wantRestliError(t, serve(t, s, http.MethodPost, ControlPrefix+"/clock", tt.body), 400, tt.msg)
	}
	if got := s.Now(); !got.Equal(time.Date(2027, 1, 1, 0, 0, 0, 5e8, time.UTC)) {
		t.Errorf("refused changes moved the clock to %v", got)
	}
}

// FuzzControlFault checks that the control API's fault decoder never
// panics or answers 5xx, and that whatever it accepts is a valid fault
// (installed) and whatever it refuses installs nothing.
func FuzzControlFault(f *testing.F) {
	for _, seed := range []string{
		`{"op":"ingestProposal","times":2,"status":503,"retryAfterSeconds":1}`,
		`{"op":"*","times":"forever","delayMillis":200}`,
		`{"op":"getAspect","times":1,"drop":true}`,
		`{"op":"ingestProposal","times":1,"commitThenDrop":true}`,
		`{"op":"config","time":1,"status":503}`,
		`{"op":"config","times":1,"delayMillis":1e12}`,
		`{"op":"config","times":-1,"status":200}`,
		`[]`, `{`, `{"op":null,"times":null}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		s := New(WithControl(true))
		defer s.Close()
		r := serve(t, s, http.MethodPost, ControlPrefix+"/faults", body)
		s.mu.Lock()
		installed := make([]Fault, 0, len(s.faults))
		for _, f := range s.faults {
			installed = append(installed, f.Fault)
		}
		s.mu.Unlock()
		switch r.Status {
		case http.StatusOK:
			if len(installed) != 1 {
				t.Fatalf("accepted %s but installed %d faults", body, len(installed))
			}
			if err := installed[0].Validate(); err != nil {
				t.Fatalf("accepted %s as an invalid fault: %v", body, err)
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
			if len(installed) != 0 {
				t.Fatalf("refused %s (%s) but installed %v", body, r.Body, installed)
			}
		default:
			t.Fatalf("%s = %d %s", body, r.Status, r.Body)
		}
	})
}

// TestControlListsFaults lists the pending faults, each with the requests it
// has left, through Faults and GET /faults.
func TestControlListsFaults(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithControl(true))
	ok := func(method, target, body string) string {
		t.Helper()
		r := serve(t, s, method, target, body)
		if r.Status != 200 {
			t.Fatalf("%s %s = %d %s", method, target, r.Status, r.Body)
		}
		return r.Body
	}
	ok(http.MethodPost, ControlPrefix+"/faults", `{"op":"config","times":2,"status":503,"retryAfterSeconds":1}`)
	ok(http.MethodPost, ControlPrefix+"/faults", `{"op":"*","times":"forever","delayMillis":1.5}`)
	ok(http.MethodPost, ControlPrefix+"/faults", `{"op":"graphql","times":1,"status":404,"graphQLOperation":"getDataset","graphQLError":"gone"}`)
	if r := serve(t, s, http.MethodGet, "/config", ""); r.Status != 503 {
		t.Fatalf("faulted /config = %d", r.Status)
	}
	want := []Fault{
		{Op: OpConfig, Times: 1, Status: 503, RetryAfter: time.Second},
		{Op: OpAny, Times: Forever, Delay: 1500 * time.Microsecond},
		{Op: OpGraphQL, Times: 1, Status: 404, GraphQLOperation: "getDataset", GraphQLError: "gone"},
	}
	if diff := cmp.Diff(want, s.Faults()); diff != "" {
		t.Errorf("Faults (-want +got):\n%s", diff)
	}
	wantJSON := `{"value":[` +
		`{"op":"config","retryAfterSeconds":1,"status":503,"times":1},` +
		`{"delayMillis":1.5,"op":"*","times":"forever"},` +
		`{"graphQLError":"gone","graphQLOperation":"getDataset","op":"graphql","status":404,"times":1}]}`
	if diff := cmp.Diff(wantJSON, ok(http.MethodGet, ControlPrefix+"/faults", "")); diff != "" {
		t.Errorf("GET /faults (-want +got):\n%s", diff)
	}
	// What GET /faults lists, POST /faults takes back.
	var listed struct{ Value []json.RawMessage }
	if err := json.Unmarshal([]byte(ok(http.MethodGet, ControlPrefix+"/faults", "")), &listed); err != nil {
		t.Fatal(err)
	}
	ok(http.MethodDelete, ControlPrefix+"/faults", "")
	for _, f := range listed.Value {
		ok(http.MethodPost, ControlPrefix+"/faults", string(f))
	}
	if diff := cmp.Diff(want, s.Faults()); diff != "" {
		t.Errorf("Faults after re-posting the listed ones (-want +got):\n%s", diff)
	}
	ok(http.MethodDelete, ControlPrefix+"/faults", "")
	if got := ok(http.MethodGet, ControlPrefix+"/faults", ""); got != `{"value":[]}` {
		t.Errorf("GET /faults after DELETE = %s", got)
	}
}

// TestGraphQLRequestCounts counts GraphQL requests by operation name, in Go
// and through the control API.
func TestGraphQLRequestCounts(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithControl(true))
	for _, body := range []string{
		`{"query":"query getMe { me { corpUser { urn } } }"}`,
		`{"query":"query getMe { me { corpUser { urn } } }"}`,
		`{"query":"query a { me { corpUser { urn } } } query b { me { corpUser { urn } } }","operationName":"b"}`,
		`{"query":"{ me { corpUser { urn } } }"}`,
	} {
		serve(t, s, http.MethodPost, "/api/graphql", body, "Content-Type", "application/json")
	}
	want := map[string]int{"getMe": 2, "b": 1, "": 1}
	if diff := cmp.Diff(want, s.GraphQLRequestCounts()); diff != "" {
		t.Errorf("GraphQLRequestCounts (-want +got):\n%s", diff)
	}
	r := serve(t, s, http.MethodGet, ControlPrefix+"/requests/graphql", "")
	if diff := cmp.Diff(`{"value":{"":1,"b":1,"getMe":2}}`, r.Body); r.Status != 200 || diff != "" {
		t.Errorf("GET /requests/graphql = %d (-want +got):\n%s", r.Status, diff)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if got := s.GraphQLRequestCounts(); len(got) != 0 {
		t.Errorf("after Reset: %v", got)
	}
}

// TestControlProposalsNeedRecording: without recording, GET /proposals says
// so instead of answering an empty list.
func TestControlProposalsNeedRecording(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithControl(true), WithRecording(false))
	ingest(t, s, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`))
	wantRestliError(t, serve(t, s, http.MethodGet, ControlPrefix+"/proposals", ""), 409, "Proposals are not recorded: start the server with -record")
}
