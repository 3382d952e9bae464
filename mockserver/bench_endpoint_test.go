package mockserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkBatchHandlerEndpoint is one side of
// BenchmarkBatchHandlerEndpoints at a time (restli, openapi): the same 200
// datasetProperties writes of the Go emitter's bodies, every write a new
// version, straight into the handler, without the other side's requests
// between them. One op is one request; a profile or an instruction count
// (callgrind) of one side shows its cost alone.
func BenchmarkBatchHandlerEndpoint(b *testing.B) {
	const n = 200
	var restli, openAPI [4][]byte // by round
	for r := range restli {
		restli[r], openAPI[r] = emitterBatchBodies(n, r)
	}
	for _, side := range []struct {
		name, target string
		bodies       *[4][]byte
	}{
		{"restli", "/aspects?action=ingestProposalBatch", &restli},
		{"openapi", "/openapi/v3/entity/dataset?async=false", &openAPI},
	} {
		b.Run(side.name, func(b *testing.B) {
			s := New(WithRecording(false))
			b.Cleanup(func() { _ = s.Close() })
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				body := side.bodies[i%len(side.bodies)]
				i++
				req := httptest.NewRequest(http.MethodPost, side.target, bytes.NewReader(body))
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s = %d %s", side.target, rec.Code, rec.Body)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(i*n), "ns/proposal")
		})
	}
}
