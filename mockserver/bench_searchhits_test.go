package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// searchHundred is a searchAcrossEntities of datasets with a filter that
// 100 entities match (one tag), selecting what a hit shows: the URN, the
// type, the name, the platform and the properties.
const searchHundred = `{"query":"query q($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total searchResults { matchedFields { name value } entity { urn type ... on Dataset { name platform { name } properties { name description } } } } } }",
"variables":{"input":{"types":["DATASET"],"query":"*","count":100,"orFilters":[{"and":[{"field":"tags","values":["urn:li:tag:hundred"]}]}]}}}`

// hundredScaleServer is scaleServer(n) with the tag of searchHundred on 100
// of its entities.
func hundredScaleServer(b *testing.B, n int) *Server {
	s := scaleServer(b, n)
	for i := range 100 {
		if err := s.PutAspectJSON(scaleURN(i*(n/100)), "globalTags", json.RawMessage(`{"tags":[{"tag":"urn:li:tag:hundred"}]}`)); err != nil {
			b.Fatal(err)
		}
	}
	searchHits(b, s) // the index catches up outside the timer
	return s
}

func searchHits(b *testing.B, s *Server) {
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/graphql", bytes.NewReader([]byte(searchHundred))))
	// The servers are shared with other benchmarks, which rewrite the
	// descriptions: the check reads what they keep.
	if rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), []byte(`"total":100,`)) ||
		bytes.Count(rec.Body.Bytes(), []byte(`"platform":{"name":"hive"},"properties":{"name":"table_`)) != 100 {
		b.Fatalf("search = %d %.300s", rec.Code, rec.Body)
	}
}

// BenchmarkSearchHits measures a search returning 100 hits, each shown
// with its name, platform and properties, through the GraphQL handler on a
// server holding 1,000 datasets and on one holding 100,000, in turns, each
// search after a write of another entity. It reports each side's time per
// search and their ratio ratio-100k/1k, the same of the process's CPU time
// (cpu-ratio-100k/1k: on a shared machine the wall clock says more about
// the neighbours than about the search), and the time and CPU time per hit
// over 100,000. The target is a ratio of at most 2: a hit is shown from its
// index document, whatever the index's size.
func BenchmarkSearchHits(b *testing.B) {
	const small, large = 1_000, 100_000
	ss, sl := hundredScaleServer(b, small), hundredScaleServer(b, large)
	b.ReportAllocs()
	runtime.GC() // the servers' building leaves no collection to the timed searches
	var smallT, largeT, smallCPU, largeCPU time.Duration
	n := 0
	for b.Loop() {
		// A write before each search, outside the timer, as in a flow that
		// ingests and searches: nothing read at an older store position
		// (an entity the GraphQL handler loaded, say) serves the search.
		b.StopTimer()
		n++
		for _, s := range []*Server{ss, sl} {
			if err := s.PutAspectJSON(scaleURN(1), "datasetProperties", json.RawMessage(fmt.Sprintf(`{"name":"table_000001","description":"write %d"}`, n))); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		start, cpu0 := time.Now(), processCPU()
		searchHits(b, ss)
		smallCPU += processCPU() - cpu0
		mid, cpu0 := time.Now(), processCPU()
		searchHits(b, sl)
		largeCPU += processCPU() - cpu0
		largeT += time.Since(mid)
		smallT += mid.Sub(start)
	}
	b.ReportMetric(float64(smallT.Nanoseconds())/float64(b.N), "1k-ns/op")
	b.ReportMetric(float64(largeT.Nanoseconds())/float64(b.N), "100k-ns/op")
	b.ReportMetric(float64(largeT.Nanoseconds())/float64(b.N)/100, "100k-ns/hit")
	b.ReportMetric(float64(largeCPU.Nanoseconds())/float64(b.N)/100, "100k-cpu-ns/hit")
	b.ReportMetric(float64(largeCPU)/float64(smallCPU), "cpu-ratio-100k/1k")
	b.ReportMetric(float64(largeT)/float64(smallT), "ratio-100k/1k")
}

// processCPU is the process's user and system CPU time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
