package mockserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
)

// BenchmarkStoredAspectMemory measures the memory the mock keeps per stored
// aspect version: it posts 50 batches of 200 proposals (bodies that differ
// in every value, so that each write makes a new version: 200 aspects of
// 50 versions each, with their entities' key rows and index documents) to
// a new server without recording, and reports the live heap it grew by,
// after garbage collections that also empty the sync.Pools, divided by the 10,000 versions written
// (B/version). Allocation rates are BenchmarkIngestBatchHandler's.
func BenchmarkStoredAspectMemory(b *testing.B) {
	const n, batches = 200, 50
	bodies := ingestBodies(b, n)
	var perVersion float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&before)
		s := New(WithRecording(false))
		for i := range batches {
			req := httptest.NewRequest(http.MethodPost, "/aspects?action=ingestProposalBatch", bytes.NewReader(bodies[i%2]))
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("= %d %s", rec.Code, rec.Body)
			}
		}
		_ = s.IndexedAspects("urn:li:dataset:(urn:li:dataPlatform:foo,bar0,PROD)") // the index has caught up
		// Twice: the second empties the sync.Pools' victim caches, so that
		// only what the server keeps counts.
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&after)
		perVersion = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (n * batches)
		runtime.KeepAlive(s)
		_ = s.Close()
	}
	b.ReportMetric(perVersion, "B/version")
}
