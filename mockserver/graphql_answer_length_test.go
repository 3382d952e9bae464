package mockserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestGraphQLAnswerLength: a GraphQL answer longer than net/http measures
// by itself goes with its Content-Length, not in chunks, when it is run and
// when it is the kept answer of the same body; and a kept answer is never
// the answer of an earlier store (a write between two posts shows).
func TestGraphQLAnswerLength(t *testing.T) {
	t.Parallel()
	s := Start(t, WithRecording(false))
	const table = "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,long)"
	var features []string
	for i := range 60 {
		u := fmt.Sprintf("urn:li:mlFeature:(long,f%d)", i)
		features = append(features, u)
		if err := s.PutAspectJSON(u, "mlFeatureProperties", json.RawMessage(fmt.Sprintf(`{"description":"feature %d","dataType":"CONTINUOUS"}`, i))); err != nil {
			t.Fatal(err)
		}
	}
	fs, _ := json.Marshal(features)
	put := func(desc string) {
		t.Helper()
		if err := s.PutAspectJSON(table, "mlFeatureTableProperties", json.RawMessage(`{"description":"`+desc+`","mlFeatures":`+string(fs)+`}`)); err != nil {
			t.Fatal(err)
		}
	}
	put("one")
	body := `{"query":"query t($urn: String!) { mlFeatureTable(urn: $urn) { urn properties { description mlFeatures { urn name description dataType } } } }","variables":{"urn":"` + table + `"}}`
	post := func() string {
		t.Helper()
		status, answer := postMeasured(t, s.URL()+"/api/graphql", strings.NewReader(body))
		if status != http.StatusOK || len(answer) < 4<<10 || strings.Contains(string(answer), `"errors"`) {
			t.Fatalf("POST = %d with %d bytes: %.300s", status, len(answer), answer)
		}
		return string(answer)
	}
	first := post()  // run
	second := post() // kept
	if first != second || !strings.Contains(first, `"description":"one"`) {
		t.Fatalf("answers differ or miss the description:\n%.200s\n%.200s", first, second)
	}
	put("two")
	if third := post(); third != strings.Replace(first, `"description":"one"`, `"description":"two"`, 1) {
		t.Errorf("after a write: %.200s", third)
	}
}

// TestGraphQLKeepsNoBodyMemory: the buffer a GraphQL body was read into is
// reused by the next request, and overwritten here when released: the
// answers, operation names and variables kept by body must be copies.
func TestGraphQLKeepsNoBodyMemory(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	s.cfg.poisonBodies = true
	if err := s.PutAspectJSON(cacheDataset, "datasetProperties", json.RawMessage(`{"description":"one"}`)); err != nil {
		t.Fatal(err)
	}
	named := `{"query":"query readIt($u: String!) { dataset(urn: $u) { urn properties { description } } }","variables":{"u":"` + cacheDataset + `"}}`
	want := `{"data":{"dataset":{"urn":"` + cacheDataset + `","properties":{"description":"one"}}},"extensions":{}}`
	for round := range 3 { // run, then kept; the other body between them
		for _, body := range []string{named, cacheQuery} {
			r := serve(t, s, http.MethodPost, "/api/graphql", body)
			if r.Status != http.StatusOK {
				t.Fatalf("round %d: status %d: %s", round, r.Status, r.Body)
			}
			if body == named && r.Body != want {
				t.Errorf("round %d: %s, want %s", round, r.Body, want)
			}
		}
	}
	if got := s.GraphQLRequestCounts(); got["readIt"] != 3 || got[""] != 3 || len(got) != 2 {
		t.Errorf("counts %v, want readIt 3 and unnamed 3", got)
	}
}
