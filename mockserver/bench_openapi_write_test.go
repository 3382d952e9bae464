package mockserver

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"testing"
	"time"
)

// emitterSystemMetadata is the systemMetadata the Go emitter sends with
// every proposal that sets none.
const emitterSystemMetadata = `{"lastObserved":1700000000000,"runId":"no-run-id-provided","lastRunId":"no-run-id-provided",` +
	`"properties":{"clientId":"datahub-go","clientVersion":"0.1.0"}}`

// emitterBatchBodies are a batch of n datasetProperties writes as the Go
// emitter sends them through Rest.li and through OpenAPI v3, with
// descriptions of round r that differ between the two.
func emitterBatchBodies(n, r int) (restli, openAPI []byte) {
	var rb, ob bytes.Buffer
	rb.WriteString(`{"proposals":[`)
	ob.WriteByte('[')
	for i := range n {
		if i > 0 {
			rb.WriteByte(',')
			ob.WriteByte(',')
		}
		u := fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.table%d,PROD)", i)
		desc := fmt.Sprintf("table %d, round %d", i, r)
		fmt.Fprintf(&rb, `{"entityType":"dataset","entityUrn":%q,"changeType":"UPSERT","aspectName":"datasetProperties",`+
			`"aspect":{"value":"{\"customProperties\":{},\"description\":\"%s\",\"tags\":[]}","contentType":"application/json"},`+
			`"systemMetadata":%s}`, u, desc+" (Rest.li)", emitterSystemMetadata)
		fmt.Fprintf(&ob, `{"urn":%q,"datasetProperties":{"value":{"customProperties":{},"description":%q,"tags":[]},`+
			`"systemMetadata":%s}}`, u, desc+" (OpenAPI)", emitterSystemMetadata)
	}
	rb.WriteString(`],"async":"false"}`)
	ob.WriteByte(']')
	return rb.Bytes(), ob.Bytes()
}

// BenchmarkBatchHandlerEndpoints is BenchmarkEmitBatchedEndpoints without
// the network and the emitter: the same 200 datasetProperties writes in the
// Go emitter's bodies (every write a new version) straight into the
// handler through Rest.li and through OpenAPI v3 (async=false), in turns
// (each first in every other round), and reports each one's time per
// proposal and restli/openapi, OpenAPI's speed relative to Rest.li's, and
// the process's CPU time per proposal of each (the collector's included).
func BenchmarkBatchHandlerEndpoints(b *testing.B) {
	const n = 200
	var restli, openAPI [4][]byte // by round
	for r := range restli {
		restli[r], openAPI[r] = emitterBatchBodies(n, r)
	}
	s := New(WithRecording(false))
	b.Cleanup(func() { _ = s.Close() })
	// Each side's samples in a CPU profile carry the label endpoint
	// (pprof -tagfocus endpoint=openapi), its goroutines' included.
	post := func(endpoint, target string, body []byte, t, cpu *time.Duration) {
		pprof.Do(context.Background(), pprof.Labels("endpoint", endpoint), func(ctx context.Context) {
			start, startCPU := time.Now(), processCPU()
			req := httptest.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			*t += time.Since(start)
			*cpu += processCPU() - startCPU
			if rec.Code != http.StatusOK {
				b.Fatalf("%s = %d %s", target, rec.Code, rec.Body)
			}
		})
	}
	var restliT, openAPIT, restliCPU, openAPICPU time.Duration
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r := i % len(restli)
		i++
		one := func() { post("restli", "/aspects?action=ingestProposalBatch", restli[r], &restliT, &restliCPU) }
		two := func() { post("openapi", "/openapi/v3/entity/dataset?async=false", openAPI[r], &openAPIT, &openAPICPU) }
		if i%2 == 0 {
			one, two = two, one
		}
		one()
		two()
	}
	b.ReportMetric(float64(restliT.Nanoseconds())/float64(i*n), "restli-ns/proposal")
	b.ReportMetric(float64(openAPIT.Nanoseconds())/float64(i*n), "openapi-ns/proposal")
	b.ReportMetric(float64(restliT)/float64(openAPIT), "restli/openapi")
	b.ReportMetric(float64(restliCPU.Nanoseconds())/float64(i*n), "restli-cpu-ns/proposal")
	b.ReportMetric(float64(openAPICPU.Nanoseconds())/float64(i*n), "openapi-cpu-ns/proposal")
}
