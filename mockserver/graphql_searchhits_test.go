package mockserver_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// TestGraphQLSearchHitsShowStore checks what a search hit shows while the
// search index is behind the store (a change dropped while indexing was
// paused): the index still finds the entity, and the hit shows the store's
// latest value, as DataHub hydrates hits from its entity service; once the
// index has every change, the same answer comes from its documents.
func TestGraphQLSearchHitsShowStore(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	const u = "urn:li:dataset:(urn:li:dataPlatform:hive,db.hits,PROD)"
	put := func(desc string) {
		t.Helper()
		if err := s.PutAspectJSON(u, "datasetProperties", json.RawMessage(`{"description":"`+desc+`","customProperties":{}}`)); err != nil {
			t.Fatal(err)
		}
	}
	body := `{"query":"{ searchAcrossEntities(input: {types: [DATASET], query: \"*\", count: 10}) { total searchResults { entity { urn ... on Dataset { properties { description } } } } } }"}`
	shows := func(want string) {
		t.Helper()
		r := postGraphQL(t, s, "/api/graphql", body)
		if r.status != 200 || !strings.Contains(string(r.body), `"total":1,`) || !strings.Contains(string(r.body), `"description":"`+want+`"`) {
			t.Errorf("search shows %s, want description %q", r.body, want)
		}
	}
	put("indexed")
	shows("indexed")
	s.PauseIndexing()
	put("in the store only")
	s.ResumeIndexing()
	shows("in the store only")
}
