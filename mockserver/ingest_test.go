package mockserver

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/testshared"
)

// TestIngestProposalErrors sends every kind of bad proposal and checks
// GMS's status and message, and that nothing was written.
func TestIngestProposalErrors(t *testing.T) {
	t.Parallel()
	props := `{"description": "d"}`
	longURN := "urn:li:dataset:(urn:li:dataPlatform:hive," + strings.Repeat("x", 500) + ",PROD)"
	tests := []struct {
		name   string
		body   string
		status int
		msg    string
	}{
		{"body not JSON", `{"proposal":`, 400, "Error parsing entity body"},
		{"body not an object", `[1]`, 400, "Error parsing entity body"},
		{"no proposal", `{"async":"false"}`, 400,
			"Parameters of method 'ingestProposal' failed validation with error 'ERROR :: /proposal :: field is required but not found and has no default value'"},
		{"no entityType", ingestBody(t, map[string]any{"entityUrn": dsURN, "changeType": "UPSERT"}, ""), 400,
			"ERROR :: /proposal/entityType :: field is required but not found and has no default value"},
		{"unknown MCP field", ingestBody(t, map[string]any{"entityType": "dataset", "entityURN": dsURN, "changeType": "UPSERT"}, ""), 400,
			"ERROR :: /proposal/entityURN :: unrecognized field found but not allowed"},
		{"bad changeType symbol", ingestBody(t, mcp("dataset", dsURN, "MERGE", "status", `{"removed": false}`), ""), 400,
			`ERROR :: /proposal/changeType :: "MERGE" is not an enum symbol`},
		{"unknown systemMetadata field", ingestBody(t, func() map[string]any {
			p := mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`)
			p["systemMetadata"] = map[string]any{"lastObserve": 1, "runId": "r"}
			return p
		}(), ""), 400, "ERROR :: /proposal/systemMetadata/lastObserve :: unrecognized field found but not allowed"},
		{"systemMetadata field of the wrong type", ingestBody(t, func() map[string]any {
			p := mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`)
			p["systemMetadata"] = map[string]any{"lastObserved": "yesterday"}
			return p
		}(), ""), 400, "ERROR :: /proposal/systemMetadata/lastObserved ::"},
		{"async not a string", `{"proposal":` + mustJSON(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`)) + `,"async":true}`, 400,
			"ERROR :: /async :: true cannot be coerced to String"},
		{"aspect value not a string", ingestBody(t, map[string]any{"entityType": "dataset", "entityUrn": dsURN, "changeType": "UPSERT",
			"aspectName": "status", "aspect": map[string]any{"value": map[string]any{"removed": false}, "contentType": "application/json"}}, ""), 400,
			`ERROR :: /proposal/aspect/value :: {"removed":false} cannot be coerced to ByteString`},
		{"unknown member of an aspect", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "subTypes", `{"typeNames": ["View"], "x-extra": {"n": 1.50}}`), ""), 422,
			"Failed to validate record with class com.linkedin.common.SubTypes: [ERROR :: /x-extra :: unrecognized field found but not allowed]"},
		{"aspect value char above U+00FF", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description": "€"}`), ""), 400,
			"is not a valid string representation of bytes"},
		{"aspect value not UTF-8 bytes", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description": "é"}`), ""), 400,
			"is not valid UTF-8 once decoded as Pegasus bytes"},
		{"bad urn", ingestBody(t, mcp("dataset", "urn:li:dataset:foo", "UPSERT", "status", `{"removed": false}`), ""), 400,
			"Invalid urn: urn:li:dataset:foo\n Cause:"},
		{"not a urn", ingestBody(t, mcp("dataset", "dataset-foo", "UPSERT", "status", `{"removed": false}`), ""), 400,
			"Invalid urn: dataset-foo"},
		{"urn with the browse path delimiter", ingestBody(t, mcp("dataset", "urn:li:dataset:(urn:li:dataPlatform:hive,a␟b,PROD)", "UPSERT", "status", `{"removed": false}`), ""), 400,
			"Error: URN cannot contain ␟ character"},
		{"urn whitespace", ingestBody(t, mcp("dataset", " "+dsURN, "UPSERT", "status", `{"removed": false}`), ""), 400,
			"Error: cannot provide an URN with leading or trailing whitespace"},
		{"urn too long", ingestBody(t, mcp("dataset", longURN, "UPSERT", "status", `{"removed": false}`), ""), 400,
			"Error: cannot provide an URN longer than 512 bytes (when URL encoded)"},
		{"bad FabricType", ingestBody(t, mcp("dataset", "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,NOPE)", "UPSERT", "status", `{"removed": false}`), ""), 400,
			"Invalid urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.t,NOPE)"},
		{"urn parts do not fit the key", ingestBody(t, mcp("dataJob", "urn:li:dataJob:x", "UPSERT", "status", `{"removed": false}`), ""), 400,
			"Invalid urn: urn:li:dataJob:x\n Cause: URN urn:li:dataJob:x has 1 parts but the key aspect dataJobKey has 2 fields"},
		{"no urn and no key", ingestBody(t, mcp("dataset", "", "UPSERT", "status", `{"removed": false}`), ""), 400,
			"One of urn and keyAspect must be set"},
		{"unknown entity", ingestBody(t, mcp("foo", "urn:li:foo:bar", "UPSERT", "status", `{"removed": false}`), ""), 422,
			"Unknown entity: foo"},
		{"unknown entity of the urn", ingestBody(t, mcp("dataset", "urn:li:foo:bar", "UPSERT", "status", `{"removed": false}`), ""), 422,
			"Unknown entity: foo"},
		{"unknown entityType for a known urn", ingestBody(t, mcp("foo", dsURN, "UPSERT", "status", `{"removed": false}`), ""), 422,
			"URN entity type does not match MCP entity type. dataset != foo"},
		{"unknown entityType with a key aspect", ingestBody(t, map[string]any{"entityType": "foo", "changeType": "UPSERT", "aspectName": "status",
			"entityKeyAspect": map[string]any{"value": `{"id": "x"}`, "contentType": "application/json"}}, ""), 422,
			"Unknown entity: foo"},
		{"entity type mismatch", ingestBody(t, mcp("dataset", "urn:li:mlFeature:(ns,f)", "UPSERT", "status", `{"removed": false}`), ""), 422,
			"URN entity type does not match MCP entity type. mlFeature != dataset"},
		{"unknown aspect", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "foo", `{}`), ""), 422,
			"Unknown aspect foo for entity dataset"},
		{"aspect of another entity", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "mlFeatureProperties", `{}`), ""), 422,
			"Unknown aspect mlFeatureProperties for entity dataset"},
		{"no aspectName", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "", props), ""), 422,
			"Aspect name is required for create and update operations"},
		{"no aspect", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProperties", ""), ""), 422,
			"Aspect value is required"},
		{"content type", ingestBody(t, map[string]any{"entityType": "dataset", "entityUrn": dsURN, "changeType": "UPSERT",
			"aspectName": "status", "aspect": map[string]any{"value": `{"removed": false}`, "contentType": "text/plain"}}, ""), 400,
			`Unsupported aspect content type "text/plain"`},
		{"aspect not JSON", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description": `), ""), 400,
			"Aspect datasetProperties of dataset is not a JSON object"},
		{"aspect an array", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "subTypes", `["View"]`), ""), 400,
			"Aspect subTypes of dataset is not a JSON object: found an array"},
		{"unknown aspect field", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"descripton": "d"}`), ""), 422,
			"Failed to validate record with class com.linkedin.dataset.DatasetProperties: [ERROR :: /descripton :: unrecognized field found but not allowed]"},
		{"wrong field type", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description": 5}`), ""), 422,
			"Failed to validate record with class com.linkedin.dataset.DatasetProperties: [ERROR :: /description ::"},
		{"missing required field", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "ownership", `{"ownerTypes": {}}`), ""), 422,
			"Failed to validate record with class com.linkedin.common.Ownership: [ERROR :: /owners :: field is required but not found and has no default value"},
		{"bad enum in nested record", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "ownership",
			`{"owners": [{"owner": "urn:li:corpuser:x", "type": "BOSS"}]}`), ""), 422,
			"ERROR :: /owners/0/type ::"},
		{"timeseries without timestampMillis", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProfile", `{"rowCount": 3}`), ""), 422,
			"timestampMillis"},
		{"PATCH with a bad op", ingestBody(t, mcp("dataset", dsURN, "PATCH", "datasetProperties", `[{"op":"frob","path":"/description"}]`), ""), 400,
			"Invalid JSON Patch: patch datasetProperties: unsupported patch operation"},
		{"PATCH whose result does not validate", ingestBody(t, mcp("dataset", dsURN, "PATCH", "datasetProperties", `[{"op":"add","path":"/description","value":7}]`), ""), 422,
			"Failed to validate record with class com.linkedin.dataset.DatasetProperties"},
		{"PATCH of an aspect with a template whose result does not validate", ingestBody(t, mcp("dataset", dsURN, "PATCH", "upstreamLineage",
			`[{"op":"add","path":"/upstreams/urn:li:dataset:(urn:li:dataPlatform:hive,up,PROD)","value":{"dataset":"urn:li:dataset:(urn:li:dataPlatform:hive,up,PROD)","type":"SIDEWAYS"}}]`), ""), 422,
			`Failed to validate record with class com.linkedin.dataset.UpstreamLineage: [ERROR :: /upstreams/0/type :: "SIDEWAYS" is not an enum symbol]`},
		{"PATCH adding an unknown member", ingestBody(t, mcp("dataset", dsURN, "PATCH", "subTypes", `{"patch":[{"op":"add","path":"/zzNotAField","value":1}],"forceGenericPatch":true}`), ""), 422,
			"Failed to validate record with class com.linkedin.common.SubTypes: [ERROR :: /zzNotAField :: unrecognized field found but not allowed]"},
		{"UPDATE", ingestBody(t, mcp("dataset", dsURN, "UPDATE", "datasetProperties", props), ""), 422,
			"Change type UPDATE is not supported by this mock"},
		{"RESTATE", ingestBody(t, mcp("dataset", dsURN, "RESTATE", "datasetProperties", props), ""), 422,
			"Change type RESTATE is not supported by this mock"},
		{"DELETE of a non-key aspect", ingestBody(t, mcp("dataset", dsURN, "DELETE", "datasetProperties", ""), ""), 422,
			"Delete not supported for non key aspect: datasetProperties"},
		{"CREATE of a timeseries aspect", ingestBody(t, mcp("dataset", dsURN, "CREATE", "datasetProfile", `{"timestampMillis": 1, "rowCount": 2}`), ""), 422,
			"change type CREATE not supported for timeseries aspect datasetProfile"},
		{"CREATE_ENTITY of a timeseries aspect", ingestBody(t, mcp("dataset", dsURN, "CREATE_ENTITY", "datasetProfile", `{"timestampMillis": 1, "rowCount": 2}`), ""), 422,
			"change type CREATE_ENTITY not supported for timeseries aspect datasetProfile"},
		{"async CREATE of a timeseries aspect", ingestBody(t, mcp("dataset", dsURN, "CREATE", "datasetProfile", `{"timestampMillis": 1, "rowCount": 2}`), "true"), 422,
			"change type CREATE not supported for timeseries aspect datasetProfile"},
		{"PATCH of a timeseries aspect", ingestBody(t, mcp("dataset", dsURN, "PATCH", "datasetProfile", `[{"op":"add","path":"/rowCount","value":2}]`), ""), 422,
			"change type PATCH not supported for timeseries aspect datasetProfile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", tt.body)
			wantRestliError(t, r, tt.status, tt.msg)
			if got := storeRows(t, s); len(got) != 0 {
				t.Errorf("state changed by a refused proposal: %v", got)
			}
		})
	}
}

