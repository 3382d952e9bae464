package mockserver

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// FuzzIngestProposal checks that no body makes the mock answer 500 or
// panic, and that a refused request changes no state.
func FuzzIngestProposal(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "python_emitter_ingest_proposal.json")); err == nil {
		f.Add(string(b), false)
	}
	f.Add(ingestBody(f, mcp("mlFeature", "urn:li:mlFeature:(ns,f)", "UPSERT", "mlFeatureProperties",
		`{"description": "d", "dataType": "TEXT", "sources": ["urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)"]}`), "false"), false)
	f.Add(ingestBody(f, mcp("dataset", dsURN, "UPSERT", "datasetProfile", `{"timestampMillis": 1, "rowCount": 2}`), "true"), false)
	f.Add(batchBody(f, mcp("dataset", dsURN, "CREATE", "status", `{"removed": true}`), mcp("dataset", dsURN, "DELETE", "datasetKey", "")), true)
	f.Add(`{"proposal":{"entityType":"dataset","entityKeyAspect":{"value":"{\"platform\":\"urn:li:dataPlatform:x\",\"name\":\"n\",\"origin\":\"PROD\"}","contentType":"application/json"},"changeType":"UPSERT","aspectName":"status","aspect":{"value":"{\"removed\":true}","contentType":"application/json"},"headers":{"If-Version-Match":"-1"}}}`, false)
	f.Fuzz(func(t *testing.T, body string, batch bool) {
		s := New()
		defer s.Close()
		target := "/aspects?action=ingestProposal"
		if batch {
			target = "/aspects?action=ingestProposalBatch"
		}
		r := serve(t, s, http.MethodPost, target, body)
		if r.Status >= 500 {
			t.Fatalf("= %d %s", r.Status, r.Body)
		}
		if r.Status != http.StatusOK && len(s.store.All()) != 0 {
			t.Fatalf("refused request (%d %s) changed state", r.Status, r.Body)
		}
	})
}
