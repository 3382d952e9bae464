package mockserver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// BenchmarkGraphQLUpdateDescriptionHandler sets a schema field's
// description through the server's ServeHTTP without a network, on one
// goroutine, a new description (a new version) every time: the mock's own
// CPU per mutation.
func BenchmarkGraphQLUpdateDescriptionHandler(b *testing.B) {
	s := mockserver.New()
	defer s.Close()
	seedGraphQL(b, s)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n++
		body := fmt.Sprintf(`{"query":%q,"variables":{"input":{"resourceUrn":%q,"subResourceType":"DATASET_FIELD","subResource":"id","description":"d%d"}}}`,
			updateDescriptionDoc, gqlDataset, n)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(body)))
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"updateDescription":true`) {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}