// TestPythonEmitterBody posts the body DataHub's Python emitter test pins
// (WIRE.md §1.3) byte for byte and reads the aspect back.
func TestPythonEmitterBody(t *testing.T) {
	t.Parallel()
	body, err := readTestdata("python_emitter_ingest_proposal.json")
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t)
	r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", string(body))
	if diff := cmp.Diff(response{Status: 200, Body: `{"value":"success"}`}, response{Status: r.Status, Body: r.Body}); diff != "" {
		t.Fatalf("ingestProposal (-want +got):\n%s", diff)
	}
	// Read back as DataHub's Python client does: urllib.parse.quote(urn, safe="").
	got := serve(t, s, http.MethodGet,
		"/aspects/urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Afoo%2Cbar%2CPROD%29?aspect=ownership&version=0", "")
	if got.Status != http.StatusOK {
		t.Fatalf("GET /aspects = %d %s", got.Status, got.Body)
	}
	golden(t, "python_emitter_get_aspect.json", []byte(got.Body))

	// The systemMetadata the emitter sent is kept, with the version added.
	raw, err := s.store.Get("urn:li:dataset:(urn:li:dataPlatform:foo,bar,PROD)", "ownership", 0)
	if err != nil {
		t.Fatal(err)
	}
	var sm map[string]any
	if err := json.Unmarshal(raw.SystemMetadata, &sm); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"lastObserved": 1618987484580.0, "lastRunId": "no-run-id-provided", "runId": "no-run-id-provided",
		"properties": map[string]any{"clientId": "acryl-datahub", "clientVersion": "1!0.0.0.dev0"}, "schemaVersion": 1.0, "version": "1"}
	if diff := cmp.Diff(want, sm); diff != "" {
		t.Errorf("systemMetadata (-want +got):\n%s", diff)
	}
}

