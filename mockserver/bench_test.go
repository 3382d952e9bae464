package mockserver

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
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
	s := New(WithRecording(false))
	b.Cleanup(func() { _ = s.Close() })
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		req := httptest.NewRequest(http.MethodPost, "/aspects?action=ingestProposalBatch", bytes.NewReader(bodies[i%2]))
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("= %d %s", rec.Code, rec.Body)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(i*n), "ns/proposal")
}
