package mockserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver"
)

// The URNs of the GraphQL fixture.
const (
	gqlTable   = "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)"
	gqlFeature = "urn:li:mlFeature:(users,age)"
	gqlModel   = "urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)"
	gqlGroup   = "urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn-group,PROD)"
	gqlDataset = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"
	gqlBare    = "urn:li:mlModel:(urn:li:dataPlatform:sagemaker,bare,DEV)"
)

// seedGraphQL writes the fixture through the mock's validated write path.
func seedGraphQL(t testing.TB, s *mockserver.Server) {
	t.Helper()
	put := func(urn, aspect, value string) {
		t.Helper()
		if err := s.PutAspectJSON(urn, aspect, json.RawMessage(value)); err != nil {
			t.Fatalf("PutAspectJSON %s %s: %v", urn, aspect, err)
		}
	}
	put(gqlFeature, "mlFeatureProperties", `{"description":"Age in years","dataType":"TEXT","version":{"versionTag":"2"},"sources":["`+gqlDataset+`"],"customProperties":{"b":"2","a":"1"}}`)
	put("urn:li:mlFeature:(users,height)", "status", `{"removed":false}`)
	put(gqlTable, "mlFeatureTableProperties", `{"description":"User features","mlFeatures":["`+gqlFeature+`","urn:li:mlFeature:(users,height)"]}`)
	put(gqlGroup, "mlModelGroupProperties", `{"description":"All churn runs","version":{"versionTag":"g1"}}`)
	put(gqlModel, "mlModelProperties", `{"description":"Churn model","version":{"versionTag":"v3"},"type":"xgboost","groups":["`+gqlGroup+`"],"mlFeatures":["`+gqlFeature+`"],"customProperties":{}}`)
	put(gqlBare, "mlModelProperties", `{"description":"no groups"}`)
	put(gqlDataset, "datasetProperties", `{"description":"The users","customProperties":{"owner":"team"}}`)
	put(gqlDataset, "schemaMetadata", `{"schemaName":"users","platform":"urn:li:dataPlatform:hive","version":0,"created":{"time":0,"actor":"urn:li:corpuser:x"},"lastModified":{"time":0,"actor":"urn:li:corpuser:x"},"hash":"","platformSchema":{"com.linkedin.schema.MySqlDDL":{"tableSchema":""}},"fields":[{"fieldPath":"id","nullable":false,"description":"key","type":{"type":{"com.linkedin.schema.NumberType":{}}},"nativeDataType":"int","recursive":false},{"fieldPath":"[version=2.0].[type=struct].address","nullable":true,"type":{"type":{"com.linkedin.schema.RecordType":{}}},"nativeDataType":"struct","recursive":false}]}`)
	put(gqlDataset, "editableSchemaMetadata", `{"editableSchemaFieldInfo":[{"fieldPath":"other","description":"kept"}]}`)
	put(gqlDataset, "globalTags", `{"tags":[{"tag":"urn:li:tag:pii"}]}`)
	put(gqlDataset, "glossaryTerms", `{"terms":[{"urn":"urn:li:glossaryTerm:Users"}],"auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}`)
	put(gqlDataset, "ownership", `{"owners":[{"owner":"urn:li:corpuser:jdoe","type":"TECHNICAL_OWNER"},{"owner":"urn:li:corpGroup:data","type":"DATA_STEWARD"}],"lastModified":{"time":7,"actor":"urn:li:corpuser:x"}}`)
	put(gqlDataset, "institutionalMemory", `{"elements":[{"url":"https://wiki/users","description":"Wiki","createStamp":{"time":5,"actor":"urn:li:corpuser:jdoe"}}]}`)
	put(gqlDataset, "status", `{"removed":false}`)
}

// gqlResponse is an answer of the GraphQL endpoint.
type gqlResponse struct {
	status int
	body   []byte
	header http.Header
}

// postGraphQL posts a GraphQL request body to s at path.
func postGraphQL(t testing.TB, s *mockserver.Server, path, body string, header ...string) gqlResponse {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return gqlResponse{resp.StatusCode, b, resp.Header}
}

// gqlBody is the JSON of a GraphQL request.
func gqlBody(t testing.TB, query string, vars map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantJSON fails t unless got (a 200 answer) equals the JSON text want.
func wantJSON(t testing.TB, got gqlResponse, want string) {
	t.Helper()
	if got.status != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", got.status, got.body)
	}
	var g, w any
	if err := json.Unmarshal(got.body, &g); err != nil {
		t.Fatalf("answer is not JSON: %v: %s", err, got.body)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want is not JSON: %v", err)
	}
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("answer (-want +got):\n%s\ngot: %s", d, got.body)
	}
}

