package mockserver

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/catalogkit/datahub-go/internal/par"
)

// BenchmarkIngestProposal measures the mock's handling of the Python
// emitter's ingestProposal body (decode, validate, store) against a handler
// that only reads the same bytes and answers success; the ratio of the two
// is the mock's overhead per proposal.
func BenchmarkIngestProposal(b *testing.B) {
	body, err := os.ReadFile(filepath.Join("testdata", "python_emitter_ingest_proposal.json"))
	if err != nil {
		b.Fatal(err)
	}
	noop := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		writeSuccess(w)
	})
	// The same body twice is an unchanged write (no new version, as in GMS);
	// "mock-versioned" alternates two owners so that every write versions.
	other := bytes.Replace(body, []byte("fbar"), []byte("fbaz"), -1)
	// "mock-lineage" writes an upstreamLineage with three upstreams and a
	// fine-grained lineage: an aspect the mock once stored after a
	// structural check only, now validated against its record.
	lineage := upstreamLineageBody(b)
	s := New()
	b.Cleanup(func() { _ = s.Close() })
	for _, bm := range []struct {
		name   string
		h      http.Handler
		bodies [][]byte
	}{{"mock", s, [][]byte{body}}, {"mock-versioned", s, [][]byte{body, other}}, {"mock-lineage", s, [][]byte{lineage}}, {"noop", noop, [][]byte{body}}} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			i := 0
			for b.Loop() {
				i++
				req := httptest.NewRequest(http.MethodPost, "/aspects?action=ingestProposal", bytes.NewReader(bm.bodies[i%len(bm.bodies)]))
				rec := httptest.NewRecorder()
				bm.h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("= %d %s", rec.Code, rec.Body)
				}
			}
		})
	}
}

// upstreamLineageBody is an ingestProposal body writing a dataset's
// upstreamLineage as DataHub's Python emitter sends it.
func upstreamLineageBody(tb testing.TB) []byte {
	tb.Helper()
	const value = `{"upstreams": [` +
		`{"auditStamp": {"time": 0, "actor": "urn:li:corpuser:unknown"}, "dataset": "urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)", "type": "TRANSFORMED"}, ` +
		`{"auditStamp": {"time": 0, "actor": "urn:li:corpuser:unknown"}, "dataset": "urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)", "type": "TRANSFORMED"}, ` +
		`{"auditStamp": {"time": 0, "actor": "urn:li:corpuser:unknown"}, "dataset": "urn:li:dataset:(urn:li:dataPlatform:hive,db.c,PROD)", "type": "COPY"}], ` +
		`"fineGrainedLineages": [{"upstreamType": "FIELD_SET", "upstreams": ["urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD),x)"], ` +
		`"downstreamType": "FIELD", "downstreams": ["urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),x)"], "confidenceScore": 1.0}]}`
	p := map[string]any{"entityType": "dataset", "entityUrn": "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",
		"changeType": "UPSERT", "aspectName": "upstreamLineage",
		"aspect": map[string]any{"value": value, "contentType": "application/json"}}
	return []byte(ingestBody(tb, p, "false"))
}

// BenchmarkIngestBatchHandler is BenchmarkIngestHTTP's batch200 without the
// network: bodies of 200 proposals (every write a new version) straight into
// the handler, for profiles of the mock's own cost per proposal.
func BenchmarkIngestBatchHandler(b *testing.B) {
	const n = 200
	bodies := ingestBodies(b, n)
	benchBatches(b, "/aspects?action=ingestProposalBatch", bodies, n)
}

// benchBatches posts the bodies, of n proposals each, in turns to target
// on a new server without recording, and reports the time per proposal.
func benchBatches(b *testing.B, target string, bodies [2][]byte, n int) {
	s := New(WithRecording(false))
	b.Cleanup(func() { _ = s.Close() })
	b.ReportAllocs()
	i := 0
	par0 := par.Stats()
	for b.Loop() {
		i++
		req := httptest.NewRequest(http.MethodPost, target, bytes.NewReader(bodies[i%2]))
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("= %d %s", rec.Code, rec.Body)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(i*n), "ns/proposal")
	reportSplits(b, par0, i)
}

// BenchmarkV3WriteHandler is BenchmarkIngestBatchHandler through the
// OpenAPI v3 entity API: bodies of 200 entities with one ownership aspect
// each (every write a new version) straight into the handler, synchronous.
func BenchmarkV3WriteHandler(b *testing.B) {
	const n = 200
	var bodies [2][]byte
	for v, owner := range []string{"fbar", "fbaz"} {
		var buf bytes.Buffer
		buf.WriteByte('[')
		for i := range n {
			if i > 0 {
				buf.WriteByte(',')
			}
			fmt.Fprintf(&buf, `{"urn":"urn:li:dataset:(urn:li:dataPlatform:foo,bar%d,PROD)","ownership":{"value":`+
				`{"owners":[{"owner":"urn:li:corpuser:%s","type":"DATAOWNER"}],"ownerTypes":{},"lastModified":{"time":0,"actor":"urn:li:corpuser:%[2]s"}},`+
				`"systemMetadata":{"lastObserved":1618987484580,"runId":"no-run-id-provided","properties":{"clientId":"acryl-datahub"}}}}`, i, owner)
		}
		buf.WriteByte(']')
		bodies[v] = buf.Bytes()
	}
	benchBatches(b, "/openapi/v3/entity/dataset?async=false", bodies, n)
}
