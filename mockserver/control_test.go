package mockserver

import (
	"encoding/json"
	"net/http"
	"testing"

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
	ok(http.MethodPost, ControlPrefix+"/faults", `{"op":"*","delayMillis":1}`)
	ok(http.MethodDelete, ControlPrefix+"/faults", "")
	ok(http.MethodPost, ControlPrefix+"/reset", "")
	if got := s.store.All(); len(got) != 0 || len(s.Proposals()) != 0 {
		t.Errorf("reset left state: %v", got)
	}
	for _, tt := range []struct {
		method, target, body string
		status               int
		msg                  string
	}{
		{http.MethodPost, ControlPrefix + "/faults", `{"times":1}`, 400, "A fault needs an op"},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"nope"}`, 400, "A fault needs an op"},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":"config","status":7}`, 400, "not 7"},
		{http.MethodPost, ControlPrefix + "/faults", `{"op":`, 400, "Error parsing entity body"},
		{http.MethodGet, ControlPrefix + "/nothing", ``, 404, "No control route GET /__datahub_mock/nothing"},
	} {
		wantRestliError(t, serve(t, s, tt.method, tt.target, tt.body, auth...), tt.status, tt.msg)
	}
	// Without WithControl the prefix is an unknown GMS resource.
	plain := newServer(t)
	wantRestliError(t, serve(t, plain, http.MethodPost, ControlPrefix+"/reset", ""), 404, "No root resource defined for path '/__datahub_mock'")
}
