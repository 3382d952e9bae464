package mockserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
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
	f.Add(batchBody(f, mcp("dataset", dsURN, "UPSERT", "globalTags", `{"tags":[{"tag":"urn:li:tag:a"}]}`),
		mcp("dataset", dsURN, "PATCH", "globalTags", `[{"op":"add","path":"/tags/urn:li:tag:b","value":{"tag":"urn:li:tag:b"}},{"op":"remove","path":"/tags/urn:li:tag:a"}]`)), true)
	f.Add(ingestBody(f, mcp("mlModel", "urn:li:mlModel:(urn:li:dataPlatform:m,n,PROD)", "PATCH", "mlModelProperties",
		`{"patch":[{"op":"add","path":"/mlFeatures/urn:li:mlFeature:(a,b)","value":"urn:li:mlFeature:(a,b)"}],"arrayPrimaryKeys":{"mlFeatures":[]},"forceGenericPatch":true}`), "false"), false)
	f.Add(`{"proposal":{"entityType":"dataset","entityUrn":"`+dsURN+`","changeType":"UPSERT","aspectName":"status","aspect":{"value":"{\"removed\":true}","contentType":"application/json"},"headers":{"If-Modified-Since":"2024-01-01T00:00:00Z","If-Unmodified-Since":"x","If-Version-Match":""}}}`, false)
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
		if r.Status != http.StatusOK && len(storeRows(t, s)) != 0 {
			t.Fatalf("refused request (%d %s) changed state", r.Status, r.Body)
		}
	})
}

// FuzzIngestFidelity checks that an accepted proposal's aspect is stored
// as encoding/json reads it from the body: aspect.value decoded as Pegasus
// bytes (no char above U+00FF), then compacted as json.Compact does.
func FuzzIngestFidelity(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "python_emitter_ingest_proposal.json")); err == nil {
		f.Add(string(b))
	}
	f.Add(ingestBody(f, mcp("mlFeature", "urn:li:mlFeature:(ns,f)", "UPSERT", "mlFeatureProperties",
		`{"description": "d\u00e9 \ud83d\ude00 <&>", "dataType": "TEXT", "sources": ["urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)"]}`), "false"))
	f.Add(ingestBody(f, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description": "x\t\"y\\u00e9", "customProperties": {"a": "b"}}`), "false"))
	f.Add(ingestBody(f, mcp("chart", "urn:li:chart:(looker,c)", "UPSERT", "globalTags", `{"tags": [ ] , "x" : 1.50e+3}`), "false"))
	f.Fuzz(func(t *testing.T, body string) {
		s := New()
		defer s.Close()
		r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", body)
		if r.Status != http.StatusOK {
			return
		}
		// Decoded through maps, whose keys match exactly as the mock's do
		// (a struct would match them case-insensitively).
		var top, prop, asp map[string]json.RawMessage
		var name, value string
		if json.Unmarshal([]byte(body), &top) != nil || json.Unmarshal(top["proposal"], &prop) != nil {
			t.Fatalf("accepted %q that encoding/json refuses", body)
		}
		if ct := ""; json.Unmarshal(prop["changeType"], &ct) == nil && ct == "DELETE" {
			return // no aspect
		}
		for _, step := range []error{json.Unmarshal(prop["aspectName"], &name), json.Unmarshal(prop["aspect"], &asp),
			json.Unmarshal(asp["value"], &value)} {
			if step != nil {
				t.Fatalf("accepted %q that encoding/json refuses: %v", body, step)
			}
		}
		var raw []byte
		for _, r := range value {
			if r > 0xFF {
				t.Fatalf("accepted char %U > U+00FF in %q", r, body)
			}
			raw = append(raw, byte(r))
		}
		var want bytes.Buffer
		if err := json.Compact(&want, raw); err != nil {
			t.Fatalf("accepted aspect %q that json.Compact refuses: %v", raw, err)
		}
		for _, a := range storeRows(t, s) {
			// ownership is stored with the ownerTypes GMS's OwnershipOwnerTypes
			// hook materialises from its owners, not as written.
			if a.Name == name && a.Name != "ownership" && a.Version == 0 && string(a.Value) != want.String() {
				t.Fatalf("stored %s, want %s (body %q)", a.Value, want.String(), body)
			}
		}
	})
}

// FuzzIngestDecode checks that decoding an ingest body through its outline
// (one pass splits every level) gives the proposals and the error that
// splitting each level afresh gives.
func FuzzIngestDecode(f *testing.F) {
	addIngestDecodeSeeds(f)
	f.Fuzz(func(t *testing.T, body string, batch bool) {
		var o pdl.Outline
		for range 2 { // again into the same outline
			got, gotAsync, gotErr := decodeIngestWith(&o, []byte(body), batch)
			want, wantAsync, wantErr := decodeIngestWith(nil, []byte(body), batch)
			if diff := cmp.Diff([]any{want, wantAsync, wantErr}, []any{got, gotAsync, gotErr},
				cmp.AllowUnexported(restliError{})); diff != "" {
				t.Fatalf("decode of %q through its outline (-afresh +outline):\n%s", body, diff)
			}
		}
	})
}

// addIngestDecodeSeeds adds the seeds of the ingest decode's fuzz targets:
// bodies (and their batch flag) the Python emitter sends and ones that
// break every rule of the decode.
func addIngestDecodeSeeds(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "python_emitter_ingest_proposal.json")); err == nil {
		f.Add(string(b), false)
		f.Add(strings.Replace(string(b), `"proposal": {`, `"proposals": [{`, 1)[:len(b)-2]+"}]}", true)
	}
	f.Add(batchBody(f, mcp("dataset", dsURN, "CREATE", "status", `{"removed": true}`), mcp("dataset", dsURN, "DELETE", "datasetKey", "")), true)
	f.Add(`{"proposals":[{"entityType":"dataset","entityUrn":"u","changeType":"X","aspect":{"value":"{}","contentType":1,"x":{}},"headers":{"b":"1","a":2,"a":"3"},"systemMetadata":{"runId":1},"auditHeader":[],"y":null},5,{},[]],"async":"TRUE"}`, true)
	f.Add(`{"proposal":{"entityType":"dataset","entityKeyAspect":{"value":"\u00e9\u0100","contentType":"application/json"},"changeType":"UPSERT","systemMetadata":{"lastObserved":1, "properties" : {"a":"b"}}}}`, false)
	f.Add(`{"proposals":{"a":1},"async":true}`, true)
	// Repeated systemMetadata (the memo's case), one changed, one refused twice.
	sm := func(s string) map[string]any {
		p := mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`)
		p["systemMetadata"] = json.RawMessage(s)
		return p
	}
	f.Add(batchBody(f, sm(`{"runId": "a"}`), sm(`{"runId": "a"}`), sm(`{"runId":"b"}`), sm(`{"runId":1}`), sm(`{"runId":1}`), sm(`{"runId":"b"}`)), true)
	one := `{"entityType":"dataset","entityUrn":"` + dsURN + `","changeType":"UPSERT","aspectName":"status","aspect":{"value":"{\"removed\": false}","contentType":"application/json"},"systemMetadata":{"runId": "r", "lastObserved": 5}}`
	f.Add(`{"proposals":[`+one+`,`+one+`,`+strings.Replace(one, `"r"`, `"s"`, 1)+`,`+one+`]}`, true)
	f.Add(quickMemoBatch(), true) // strings and keys the quick decode matches by their text
}
