package mockserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

const (
	urnModel = "urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)"
	urnTable = "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)"
	urnDS    = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"
)

// TestURNFieldsRefused checks that a URN-typed aspect value GMS's URN check
// refuses is refused as GMS refuses it: Rest.li 422 and OpenAPI v3 400
// "Validation Error", with "Invalid format for aspect: <entity>" and the
// value's path and reason, and nothing is written.
func TestURNFieldsRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, entity, urn, aspect, value, cause string
	}{
		{"not a URN", "mlModel", urnModel, "mlModelProperties", `{"groups":["not a urn"]}`,
			`/groups/0 :: "Provided urn not a urn" is invalid: missing "urn:li:" prefix`},
		{"parts do not fit the key", "mlFeatureTable", urnTable, "mlFeatureTableProperties", `{"mlFeatures":["urn:li:mlFeature:broken"]}`,
			`/mlFeatures/0 :: "Provided urn urn:li:mlFeature:broken" is invalid: Failed to convert urn to entity key: urns parts and key fields do not have same length for urn:li:mlFeature:broken`},
		{"not a relationship destination", "mlFeatureTable", urnTable, "mlFeatureTableProperties", `{"mlFeatures":["urn:li:mlFeature:(users,age)","` + urnDS + `"]}`,
			`/mlFeatures/1 :: "Provided urn ` + urnDS + `" is invalid: Entity type for urn: ` + urnDS + ` is not a valid destination for field path: /mlFeatures/*`},
		{"entity type outside the registry", "dataset", urnDS, "ownership", `{"owners":[{"owner":"urn:li:person:jdoe","type":"DATAOWNER"}]}`,
			`/owners/0/owner :: "Provided urn urn:li:person:jdoe" is invalid: Entity type person is missing from entity registry`},
		{"typed class, other entity type", "dataset", urnDS, "schemaMetadata",
			`{"schemaName":"users","platform":"urn:li:corpuser:hive","version":0,"hash":"","platformSchema":{"com.linkedin.schema.OtherSchema":{"rawSchema":""}},"fields":[]}`,
			`/platform :: "Provided urn urn:li:corpuser:hive" is invalid: Unable to instantiate urn type: DataPlatformUrn with urn: urn:li:corpuser:hive`},
		{"typed class, bad part", "dataset", urnDS, "upstreamLineage",
			`{"upstreams":[{"dataset":"urn:li:dataset:(urn:li:dataPlatform:hive,x,NOTANENV)","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:jdoe"}}]}`,
			`/upstreams/0/dataset :: "Provided urn urn:li:dataset:(urn:li:dataPlatform:hive,x,NOTANENV)" is invalid: Unable to instantiate urn type: DatasetUrn with urn: urn:li:dataset:(urn:li:dataPlatform:hive,x,NOTANENV)`},
		{"a generic URN's parts are not parsed", "mlModel", urnModel, "mlModelProperties", `{"trainingJobs":["urn:li:dataJob:(notaflow,fit)"],"groups":["urn:li:dataset:x"]}`,
			`/groups/0 :: "Provided urn urn:li:dataset:x" is invalid: Failed to convert urn to entity key: urns parts and key fields do not have same length for urn:li:dataset:x`},
		{"in a union member", "dataset", urnDS, "upstreamLineage",
			`{"upstreams":[{"dataset":"` + urnDS + `","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:jdoe"}}],` +
				`"fineGrainedLineages":[{"upstreamType":"FIELD_SET","downstreamType":"FIELD","upstreams":["urn:li:schemaField:x"]}]}`,
			`/fineGrainedLineages/0/upstreams/0 :: "Provided urn urn:li:schemaField:x" is invalid: Failed to convert urn to entity key: urns parts and key fields do not have same length for urn:li:schemaField:x`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			want := "Invalid format for aspect: " + tt.entity + "\n Cause: [ERROR :: " + tt.cause + "]"
			r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
				ingestBody(t, mcp(tt.entity, tt.urn, "UPSERT", tt.aspect, tt.value), "false"))
			var body struct{ Message string }
			_ = json.Unmarshal([]byte(r.Body), &body)
			if r.Status != http.StatusUnprocessableEntity || body.Message != want {
				t.Errorf("Rest.li: got %d %q\nwant 422 %q", r.Status, body.Message, want)
			}
			v3 := serve(t, s, http.MethodPost, "/openapi/v3/entity/"+tt.entity+"?async=false",
				`[{"urn":"`+tt.urn+`","`+tt.aspect+`":{"value":`+tt.value+`}}]`)
			wantV3, _ := json.Marshal(map[string]string{"error": "Validation Error", "message": want})
			if v3.Status != http.StatusBadRequest || v3.Body != string(wantV3) {
				t.Errorf("OpenAPI v3: got %d %s\nwant 400 %s", v3.Status, v3.Body, wantV3)
			}
			if _, status := aspectJSON(t, s, url.PathEscape(tt.urn), tt.aspect, 0); status != http.StatusNotFound {
				t.Errorf("the refused aspect was written: GET answers %d", status)
			}
		})
	}
}

