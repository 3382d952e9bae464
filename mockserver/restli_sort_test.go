package mockserver

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
)

// TestRestliSearchSort checks that Rest.li's search, searchAcrossEntities,
// filter and list order their hits by sortCriteria (else sort), numbers as
// numbers and an entity without the field last, and page after sorting.
func TestRestliSearchSort(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	ds := func(n string) string { return "urn:li:dataset:(urn:li:dataPlatform:hive," + n + ",PROD)" }
	for _, d := range []struct{ name, props string }{
		{"a", `{"name":"beta"}`}, {"b", `{"name":"alpha"}`}, {"c", `{"name":"gamma"}`}, {"d", `{"description":"no name"}`},
	} {
		if err := s.PutAspectJSON(ds(d.name), "datasetProperties", []byte(d.props)); err != nil {
			t.Fatal(err)
		}
	}
	urns := func(body string, key string) []string {
		var r struct {
			Value map[string]json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		var out []string
		if key == "entities-list" {
			_ = json.Unmarshal(r.Value["entities"], &out)
			return out
		}
		var es []struct{ Entity string }
		_ = json.Unmarshal(r.Value["entities"], &es)
		for _, e := range es {
			out = append(out, e.Entity)
		}
		return out
	}
	tests := []struct {
		name, action, body, key string
		want                    []string
	}{
		{"search sortCriteria ascending", "search", `{"entity":"dataset","input":"*","start":0,"count":10,"sortCriteria":[{"field":"name","order":"ASCENDING"}]}`,
			"", []string{ds("b"), ds("a"), ds("c"), ds("d")}},
		{"search sort descending, missing last", "search", `{"entity":"dataset","input":"*","start":0,"count":10,"sort":{"field":"name","order":"DESCENDING"}}`,
			"", []string{ds("c"), ds("a"), ds("b"), ds("d")}},
		{"sortCriteria wins over sort", "searchAcrossEntities", `{"input":"*","start":0,"count":10,"sort":{"field":"name","order":"DESCENDING"},"sortCriteria":[{"field":"urn","order":"ASCENDING"}]}`,
			"", []string{ds("a"), ds("b"), ds("c"), ds("d")}},
		{"paged after sorting", "filter", `{"entity":"dataset","filter":{"or":[{"and":[{"field":"origin","values":["PROD"]}]}]},"start":1,"count":2,"sortCriteria":[{"field":"name","order":"ASCENDING"}]}`,
			"", []string{ds("a"), ds("c")}},
		{"list", "list", `{"entity":"dataset","start":0,"count":2,"sortCriteria":[{"field":"name","order":"DESCENDING"}]}`,
			"entities-list", []string{ds("c"), ds("a")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := serve(t, s, http.MethodPost, "/entities?action="+tt.action, tt.body)
			if r.Status != http.StatusOK {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			if got := urns(r.Body, tt.key); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