func TestGraphQLQueries(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	seedGraphQL(t, s)
	tests := []struct {
		name, query string
		vars        map[string]any
		want        string
	}{
		{"mlFeature", `query f($urn: String!) { mlFeature(urn: $urn) { urn type name featureNamespace description dataType exists
			properties { description dataType version { versionTag } sources { urn name } customProperties { key value associatedUrn } }
			editableProperties { description } } }`,
			map[string]any{"urn": gqlFeature},
			`{"data":{"mlFeature":{"urn":"` + gqlFeature + `","type":"MLFEATURE","name":"age","featureNamespace":"users","description":"Age in years","dataType":"TEXT","exists":true,
			"properties":{"description":"Age in years","dataType":"TEXT","version":{"versionTag":"2"},"sources":[{"urn":"` + gqlDataset + `","name":"db.users"}],
			"customProperties":[{"key":"a","value":"1","associatedUrn":"` + gqlFeature + `"},{"key":"b","value":"2","associatedUrn":"` + gqlFeature + `"}]},
			"editableProperties":null}},"extensions":{}}`},
		{"mlFeatureTable", `{ mlFeatureTable(urn: "` + gqlTable + `") { name description platform { name urn } properties { description mlFeatures { name description } } } }`, nil,
			`{"data":{"mlFeatureTable":{"name":"users","description":"User features","platform":{"name":"feast","urn":"urn:li:dataPlatform:feast"},
			"properties":{"description":"User features","mlFeatures":[{"name":"age","description":"Age in years"},{"name":"height","description":null}]}}},"extensions":{}}`},
		{"mlModel", `{ mlModel(urn: "` + gqlModel + `") { name origin description platform { name } properties { name description version type mlFeatures groups { urn name } customProperties { key } } } }`, nil,
			`{"data":{"mlModel":{"name":"churn","origin":"PROD","description":"Churn model","platform":{"name":"sagemaker"},
			"properties":{"name":"churn","description":"Churn model","version":"v3","type":"xgboost","mlFeatures":["` + gqlFeature + `"],"groups":[{"urn":"` + gqlGroup + `","name":"churn-group"}],"customProperties":[]}}},"extensions":{}}`},
		{"mlModel without groups or features", `{ mlModel(urn: "` + gqlBare + `") { properties { version mlFeatures groups { urn } } } }`, nil,
			`{"data":{"mlModel":{"properties":{"version":null,"mlFeatures":null,"groups":[]}}},"extensions":{}}`},
		{"mlModelGroup", `{ mlModelGroup(urn: "` + gqlGroup + `") { name origin description platform { name } properties { name description version { versionTag } } } }`, nil,
			`{"data":{"mlModelGroup":{"name":"churn-group","origin":"PROD","description":"All churn runs","platform":{"name":"sagemaker"},
			"properties":{"name":"churn-group","description":"All churn runs","version":{"versionTag":"g1"}}}},"extensions":{}}`},
		{"dataset", `{ dataset(urn: "` + gqlDataset + `") { urn type name origin description platform { name }
			properties { name description customProperties { key value } lastModified { time actor } }
			schemaMetadata { name platformUrn version fields { fieldPath description type nativeDataType nullable } }
			editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } }
			editableProperties { description }
			tags { tags { tag { urn name } associatedUrn } } glossaryTerms { terms { term { name } } }
			ownership { owners { owner { ... on CorpUser { username } ... on CorpGroup { name } } type } lastModified { time } }
			institutionalMemory { elements { url label created { time actor } } } status { removed } exists } }`, nil,
			`{"data":{"dataset":{"urn":"` + gqlDataset + `","type":"DATASET","name":"db.users","origin":"PROD","description":"The users","platform":{"name":"hive"},
			"properties":{"name":"db.users","description":"The users","customProperties":[{"key":"owner","value":"team"}],"lastModified":{"time":0,"actor":null}},
			"schemaMetadata":{"name":"users","platformUrn":"urn:li:dataPlatform:hive","version":0,"fields":[
				{"fieldPath":"id","description":"key","type":"NUMBER","nativeDataType":"int","nullable":false},
				{"fieldPath":"[version=2.0].[type=struct].address","description":null,"type":"STRUCT","nativeDataType":"struct","nullable":true}]},
			"editableSchemaMetadata":{"editableSchemaFieldInfo":[{"fieldPath":"other","description":"kept"}]},
			"editableProperties":null,
			"tags":{"tags":[{"tag":{"urn":"urn:li:tag:pii","name":"pii"},"associatedUrn":"` + gqlDataset + `"}]},"glossaryTerms":{"terms":[{"term":{"name":"Users"}}]},
			"ownership":{"owners":[{"owner":{"username":"jdoe"},"type":"TECHNICAL_OWNER"},{"owner":{"name":"data"},"type":"DATA_STEWARD"}],"lastModified":{"time":7}},
			"institutionalMemory":{"elements":[{"url":"https://wiki/users","label":"Wiki","created":{"time":5,"actor":"urn:li:corpuser:jdoe"}}]},
			"status":{"removed":false},"exists":true}},"extensions":{}}`},
		{"never-written URN is built from its key", `{ mlModel(urn: "urn:li:mlModel:(urn:li:dataPlatform:mlflow,ghost,QA)") { urn name origin platform { name } description properties { name } exists } }`, nil,
			`{"data":{"mlModel":{"urn":"urn:li:mlModel:(urn:li:dataPlatform:mlflow,ghost,QA)","name":"ghost","origin":"QA","platform":{"name":"mlflow"},"description":null,"properties":null,"exists":false}},"extensions":{}}`},
		{"dataPlatform", `{ dataPlatform(urn: "urn:li:dataPlatform:hive") { urn type name } }`, nil,
			`{"data":{"dataPlatform":{"urn":"urn:li:dataPlatform:hive","type":"DATA_PLATFORM","name":"hive"}},"extensions":{}}`},
		{"entityExists", `{ a: entityExists(urn: "` + gqlTable + `") b: entityExists(urn: "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,none)") }`, nil,
			`{"data":{"a":true,"b":false},"extensions":{}}`},
		{"entity", `{ entity(urn: "` + gqlFeature + `") { urn type ... on MLFeature { name } } }`, nil,
			`{"data":{"entity":{"urn":"` + gqlFeature + `","type":"MLFEATURE","name":"age"}},"extensions":{}}`},
		{"entities", `query e($urns: [String!]!) { entities(urns: $urns) { type ... on MLModelGroup { name } ... on Dataset { name } ... on MLModel { exists } } }`,
			map[string]any{"urns": []string{gqlGroup, gqlDataset, "urn:li:mlModel:(urn:li:dataPlatform:x,none,PROD)"}},
			`{"data":{"entities":[{"type":"MLMODEL_GROUP","name":"churn-group"},{"type":"DATASET","name":"db.users"},{"type":"MLMODEL","exists":false}]},"extensions":{}}`},
		{"entities checkForExistence", `{ entities(urns: ["` + gqlTable + `", "urn:li:mlModel:(urn:li:dataPlatform:x,none,PROD)"], checkForExistence: true) { urn } }`, nil,
			`{"data":{"entities":[{"urn":"` + gqlTable + `"}]},"extensions":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, tt.query, tt.vars)), tt.want)
		})
	}
}

// TestGraphQLNestedError checks that a field resolved inline (no goroutine)
// that fails answers the error at its own path and location (graphql-java
// locates a fetcher's error at its field; the mock located it at the root
// field before), with DataHub's extensions, and null in its place, as a
// resolver returning the error does.
func TestGraphQLNestedError(t *testing.T) {
	t.Parallel()
	// GMS refuses an mlModel URN in mlFeatures: only a server that takes
	// mlFeatureTableProperties as an unchecked document stores one.
	s := mockserver.Start(t, mockserver.WithAcceptUnknownMembers("mlFeatureTableProperties"))
	table := "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,nested)"
	if err := s.PutAspectJSON(table, "mlFeatureTableProperties", json.RawMessage(`{"mlFeatures":["`+gqlModel+`"]}`)); err != nil {
		t.Fatal(err)
	}
	q := `{ mlFeatureTable(urn: "` + table + `") { name properties { mlFeatures { urn } } } }`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, nil)),
		`{"errors":[{"message":"Failed to load MLFeature: `+gqlModel+` is not a mlFeature urn (datahub-mock)","locations":[{"line":1,"column":103}],"path":["mlFeatureTable","properties","mlFeatures"],
		"extensions":{"code":400,"type":"BAD_REQUEST","classification":"DataFetchingException"}}],
		"data":{"mlFeatureTable":{"name":"nested","properties":{"mlFeatures":null}}},"extensions":{}}`)
}

// TestGraphQLEntityExistsWithoutKeySchema checks entityExists for an entity
// whose key aspect has no schema in the mock: a container written with only
// containerProperties exists, one never written does not.
func TestGraphQLEntityExistsWithoutKeySchema(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	if err := s.PutAspectJSON("urn:li:container:abc", "containerProperties", json.RawMessage(`{"name":"abc"}`)); err != nil {
		t.Fatal(err)
	}
	q := `{ a: entityExists(urn: "urn:li:container:abc") b: entityExists(urn: "urn:li:container:none") }`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, nil)), `{"data":{"a":true,"b":false},"extensions":{}}`)
}