// TestURNFieldsRefusedInBatch checks that a batch with one refused URN
// value writes nothing and names the item, as other invalid items do.
func TestURNFieldsRefusedInBatch(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	body := mustJSON(t, map[string]any{"proposals": []any{
		mcp("mlFeatureTable", urnTable, "UPSERT", "status", `{"removed":false}`),
		mcp("mlFeatureTable", urnTable, "UPSERT", "mlFeatureTableProperties", `{"mlFeatures":["`+urnDS+`"]}`),
	}, "async": "false"})
	r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", body)
	var got struct{ Message string }
	_ = json.Unmarshal([]byte(r.Body), &got)
	want := "1 of 2 proposals are invalid, nothing was written: [1] Invalid format for aspect: mlFeatureTable\n Cause: [ERROR :: /mlFeatures/0 :: \"Provided urn " +
		urnDS + "\" is invalid: Entity type for urn: " + urnDS + " is not a valid destination for field path: /mlFeatures/*]"
	if r.Status != http.StatusUnprocessableEntity || got.Message != want {
		t.Errorf("got %d %q\nwant 422 %q", r.Status, got.Message, want)
	}
	if _, status := aspectJSON(t, s, url.PathEscape(urnTable), "status", 0); status != http.StatusNotFound {
		t.Errorf("the batch's valid item was written: GET answers %d", status)
	}
}

