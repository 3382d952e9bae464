package mockserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// BenchmarkSearchAfterBatch measures the first search after a batch of 200
// proposals (every write a new version) on a server holding 1,000 datasets:
// the search index applies the batch's changes when a read needs them, so
// the first search pays for them. It reports the batch's time, the first
// search's and a second search's (the search alone), per round.
func BenchmarkSearchAfterBatch(b *testing.B) {
	const n = 200
	s := taggedScaleServer(b, 1_000)
	bodies := ingestBodies(b, n)
	post := func(body []byte) {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/aspects?action=ingestProposalBatch", bytes.NewReader(body)))
		if rec.Code != http.StatusOK {
			b.Fatalf("ingest = %d %s", rec.Code, rec.Body)
		}
	}
	post(bodies[0]) // the batch's entities exist: every round makes new versions
	var batchT, firstT, againT time.Duration
	i := 0
	for b.Loop() {
		i++
		t0 := time.Now()
		post(bodies[i%2])
		t1 := time.Now()
		search(b, s)
		t2 := time.Now()
		search(b, s)
		batchT, firstT, againT = batchT+t1.Sub(t0), firstT+t2.Sub(t1), againT+time.Since(t2)
	}
	b.ReportMetric(float64(batchT.Nanoseconds())/float64(i), "batch-ns/op")
	b.ReportMetric(float64(firstT.Nanoseconds())/float64(i), "first-search-ns/op")
	b.ReportMetric(float64(againT.Nanoseconds())/float64(i), "again-search-ns/op")
}