// TestPythonEmitterBodyIsWIREFact checks that the golden request is the
// exact JSON quoted in WIRE.md §1.3.
func TestPythonEmitterBodyIsWIREFact(t *testing.T) {
	t.Parallel()
	wire := string(testshared.ReadFile(t, "reference", "WIRE.md"))
	const marker = "Exact example from `metadata-ingestion/tests/unit/test_rest_sink.py`"
	i := strings.Index(wire, marker)
	if i < 0 {
		t.Fatalf("WIRE.md has no %q", marker)
	}
	block := wire[i:]
	start := strings.Index(block, "```json\n") + len("```json\n")
	end := strings.Index(block[start:], "```")
	want := block[start : start+end]
	got, err := readTestdata("python_emitter_ingest_proposal.json")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("testdata differs from WIRE.md §1.3 (-wire +testdata):\n%s", diff)
	}
}

// TestJavaEmitterBody posts the Java emitter's body (WIRE.md §1.6): no
// async, no systemMetadata, other key order.
func TestJavaEmitterBody(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	body := `{"proposal":{"aspectName":"datasetProperties","entityUrn":"urn:li:dataset:(urn:li:dataPlatform:hive,foo.bar,PROD)","entityType":"dataset","changeType":"UPSERT","aspect":{"contentType":"application/json","value":"{\"description\":\"Test Dataset\"}"}}}`
	r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", body)
	if r.Status != 200 {
		t.Fatalf("ingestProposal = %d %s", r.Status, r.Body)
	}
	got, status := aspectJSON(t, s, "urn%3Ali%3Adataset%3A(urn%3Ali%3AdataPlatform%3Ahive%2Cfoo.bar%2CPROD)", "datasetProperties", 0)
	if diff := cmp.Diff(`{"description":"Test Dataset"}`, got); status != 200 || diff != "" {
		t.Errorf("read back %d (-want +got):\n%s", status, diff)
	}
}

