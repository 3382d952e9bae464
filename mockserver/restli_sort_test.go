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

// TestRestliScrollSort: scrollAcrossEntities orders its hits by
// sortCriteria (else sort) across pages, each page continuing from the
// scroll id of the one before, with the facets of every match; without
// criteria it keeps the score order.
func TestRestliScrollSort(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	ds := func(n string) string { return "urn:li:dataset:(urn:li:dataPlatform:hive," + n + ",PROD)" }
	for _, d := range []struct{ name, props string }{
		{"a", `{"name":"delta"}`}, {"b", `{"name":"alpha"}`}, {"c", `{"name":"gamma"}`}, {"d", `{"description":"no name"}`},
		{"e", `{"name":"beta"}`},
	} {
		if err := s.PutAspectJSON(ds(d.name), "datasetProperties", []byte(d.props)); err != nil {
			t.Fatal(err)
		}
	}
	type page struct {
		Value struct {
			Entities []struct{ Entity string }
			ScrollID string
			Metadata struct {
				Aggregations []struct {
					Name         string
					Aggregations map[string]int64
				}
			}
			NumEntities int
		}
	}
	scroll := func(t *testing.T, sort string) ([]string, []page) {
		var got []string
		var pages []page
		id := ""
		for range 5 {
			body := `{"entities":["dataset"],"input":"*","keepAlive":"5m","count":2` + sort
			if id != "" {
				body += `,"scrollId":"` + id + `"`
			}
			r := serve(t, s, http.MethodPost, "/entities?action=scrollAcrossEntities", body+"}")
			if r.Status != http.StatusOK {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			var p page
			if err := json.Unmarshal([]byte(r.Body), &p); err != nil {
				t.Fatal(err)
			}
			pages = append(pages, p)
			for _, e := range p.Value.Entities {
				got = append(got, e.Entity)
			}
			if id = p.Value.ScrollID; id == "" {
				break
			}
		}
		return got, pages
	}
	for _, tc := range []struct {
		name, sort string
		want       []string
	}{
		{"sortCriteria ascending", `,"sortCriteria":[{"field":"name","order":"ASCENDING"}]`,
			[]string{ds("b"), ds("e"), ds("a"), ds("c"), ds("d")}},
		{"sort descending", `,"sort":{"field":"name","order":"DESCENDING"}`,
			[]string{ds("c"), ds("a"), ds("e"), ds("b"), ds("d")}},
		{"by urn descending", `,"sortCriteria":[{"field":"urn","order":"DESCENDING"}]`,
			[]string{ds("e"), ds("d"), ds("c"), ds("b"), ds("a")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, pages := scroll(t, tc.sort)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if len(pages) != 3 {
				t.Fatalf("%d pages, want 3", len(pages))
			}
			for i, p := range pages {
				if p.Value.NumEntities != 5 {
					t.Errorf("page %d: numEntities %d, want 5", i, p.Value.NumEntities)
				}
				found := false
				for _, a := range p.Value.Metadata.Aggregations {
					if a.Name == "_entityType" || a.Name == "entity" {
						found = found || a.Aggregations["dataset"] == 5 || a.Aggregations["DATASET"] == 5
					}
				}
				if i == 0 && !found {
					t.Errorf("page 0: no entity type facet counting 5 datasets: %+v", p.Value.Metadata.Aggregations)
				}
			}
		})
	}
	t.Run("bad scroll id", func(t *testing.T) {
		t.Parallel()
		r := serve(t, s, http.MethodPost, "/entities?action=scrollAcrossEntities",
			`{"input":"*","keepAlive":"5m","count":2,"scrollId":"e30=","sortCriteria":[{"field":"name","order":"ASCENDING"}]}`)
		if r.Status < 400 {
			t.Errorf("%d %s, want a refusal", r.Status, r.Body)
		}
	})
}
