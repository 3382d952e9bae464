package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// limitDocuments are GraphQL documents beyond the server's limits: 20,000
// aliases of one field (2 MB), 20,000 aliases of one member (within the
// length limit) and one member repeated 100,000 times.
func limitDocuments() map[string][]byte {
	const feature = `"urn:li:mlFeature:(ns,f)"`
	var aliases, compact strings.Builder
	aliases.WriteString("{")
	compact.WriteString("{ mlFeature(urn: " + feature + ") {")
	for i := range 20_000 {
		fmt.Fprintf(&aliases, " a%d: mlFeature(urn: %s) { urn name description featureNamespace }", i, feature)
		fmt.Fprintf(&compact, " a%d: urn", i)
	}
	aliases.WriteString(" }")
	compact.WriteString(" } }")
	repeats := "{ mlFeature(urn: " + feature + ") {" + strings.Repeat(" urn", 100_000) + " } }"
	out := map[string][]byte{}
	for name, doc := range map[string]string{"aliases": aliases.String(), "compactAliases": compact.String(), "repeats": repeats} {
		out[name], _ = json.Marshal(map[string]string{"query": doc})
	}
	return out
}

// serveRefused serves body as a GraphQL request and fails unless it is
// refused by a limit.
func serveRefused(tb testing.TB, s *mockserver.Server, body []byte) {
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(string(body))))
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"classification":"ExecutionAborted"`) {
		tb.Fatalf("status %d: %.300s", w.Code, w.Body)
	}
}

// TestGraphQLLimitsMemory counts the bytes the server allocates to refuse
// each document beyond a limit: under 100 MB (a server without the limits
// took 171 MB for the aliases and gigabytes for the repeats). Not parallel,
// so that the process's allocation counter sees this test alone.
func TestGraphQLLimitsMemory(t *testing.T) {
	s := mockserver.New()
	defer s.Close()
	for name, body := range limitDocuments() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		serveRefused(t, s, body)
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 100<<20 {
			t.Errorf("%s: %d MB allocated to refuse it, want < 100 MB", name, n>>20)
		}
	}
}

// BenchmarkGraphQLLimits is the cost of refusing each document beyond a
// limit (time and bytes per request, through ServeHTTP without a network).
func BenchmarkGraphQLLimits(b *testing.B) {
	s := mockserver.New()
	defer s.Close()
	for name, body := range limitDocuments() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				serveRefused(b, s, body)
			}
		})
	}
}