func TestIngestAccepted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		proposal  map[string]any
		async     string
		urnPath   string
		aspect    string
		wantValue string
	}{
		{
			name:      "aspect stored as sent",
			proposal:  mcp("dataset", dsURN, "UPSERT", "subTypes", `{"typeNames": ["View", "\u00e9"]}`),
			urnPath:   dsPath,
			aspect:    "subTypes",
			wantValue: `{"typeNames":["View","\u00e9"]}`,
		},
		{
			name:      "entityType in another case (GMS compares ignoring case)",
			proposal:  mcp("DataSet", dsURN, "UPSERT", "status", `{"removed": true}`),
			urnPath:   dsPath,
			aspect:    "status",
			wantValue: `{"removed":true}`,
		},
		{
			name:      "async unset",
			proposal:  mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`),
			async:     "unset",
			urnPath:   dsPath,
			aspect:    "status",
			wantValue: `{"removed":false}`,
		},
		{
			name: "entityKeyAspect instead of entityUrn",
			proposal: map[string]any{"entityType": "mlFeature", "changeType": "UPSERT", "aspectName": "mlFeatureProperties",
				"entityKeyAspect": map[string]any{"value": `{"featureNamespace": "ns", "name": "f"}`, "contentType": "application/json"},
				"aspect":          map[string]any{"value": `{"description": "desc", "dataType": "CONTINUOUS"}`, "contentType": "application/json"}},
			urnPath:   "urn%3Ali%3AmlFeature%3A%28ns%2Cf%29",
			aspect:    "mlFeatureProperties",
			wantValue: `{"description":"desc","dataType":"CONTINUOUS"}`,
		},
		{
			name: "single-field key aspect",
			proposal: map[string]any{"entityType": "corpuser", "changeType": "UPSERT", "aspectName": "status",
				"entityKeyAspect": map[string]any{"value": `{"username": "jdoe"}`, "contentType": "application/json"},
				"aspect":          map[string]any{"value": `{"removed": false}`, "contentType": "application/json"}},
			urnPath:   "urn%3Ali%3Acorpuser%3Ajdoe",
			aspect:    "corpUserKey",
			wantValue: `{"username":"jdoe"}`,
		},
		{
			name:      "key aspect written with the first aspect",
			proposal:  mcp("mlModel", "urn:li:mlModel:(urn:li:dataPlatform:sagemaker,m,DEV)", "UPSERT", "status", `{"removed": false}`),
			urnPath:   "urn%3Ali%3AmlModel%3A%28urn%3Ali%3AdataPlatform%3Asagemaker%2Cm%2CDEV%29",
			aspect:    "mlModelKey",
			wantValue: `{"platform":"urn:li:dataPlatform:sagemaker","name":"m","origin":"DEV"}`,
		},
		{
			name:      "unicode escapes kept",
			proposal:  mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description": "caf\u00e9 \u003c"}`),
			urnPath:   dsPath,
			aspect:    "datasetProperties",
			wantValue: `{"description":"caf\u00e9 \u003c"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", ingestBody(t, tt.proposal, tt.async))
			if r.Status != 200 {
				t.Fatalf("ingestProposal = %d %s", r.Status, r.Body)
			}
			got, status := aspectJSON(t, s, tt.urnPath, tt.aspect, 0)
			if diff := cmp.Diff(tt.wantValue, got); status != 200 || diff != "" {
				t.Errorf("read back %d (-want +got):\n%s", status, diff)
			}
		})
	}
}

func TestIngestProposalBatch(t *testing.T) {
	t.Parallel()
	good := func(i int) map[string]any {
		return mcp("dataset", "urn:li:dataset:(urn:li:dataPlatform:hive,t"+itoa(i)+",PROD)", "UPSERT", "status", `{"removed": false}`)
	}
	t.Run("all written", func(t *testing.T) {
		t.Parallel()
		s := newServer(t)
		r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", batchBody(t, good(0), good(1), good(2)))
		if r.Status != 200 || r.Body != `{"value":"success"}` {
			t.Fatalf("batch = %d %s", r.Status, r.Body)
		}
		// status, datasetKey, browsePathsV2 and dataPlatformInstance per entity
		if got := len(storeRows(t, s)); got != 12 {
			t.Errorf("rows = %d, want 12", got)
		}
	})
	t.Run("one bad item writes nothing and every bad item is named", func(t *testing.T) {
		t.Parallel()
		s := newServer(t)
		bad1 := mcp("dataset", dsURN, "UPSERT", "foo", `{}`)
		bad3 := mcp("dataset", "urn:li:dataset:bad", "UPSERT", "status", `{"removed": false}`)
		r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", batchBody(t, good(0), bad1, good(2), bad3))
		e := wantRestliError(t, r, 422, "2 of 4 proposals are invalid, nothing was written: [1] Unknown aspect foo for entity dataset; [3] Invalid urn: urn:li:dataset:bad")
		if strings.Contains(e.Message, "[0]") || strings.Contains(e.Message, "[2]") {
			t.Errorf("good items named as bad: %s", e.Message)
		}
		if got := storeRows(t, s); len(got) != 0 {
			t.Errorf("state changed: %v", got)
		}
	})
	t.Run("shape errors name the item path", func(t *testing.T) {
		t.Parallel()
		s := newServer(t)
		r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch",
			`{"proposals":[`+mustJSON(t, good(0))+`,{"entityUrn":"x","changeType":"UPSERT"}]}`)
		wantRestliError(t, r, 400, "Parameters of method 'ingestProposalBatch' failed validation with error 'ERROR :: /proposals/1/entityType :: field is required")
	})
	t.Run("no proposals", func(t *testing.T) {
		t.Parallel()
		s := newServer(t)
		r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", `{"async":"false"}`)
		wantRestliError(t, r, 400, "ERROR :: /proposals :: field is required")
	})
	t.Run("failed condition writes nothing", func(t *testing.T) {
		t.Parallel()
		s := newServer(t)
		cond := good(1)
		cond["headers"] = map[string]string{"If-Version-Match": "7"}
		r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", batchBody(t, good(0), cond))
		wantRestliError(t, r, 412, "[1] Expected version 7, actual version -1")
		if got := storeRows(t, s); len(got) != 0 {
			t.Errorf("state changed: %v", got)
		}
	})
}

func TestConditionalWrites(t *testing.T) {
	t.Parallel()
	with := func(p map[string]any, headers map[string]string) map[string]any {
		p["headers"] = headers
		return p
	}
	desc := func(d string) string { return `{"description": "` + d + `"}` }
	s := newServer(t)
	post := func(p map[string]any) response {
		return serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", ingestBody(t, p, "false"))
	}
	steps := []struct {
		name   string
		p      map[string]any
		status int
		msg    string
	}{
		{"must not exist, absent", with(mcp("dataset", dsURN, "UPSERT", "datasetProperties", desc("a")), map[string]string{"If-Version-Match": "-1"}), 200, ""},
		{"must not exist, present", with(mcp("dataset", dsURN, "UPSERT", "datasetProperties", desc("b")), map[string]string{"If-Version-Match": "-1"}), 412, "Expected version -1, actual version 1"},
		{"version matches", with(mcp("dataset", dsURN, "UPSERT", "datasetProperties", desc("c")), map[string]string{"If-Version-Match": "1"}), 200, ""},
		{"stale version", with(mcp("dataset", dsURN, "UPSERT", "datasetProperties", desc("d")), map[string]string{"If-Version-Match": "1"}), 412, "Expected version 1, actual version 2"},
		{"CREATE of an existing aspect", mcp("dataset", dsURN, "CREATE", "datasetProperties", desc("e")), 422, "Cannot perform CREATE since the aspect already exists."},
		{"CREATE with If-None-Match is a no-op", with(mcp("dataset", dsURN, "CREATE", "datasetProperties", desc("f")), map[string]string{"If-None-Match": "*"}), 200, ""},
		{"CREATE of a new aspect", mcp("dataset", dsURN, "CREATE", "status", `{"removed": false}`), 200, ""},
		{"CREATE_ENTITY of an existing entity", mcp("dataset", dsURN, "CREATE_ENTITY", "globalTags", `{"tags": []}`), 422, "Cannot perform CREATE_ENTITY if not exists since the entity key already exists."},
		{"CREATE_ENTITY with If-None-Match", with(mcp("dataset", dsURN, "CREATE_ENTITY", "globalTags", `{"tags": []}`), map[string]string{"If-None-Match": "*"}), 200, ""},
		{"CREATE_ENTITY of a new entity", mcp("dataset", "urn:li:dataset:(urn:li:dataPlatform:hive,new,PROD)", "CREATE_ENTITY", "globalTags", `{"tags": []}`), 200, ""},
	}
	for _, st := range steps { // sequential: each step sees the state of the previous ones
		r := post(st.p)
		if st.status == 200 {
			if r.Status != 200 {
				t.Errorf("%s: %d %s", st.name, r.Status, r.Body)
			}
			continue
		}
		t.Run(st.name, func(t *testing.T) { wantRestliError(t, r, st.status, st.msg) })
	}
	// Refused conditional writes are recorded with the reason.
	var refused []string
	for _, p := range s.Proposals() {
		if p.Err != "" {
			refused = append(refused, p.Err)
		}
	}
	wantRefused := []string{"Expected version -1, actual version 1", "Expected version 1, actual version 2",
		"Cannot perform CREATE since the aspect already exists.", "Cannot perform CREATE_ENTITY if not exists since the entity key already exists."}
	if diff := cmp.Diff(wantRefused, refused); diff != "" {
		t.Errorf("refused proposals (-want +got):\n%s", diff)
	}
	got, _ := aspectJSON(t, s, dsPath, "datasetProperties", 0)
	if diff := cmp.Diff(`{"description":"c"}`, got); diff != "" {
		t.Errorf("final value (-want +got):\n%s", diff)
	}
	if _, status := aspectJSON(t, s, dsPath, "globalTags", 0); status != 404 {
		t.Errorf("globalTags written by a dropped CREATE_ENTITY: status %d", status)
	}
}

func TestDeleteByProposal(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	ingest(t, s, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`))
	ingest(t, s, mcp("dataset", dsURN, "DELETE", "datasetKey", ""))
	for _, a := range []string{"status", "datasetKey"} {
		if body, status := aspectJSON(t, s, dsPath, a, 0); status != 404 {
			t.Errorf("%s after DELETE: %d %s", a, status, body)
		}
	}
}