// TestURNFieldsAccepted checks that good URNs of each typed kind, and URNs
// of each entity type a relationship allows, are accepted and read back as
// written.
func TestURNFieldsAccepted(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, entity, urn, aspect, value string }{
		{"mlModel groups, training jobs, downstream jobs", "mlModel", urnModel, "mlModelProperties",
			`{"groups":["urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn,PROD)"],"trainingJobs":["urn:li:dataJob:(urn:li:dataFlow:(airflow,train,prod),fit)","urn:li:dataProcessInstance:run-1"],"customProperties":{},"tags":[]}`},
		{"mlFeatures", "mlFeatureTable", urnTable, "mlFeatureTableProperties",
			`{"mlFeatures":["urn:li:mlFeature:(users,age)"],"mlPrimaryKeys":["urn:li:mlPrimaryKey:(users,user_id)"],"customProperties":{}}`},
		{"owners of each allowed type", "dataset", urnDS, "ownership",
			`{"owners":[{"owner":"urn:li:corpuser:jdoe","type":"DATAOWNER"},{"owner":"urn:li:corpGroup:data","type":"DATAOWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__dataowner":["urn:li:corpuser:jdoe","urn:li:corpGroup:data"]},"lastModified":{"time":0,"actor":"urn:li:corpuser:unknown"}}`},
		{"DataPlatformUrn", "dataset", urnDS, "schemaMetadata",
			`{"schemaName":"users","platform":"urn:li:dataPlatform:hive","version":0,"hash":"","platformSchema":{"com.linkedin.schema.OtherSchema":{"rawSchema":""}},"fields":[]}`},
		{"DatasetUrn, CorpuserUrn", "dataset", urnDS, "upstreamLineage",
			`{"upstreams":[{"dataset":"urn:li:dataset:(urn:li:dataPlatform:kafka,users,DEV)","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:jdoe"}}],` +
				`"fineGrainedLineages":[{"upstreamType":"FIELD_SET","downstreamType":"FIELD","upstreams":["urn:li:schemaField:(` + urnDS + `,id)"],"confidenceScore":1.0}]}`},
		{"TagUrn", "dataset", urnDS, "globalTags", `{"tags":[{"tag":"urn:li:tag:pii"}]}`},
		{"GlossaryTermUrn", "dataset", urnDS, "glossaryTerms", `{"terms":[{"urn":"urn:li:glossaryTerm:Churn"}],"auditStamp":{"time":1,"actor":"urn:li:corpuser:jdoe"}}`},
		{"DataFlowUrn", "dataJob", "urn:li:dataJob:(urn:li:dataFlow:(airflow,train,prod),fit)", "dataJobInputOutput",
			`{"inputDatasets":["` + urnDS + `"],"outputDatasets":[],"inputDatajobs":["urn:li:dataJob:(urn:li:dataFlow:(airflow,train,prod),prep)"]}`},
		{"container of a container", "container", "urn:li:container:abc", "container", `{"container":"urn:li:container:def"}`},
		{"raw parentheses in a part, as a write's URN may have them", "dataset", urnDS, "upstreamLineage",
			`{"upstreams":[{"dataset":"urn:li:dataset:(urn:li:dataPlatform:hive,x(y),PROD)","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:jdoe"}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
				ingestBody(t, mcp(tt.entity, tt.urn, "UPSERT", tt.aspect, tt.value), "false"))
			if r.Status != http.StatusOK {
				t.Fatalf("refused: %d %s", r.Status, r.Body)
			}
			got, status := aspectJSON(t, s, url.PathEscape(tt.urn), tt.aspect, 0)
			if status != http.StatusOK {
				t.Fatalf("GET answers %d %s", status, got)
			}
			var a, b any
			if json.Unmarshal([]byte(tt.value), &a) != nil || json.Unmarshal([]byte(got), &b) != nil {
				t.Fatalf("bad JSON: %s / %s", tt.value, got)
			}
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("read back (-written +read):\n%s", diff)
			}
		})
	}
}

// TestURNKeyFields checks the URN check of a key aspect: a URN whose key
// holds a URN the key field's typeref refuses is an invalid URN (400), and
// a key aspect written as an aspect is checked like any other.
func TestURNKeyFields(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	u := "urn:li:dataJob:(urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD),fit)"
	r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
		ingestBody(t, mcp("dataJob", u, "UPSERT", "status", `{"removed":false}`), "false"))
	if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, "Invalid urn: "+u) {
		t.Errorf("dataJob of a dataset flow: got %d %s, want 400 Invalid urn", r.Status, r.Body)
	}
	r = serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
		ingestBody(t, mcp("dataJob", "urn:li:dataJob:(urn:li:dataFlow:(airflow,train,prod),fit)", "UPSERT", "dataJobKey",
			`{"flow":"urn:li:dataFlow:(airflow,train,prod)","jobId":"fit"}`), "false"))
	if r.Status != http.StatusOK {
		t.Errorf("a valid dataJobKey: got %d %s", r.Status, r.Body)
	}
}

// TestAspectTestdataAccepted checks that every aspect document of
// aspects/testdata is accepted on every entity type that has the aspect.
func TestAspectTestdataAccepted(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "aspects", "testdata", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no aspect documents: %v", err)
	}
	s := newServer(t)
	n := 0
	for _, f := range files {
		aspect := strings.SplitN(filepath.Base(f), ".", 2)[0]
		value, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range pdl.Entities() {
			if e.KeyAspect != aspect && !containsString(e.Aspects, aspect) {
				continue
			}
			u := entityURN(t, e)
			if e.KeyAspect == aspect {
				var err error
				if u, err = urnFromKeyJSON(e, value); err != nil {
					t.Fatalf("%s: %v", f, err)
				}
			}
			r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
				ingestBody(t, mcp(e.Name, u, "UPSERT", aspect, string(value)), "false"))
			if r.Status != http.StatusOK {
				t.Errorf("%s on %s %s: %d %s", filepath.Base(f), e.Name, u, r.Status, r.Body)
			}
			n++
		}
	}
	if n < len(files) {
		t.Errorf("%d writes for %d documents", n, len(files))
	}
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// urnFromKeyJSON is the URN of entity e whose key aspect is key: its field
// values in schema order.
func urnFromKeyJSON(e pdl.Entity, key []byte) (string, error) {
	var m map[string]any
	if err := json.Unmarshal(key, &m); err != nil {
		return "", err
	}
	info, _ := pdl.LookupAspect(e.KeyAspect)
	rec, _ := pdl.Record(info.RecordName)
	var parts []string
	for _, f := range rec.Fields {
		s, _ := m[f.Name].(string)
		parts = append(parts, s)
	}
	if len(parts) == 1 {
		return "urn:li:" + e.Name + ":" + parts[0], nil
	}
	return "urn:li:" + e.Name + ":(" + strings.Join(parts, ",") + ")", nil
}
