package mockserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// searchSelective is a searchAcrossEntities over every default type with a
// filter that 10 entities match (one tag), as the SDK sends it (with the
// soft-delete rule), selecting the URNs and the facets.
const searchSelective = `{"query":"query q($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total searchResults { entity { urn } } facets { field aggregations { value count } } } }",
"variables":{"input":{"query":"*","count":20,"orFilters":[{"and":[{"field":"tags","values":["urn:li:tag:selective"]},{"field":"removed","values":["true"],"negated":true}]}]}}}`

// taggedScaleServer is scaleServer(n) with the tag on 10 of its entities.
func taggedScaleServer(b *testing.B, n int) *Server {
	s := scaleServer(b, n)
	for i := range 10 {
		if err := s.PutAspectJSON(scaleURN(i*(n/10)), "globalTags", json.RawMessage(`{"tags":[{"tag":"urn:li:tag:selective"}]}`)); err != nil {
			b.Fatal(err)
		}
	}
	search(b, s) // the index catches up outside the timer
	return s
}

func search(b *testing.B, s *Server) {
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/graphql", bytes.NewReader([]byte(searchSelective))))
	if rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), []byte(`"total":10,`)) {
		b.Fatalf("search = %d %s", rec.Code, rec.Body)
	}
}

// BenchmarkSearchScale measures a selective search (10 hits, with facets)
// through the GraphQL handler on a server holding 1,000 datasets and on one
// holding 100,000, in turns, and reports each side's time per search and
// their ratio ratio-100k/1k (the target is at most 2: a selective filter
// starts from the index's postings, not from every document).
func BenchmarkSearchScale(b *testing.B) {
	const small, large = 1_000, 100_000
	ss, sl := taggedScaleServer(b, small), taggedScaleServer(b, large)
	var smallT, largeT time.Duration
	for b.Loop() {
		start := time.Now()
		search(b, ss)
		mid := time.Now()
		search(b, sl)
		largeT += time.Since(mid)
		smallT += mid.Sub(start)
	}
	b.ReportMetric(float64(smallT.Nanoseconds())/float64(b.N), "1k-ns/op")
	b.ReportMetric(float64(largeT.Nanoseconds())/float64(b.N), "100k-ns/op")
	b.ReportMetric(float64(largeT)/float64(smallT), "ratio-100k/1k")
}