func TestTimeseriesAppended(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for _, ts := range []string{"1700000000000", "1700000060000"} {
		ingest(t, s, mcp("dataset", dsURN, "UPSERT", "datasetProfile", `{"timestampMillis": `+ts+`, "rowCount": 3}`))
	}
	docs, err := s.store.Timeseries(dsURN, "datasetProfile", 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, string(d.Value))
	}
	want := []string{`{"timestampMillis":1700000060000,"rowCount":3}`, `{"timestampMillis":1700000000000,"rowCount":3}`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("timeseries documents (-want +got):\n%s", diff)
	}
	// Timeseries aspects are not served by GET /aspects, as in GMS.
	if _, status := aspectJSON(t, s, dsPath, "datasetProfile", 0); status != 404 {
		t.Errorf("GET /aspects of a timeseries aspect = %d, want 404", status)
	}
}

func TestBodyLimit(t *testing.T) {
	t.Parallel()
	body := ingestBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description": "`+strings.Repeat("x", 300)+`"}`), "false")
	t.Run("content length", func(t *testing.T) {
		t.Parallel()
		s := newServer(t, WithMaxBodyBytes(200))
		wantRestliError(t, serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", body), 413, "Request body exceeds the limit of 200 bytes")
		if got := storeRows(t, s); len(got) != 0 {
			t.Errorf("state changed: %v", got)
		}
	})
	t.Run("chunked", func(t *testing.T) {
		t.Parallel()
		s := newServer(t, WithMaxBodyBytes(200))
		req := newChunkedRequest(t, "/aspects?action=ingestProposal", body)
		r := record(s, req)
		wantRestliError(t, r, 413, "Request body exceeds the limit of 200 bytes")
	})
	t.Run("default limit", func(t *testing.T) {
		t.Parallel()
		s := newServer(t)
		big := `{"proposal":{"entityType":"dataset","x":"` + strings.Repeat("x", DefaultMaxBodyBytes) + `"}}`
		wantRestliError(t, serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", big), 413, "Request body exceeds the limit of 16000000 bytes")
	})
	t.Run("no limit", func(t *testing.T) {
		t.Parallel()
		s := newServer(t, WithMaxBodyBytes(0))
		if r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", body); r.Status != 200 {
			t.Errorf("= %d %s", r.Status, r.Body)
		}
	})
}

// TestHTMLCharactersKept checks that <, > and & in an aspect are read back
// as sent, not as \u003c escapes.
func TestHTMLCharactersKept(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	ingest(t, s, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description": "<b>a & b</b>"}`))
	got, _ := aspectJSON(t, s, dsPath, "datasetProperties", 0)
	if diff := cmp.Diff(`{"description":"<b>a & b</b>"}`, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestEntityKeyAspectNotJSONSpace checks that an entityKeyAspect whose text
// has something other than JSON white space (space, tab, LF, CR) around the
// object is refused as not JSON, as "{...} x" is, and writes nothing.
func TestEntityKeyAspectNotJSONSpace(t *testing.T) {
	t.Parallel()
	for _, pad := range []string{"\v", "\f", "\u00c2\u0085", "\u00c2\u00a0"} { // Pegasus bytes of U+0085 and U+00A0
		for _, key := range []string{`{"username": "jdoe"}` + pad, pad + `{"username": "jdoe"}`} {
			t.Run(strconv.Quote(key), func(t *testing.T) {
				t.Parallel()
				s := newServer(t)
				p := map[string]any{"entityType": "corpuser", "changeType": "UPSERT", "aspectName": "status",
					"entityKeyAspect": map[string]any{"value": key, "contentType": "application/json"},
					"aspect":          map[string]any{"value": `{"removed": false}`, "contentType": "application/json"}}
				r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", ingestBody(t, p, ""))
				if r.Status != http.StatusBadRequest || len(storeRows(t, s)) != 0 {
					t.Errorf("= %d %s with %d rows, want 400 and no rows", r.Status, r.Body, len(storeRows(t, s)))
				}
			})
		}
	}
}

// TestSystemMetadataLastObservedIntegral checks that a lastObserved the
// SystemMetadata schema accepts as a long in another spelling (an integral
// 1e3 or 1.0) is stored as sent, not refused by the store, and that 0.0, as 0,
// is replaced by the time of the write.
func TestSystemMetadataLastObservedIntegral(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ sent, want string }{
		{`1e3`, `"lastObserved":1e3`}, {`1.0`, `"lastObserved":1.0`}, {`0.0`, `"lastObserved":`},
	} {
		t.Run(tc.sent, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			p := mcp("dataset", dsURN, "UPSERT", "status", `{"removed": true}`)
			p["systemMetadata"] = json.RawMessage(`{"lastObserved": ` + tc.sent + `}`)
			r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", ingestBody(t, p, ""))
			if r.Status != http.StatusOK {
				t.Fatalf("= %d %s", r.Status, r.Body)
			}
			for _, a := range storeRows(t, s) {
				if a.Name == "status" && (!strings.Contains(string(a.SystemMetadata), tc.want) || strings.Contains(string(a.SystemMetadata), `:0.0`)) {
					t.Errorf("systemMetadata %s, want %s", a.SystemMetadata, tc.want)
				}
			}
		})
	}
}

// TestConditionalHeaderSpellings checks that a proposal whose headers hold
// If-Version-Match in two spellings gets the same answer every time: the
// header as written wins (map order used to pick one at random).
func TestConditionalHeaderSpellings(t *testing.T) {
	t.Parallel()
	for range 30 {
		s := newServer(t)
		p := mcp("dataset", dsURN, "UPSERT", "status", `{"removed": true}`)
		p["headers"] = map[string]string{"If-Version-Match": "-1", "if-version-match": "7", "IF-VERSION-MATCH": "8"}
		if r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", ingestBody(t, p, "")); r.Status != http.StatusOK {
			t.Fatalf("= %d %s, want 200 (If-Version-Match -1 on a new aspect)", r.Status, r.Body)
		}
	}
}

// TestNoKeySchemaEntity checks that an aspect of an entity whose key aspect
// has no schema here (container, domain, ...) is written without a key row,
// not refused with the store's "key aspect ... is not a JSON object".
// TestContainerAndDomainKeys checks that entities whose key aspects the
// mock once had no schema for get their key row like any other.
func TestContainerAndDomainKeys(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	ingest(t, s, mcp("container", "urn:li:container:a", "UPSERT", "status", `{"removed": true}`))
	ingest(t, s, mcp("domain", "urn:li:domain:d", "UPSERT", "domainProperties", `{"name": "d"}`))
	if got, status := aspectJSON(t, s, "urn%3Ali%3Acontainer%3Aa", "status", 0); status != 200 || got != `{"removed":true}` {
		t.Errorf("read back %d %s", status, got)
	}
	if got, status := aspectJSON(t, s, "urn%3Ali%3Acontainer%3Aa", "containerKey", 0); status != 200 || got != `{"guid":"a"}` {
		t.Errorf("containerKey %d %s", status, got)
	}
	if got, status := aspectJSON(t, s, "urn%3Ali%3Adomain%3Ad", "domainKey", 0); status != 200 || got != `{"id":"d"}` {
		t.Errorf("domainKey %d %s", status, got)
	}
}

// TestEntityKeyAspectRepeatedKey checks that a repeated member of an
// entityKeyAspect counts once, its last value
// winning, as in a decoded object: {"guid":"a","guid":"b"} is the key of
// urn:li:container:b, not of the tuple (b,b).
func TestEntityKeyAspectRepeatedKey(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	p := map[string]any{"entityType": "container", "changeType": "UPSERT", "aspectName": "status",
		"entityKeyAspect": map[string]any{"value": `{"guid": "a", "guid": "b"}`, "contentType": "application/json"},
		"aspect":          map[string]any{"value": `{"removed": false}`, "contentType": "application/json"}}
	if r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", ingestBody(t, p, "")); r.Status != http.StatusOK {
		t.Fatalf("= %d %s", r.Status, r.Body)
	}
	for _, a := range storeRows(t, s) {
		if a.URN != "urn:li:container:b" {
			t.Errorf("stored %s of %s, want urn:li:container:b", a.Name, a.URN)
		}
	}
}

