package mockserver

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRestliSearchAggregations: Rest.li's search and searchAcrossEntities
// answer metadata.aggregations, the facets of every match (entity type and
// the entity's filter fields, such as origin, platform, tags), unless
// searchFlags.skipAggregates is true; the default flags skip none.
func TestRestliSearchAggregations(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for _, n := range []string{"a", "b"} {
		u := "urn:li:dataset:(urn:li:dataPlatform:hive," + n + ",PROD)"
		if err := s.PutAspectJSON(u, "datasetProperties", []byte(`{"name":"`+n+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutAspectJSON("urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)", "globalTags",
		[]byte(`{"tags":[{"tag":"urn:li:tag:pii"}]}`)); err != nil {
		t.Fatal(err)
	}
	type agg struct {
		Name, DisplayName string
		Aggregations      map[string]int64
		FilterValues      []struct {
			Value      string
			FacetCount int64
		}
	}
	facets := []agg{
		{Name: "_entityType", DisplayName: "Type", Aggregations: map[string]int64{"dataset": 2}},
		{Name: "origin", DisplayName: "Environment", Aggregations: map[string]int64{"PROD": 2}},
		{Name: "platform", DisplayName: "Platform", Aggregations: map[string]int64{"urn:li:dataPlatform:hive": 2}},
		{Name: "tags", DisplayName: "Tagged With", Aggregations: map[string]int64{"urn:li:tag:pii": 1}},
	}
	for i := range facets {
		for v, n := range facets[i].Aggregations {
			facets[i].FilterValues = append(facets[i].FilterValues, struct {
				Value      string
				FacetCount int64
			}{v, n})
		}
	}
	for _, tc := range []struct {
		name, action, body string
		want               []agg
	}{
		{"search, default flags", "search", `{"entity":"dataset","input":"*","start":0,"count":1}`, facets},
		{"search, skipAggregates false", "search", `{"entity":"dataset","input":"*","start":0,"count":1,"searchFlags":{"skipAggregates":false}}`, facets},
		{"searchAcrossEntities, skipAggregates false", "searchAcrossEntities", `{"input":"*","start":0,"count":1,"searchFlags":{"skipAggregates":false,"fulltext":true}}`, facets},
		{"search, skipAggregates true", "search", `{"entity":"dataset","input":"*","start":0,"count":1,"searchFlags":{"skipAggregates":true}}`, []agg{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := serve(t, s, http.MethodPost, "/entities?action="+tc.action, tc.body)
			if r.Status != http.StatusOK {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			var got struct {
				Value struct {
					Metadata    struct{ Aggregations []agg }
					NumEntities int
				}
			}
			if err := json.Unmarshal([]byte(r.Body), &got); err != nil {
				t.Fatal(err)
			}
			if got.Value.NumEntities != 2 {
				t.Errorf("numEntities %d, want 2", got.Value.NumEntities)
			}
			if diff := cmp.Diff(tc.want, got.Value.Metadata.Aggregations); diff != "" {
				t.Errorf("aggregations (-want +got):\n%s", diff)
			}
		})
	}
}
