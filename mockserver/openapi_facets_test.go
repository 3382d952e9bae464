package mockserver

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestV3ScrollEntityFacet: the v3 scroll answers the "entity" facet of the
// page's own hits (DataHub skips aggregations there by default and counts
// the page's entity types), while the v3 list answers no facets. It failed
// before: the scroll answered "facets":[].
func TestV3ScrollEntityFacet(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithDefaultAspects(false))
	for _, name := range []string{"a", "b", "c"} {
		u := "urn:li:dataset:(urn:li:dataPlatform:hive," + name + ",PROD)"
		ingest(t, s, mcp("dataset", u, "UPSERT", "status", `{"removed":false}`))
	}
	ingest(t, s, mcp("chart", "urn:li:chart:(looker,c1)", "UPSERT", "status", `{"removed":false}`))
	tests := []struct{ name, method, path, body, want string }{
		{"scroll page of 1 of 3", "POST", "/openapi/v3/entity/scroll?count=1", `{"entities":["dataset"]}`,
			`[{"field":"entity","aggregations":{"dataset":1}}]`},
		{"scroll two types", "POST", "/openapi/v3/entity/scroll?count=10", `{"entities":["dataset","chart"]}`,
			`[{"field":"entity","aggregations":{"dataset":3,"chart":1}}]`},
		{"scroll empty page", "POST", "/openapi/v3/entity/scroll?count=0", `{"entities":["dataset"]}`,
			`[{"field":"entity","aggregations":{}}]`},
		{"list", "GET", "/openapi/v3/entity/dataset?count=1", "", `[]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := serve(t, s, tc.method, tc.path, tc.body)
			var got struct {
				Facets json.RawMessage `json:"facets"`
			}
			if err := json.Unmarshal([]byte(r.Body), &got); err != nil {
				t.Fatalf("%d %s: %v", r.Status, r.Body, err)
			}
			if diff := cmp.Diff(tc.want, string(got.Facets)); r.Status != 200 || diff != "" {
				t.Errorf("%d facets (-want +got):\n%s\n%s", r.Status, diff, r.Body)
			}
		})
	}
}