// TestIngestRecordsProposals pins what Proposals keeps of an ingest request:
// the fields as decoded (the URN built from entityKeyAspect when there was
// none), the request's flags, each item's index and, for a refused
// request, the reason on every item.
func TestIngestRecordsProposals(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	keyed := mcp("dataset", "", "UPSERT", "status", `{"removed": true}`)
	keyed["entityKeyAspect"] = map[string]any{"value": `{"platform": "urn:li:dataPlatform:hive", "name": "db.t", "origin": "PROD"}`, "contentType": "application/json"}
	keyed["systemMetadata"] = map[string]any{"runId": "r", "lastObserved": 5}
	keyed["headers"] = map[string]any{"If-Version-Match": "-1"}
	body := mustJSON(t, map[string]any{"async": "true", "proposals": []any{
		mcp("dataset", dsURN, "UPSERT", "globalTags", `{"tags": []}`), keyed}})
	if r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", body); r.Status != http.StatusOK {
		t.Fatalf("= %d %s", r.Status, r.Body)
	}
	bad := batchBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`), mcp("dataset", dsURN, "UPSERT", "", ""))
	bad = strings.Replace(bad, `"changeType":"UPSERT","entityType"`, `"changeType":"NOPE","entityType"`, 1)
	r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", bad)
	if r.Status != http.StatusBadRequest {
		t.Fatalf("= %d %s", r.Status, r.Body)
	}
	var refusal struct{ Message string }
	if err := json.Unmarshal([]byte(r.Body), &refusal); err != nil {
		t.Fatal(err)
	}
	want := []Proposal{
		{EntityType: "dataset", ChangeType: "UPSERT", AspectName: "globalTags", EntityURN: dsURN,
			Aspect: json.RawMessage(`{"tags": []}`), ContentType: "application/json", Async: true, Batch: true},
		{EntityType: "dataset", ChangeType: "UPSERT", AspectName: "status", EntityURN: dsURN,
			EntityKeyAspect: json.RawMessage(`{"platform": "urn:li:dataPlatform:hive", "name": "db.t", "origin": "PROD"}`),
			Aspect:          json.RawMessage(`{"removed": true}`), ContentType: "application/json",
			SystemMetadata: json.RawMessage(`{"lastObserved":5,"runId":"r"}`), Headers: map[string]string{"If-Version-Match": "-1"},
			Async: true, Batch: true, Index: 1},
		{EntityType: "dataset", ChangeType: "NOPE", AspectName: "status", EntityURN: dsURN,
			Aspect: json.RawMessage(`{"removed": false}`), ContentType: "application/json", Batch: true, Err: refusal.Message},
		{EntityType: "dataset", ChangeType: "UPSERT", EntityURN: dsURN, Batch: true, Index: 1, Err: refusal.Message},
	}
	if diff := cmp.Diff(want, s.Proposals()); diff != "" || refusal.Message == "" {
		t.Errorf("Proposals (-want +got):\n%s\nrefusal: %q", diff, refusal.Message)
	}
}
