package mockserver_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// FuzzGraphQLHandler posts arbitrary bodies to /api/graphql: the mock never
// answers 500 and never panics (a panic fails the fuzz run).
func FuzzGraphQLHandler(f *testing.F) {
	for _, seed := range []string{
		`{"query":"{ mlFeatureTable(urn: \"urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)\") { name properties { mlFeatures { name } } } }"}`,
		`{"query":"query q($u: String!) { dataset(urn: $u) { name schemaMetadata(version: 1) { fields { fieldPath type } } } }","variables":{"u":"urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"}}`,
		`{"query":"mutation { updateDescription(input: {description: \"\"\"x\"\"\", resourceUrn: \"urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)\", subResourceType: DATASET_FIELD, subResource: \"id\"}) }"}`,
		`{"query":"{ entities(urns: [\"urn:li:mlModel:(a,b,c)\", \"x\"]) { urn ... on MLModel { properties { groups { name } } } } }"}`,
		`{"query":"{ entity(urn: \"urn:li:corpuser:x\") { type } dataPlatform(urn: \"urn:li:dataPlatform:\") { name } }"}`,
		`{"query":"{ mlModel(urn: \"urn:li:mlModel:(urn:li:dataPlatform:x,(a,b),PROD)\") { name origin } }"}`,
		`{"query":"{ __schema { types { name } } }","operationName":"x"}`,
		`{"query":"#\n\"\"\"","variables":null}`, `[]`, `{"query":""}`, ``,
	} {
		f.Add(seed)
	}
	s := mockserver.New()
	f.Cleanup(func() { _ = s.Close() })
	seedGraphQL(f, s)
	f.Fuzz(func(t *testing.T, body string) {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(body)))
		if w.Code >= 500 {
			t.Fatalf("status %d for %q: %s", w.Code, body, w.Body)
		}
	})
}
