package mockserver_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/mockserver"
)

// BenchmarkGraphQLFeatureTable reads a feature table with 10 features over
// HTTP from 16 concurrent clients and reports queries/s.
func BenchmarkGraphQLFeatureTable(b *testing.B) {
	s := mockserver.Start(b)
	table := seedFeatureTable(b, s)
	body, _ := json.Marshal(map[string]any{
		"query":     `query t($urn: String!) { mlFeatureTable(urn: $urn) { urn name description platform { name } properties { description mlFeatures { urn name description dataType } } } }`,
		"variables": map[string]any{"urn": table},
	})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer client.CloseIdleConnections()
	const clients = 16
	b.SetParallelism((clients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu0 := time.Now(), testshared.CPUTime(b)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := client.Post(s.URL()+"/api/graphql", "application/json", strings.NewReader(string(body)))
			if err != nil {
				b.Error(err)
				return
			}
			out, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(out), `"f9"`) {
				b.Errorf("status %d: %s", resp.StatusCode, out)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "queries/s")
	// CPU per query (server and clients, one process): on a shared machine
	// the wall-clock rate says more about the neighbours than about the mock.
	b.ReportMetric(float64((testshared.CPUTime(b)-cpu0).Microseconds())/float64(b.N), "cpu-µs/query")
}

// BenchmarkRESTAspectRead reads the feature table's properties aspect with
// Rest.li's GET /aspects over HTTP from 16 concurrent clients, as
// BenchmarkGraphQLFeatureTable reads the table: the REST figure the GraphQL
// one is compared with (graphql/rest in reads/s).
func BenchmarkRESTAspectRead(b *testing.B) {
	s := mockserver.Start(b)
	table := seedFeatureTable(b, s)
	u := s.URL() + "/aspects/" + url.PathEscape(table) + "?aspect=mlFeatureTableProperties&version=0"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer client.CloseIdleConnections()
	const clients = 16
	b.SetParallelism((clients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu0 := time.Now(), testshared.CPUTime(b)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := client.Get(u)
			if err != nil {
				b.Error(err)
				return
			}
			out, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(out), "bench") {
				b.Errorf("status %d: %s", resp.StatusCode, out)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "reads/s")
	b.ReportMetric(float64((testshared.CPUTime(b)-cpu0).Microseconds())/float64(b.N), "cpu-µs/read")
}

// BenchmarkGraphQLFeatureTableHandler is the same query through the
// server's ServeHTTP without a network, on one goroutine: the mock's own CPU
// per query.
func BenchmarkGraphQLFeatureTableHandler(b *testing.B) {
	s := mockserver.New()
	defer s.Close()
	table := seedFeatureTable(b, s)
	body, _ := json.Marshal(map[string]any{
		"query":     `query t($urn: String!) { mlFeatureTable(urn: $urn) { urn name description platform { name } properties { description mlFeatures { urn name description dataType } } } }`,
		"variables": map[string]any{"urn": table},
	})
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(string(body))))
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

// BenchmarkGraphQLFeatureTableHandlerUncached is
// BenchmarkGraphQLFeatureTableHandler with a body that differs in every
// query (an unused variable), so that no answer is reused: the cost of
// running the query.
func BenchmarkGraphQLFeatureTableHandlerUncached(b *testing.B) {
	s := mockserver.New()
	defer s.Close()
	table := seedFeatureTable(b, s)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n++
		body := fmt.Sprintf(`{"query":"query t($urn: String!) { mlFeatureTable(urn: $urn) { urn name description platform { name } properties { description mlFeatures { urn name description dataType } } } }","variables":{"urn":%q,"n":%d}}`, table, n)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(body)))
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"f9"`) {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

// seedFeatureTable writes the benchmarks' feature table with 10 features
// into s and returns the table's URN.
func seedFeatureTable(b *testing.B, s *mockserver.Server) string {
	b.Helper()
	table := "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,bench)"
	var features []string
	for i := range 10 {
		u := fmt.Sprintf("urn:li:mlFeature:(bench,f%d)", i)
		features = append(features, u)
		if err := s.PutAspectJSON(u, "mlFeatureProperties", json.RawMessage(fmt.Sprintf(`{"description":"feature %d","dataType":"CONTINUOUS"}`, i))); err != nil {
			b.Fatal(err)
		}
	}
	fs, _ := json.Marshal(features)
	if err := s.PutAspectJSON(table, "mlFeatureTableProperties", json.RawMessage(`{"description":"bench","mlFeatures":`+string(fs)+`}`)); err != nil {
		b.Fatal(err)
	}
	return table
}
