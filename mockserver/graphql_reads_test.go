package mockserver_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver"
)

// TestGraphQLReadsEveryEntityType reads entities of types the mock's
// GraphQL did not serve before (a container, a chart, a domain, a tag)
// through their typed Query fields and entity, each field read from the
// aspect DataHub's mapper reads it from; and the fields of Dataset that
// were missing (deprecation, domain, container, globalTags).
func TestGraphQLReadsEveryEntityType(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	const (
		container = "urn:li:container:c1"
		parent    = "urn:li:container:p1"
		chart     = "urn:li:chart:(looker,c1)"
		domain    = "urn:li:domain:d1"
		tag       = "urn:li:tag:pii"
		ds        = "urn:li:dataset:(urn:li:dataPlatform:hive,reads,PROD)"
	)
	put := func(u, aspect, value string) {
		t.Helper()
		if err := s.PutAspectJSON(u, aspect, json.RawMessage(value)); err != nil {
			t.Fatalf("%s %s: %v", u, aspect, err)
		}
	}
	put(container, "containerProperties", `{"name":"db","description":"a db","customProperties":{"b":"2","a":"1"}}`)
	put(container, "subTypes", `{"typeNames":["Database"]}`)
	put(container, "container", `{"container":"`+parent+`"}`)
	put(container, "dataPlatformInstance", `{"platform":"urn:li:dataPlatform:hive"}`)
	put(container, "ownership", `{"owners":[{"owner":"urn:li:corpuser:jo","type":"DATAOWNER"}],"lastModified":{"time":5,"actor":"urn:li:corpuser:jo"}}`)
	put(parent, "containerProperties", `{"name":"server"}`)
	put(chart, "chartInfo", `{"title":"sales","description":"chart","lastModified":{"created":{"time":1,"actor":"urn:li:corpuser:jo"},"lastModified":{"time":2,"actor":"urn:li:corpuser:jo"}}}`)
	put(domain, "domainProperties", `{"name":"Finance"}`)
	put(tag, "tagProperties", `{"name":"PII","description":"personal"}`)
	put(ds, "deprecation", `{"deprecated":true,"note":"old","actor":"urn:li:corpuser:jo"}`)
	put(ds, "domains", `{"domains":["`+domain+`"]}`)
	put(ds, "container", `{"container":"`+container+`"}`)
	put(ds, "globalTags", `{"tags":[{"tag":"`+tag+`"}]}`)

	q := `{
	  container(urn: "` + container + `") { urn type exists properties { name description customProperties { key value associatedUrn } }
	    subTypes { typeNames } platform { urn name } container { urn properties { name } }
	    ownership { owners { owner { ... on CorpUser { urn username } } type associatedUrn } lastModified { time } } }
	  chart(urn: "` + chart + `") { urn type properties { name description lastModified { time } } tool: urn }
	  domain(urn: "` + domain + `") { urn properties { name } }
	  tag(urn: "` + tag + `") { name description properties { name description } }
	  dataset(urn: "` + ds + `") { deprecation { deprecated note } domain { domain { urn properties { name } } associatedUrn }
	    container { urn properties { name } } globalTags { tags { tag { urn name } } } tags { tags { tag { urn } } } }
	  e: entity(urn: "` + container + `") { __typename ... on Container { properties { name } } }
	  none: container(urn: "urn:li:container:none") { urn exists properties { name } }
	}`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, nil)), `{"data":{
	  "container":{"urn":"`+container+`","type":"CONTAINER","exists":true,
	    "properties":{"name":"db","description":"a db","customProperties":[{"key":"a","value":"1","associatedUrn":"`+container+`"},{"key":"b","value":"2","associatedUrn":"`+container+`"}]},
	    "subTypes":{"typeNames":["Database"]},"platform":{"urn":"urn:li:dataPlatform:hive","name":"hive"},
	    "container":{"urn":"`+parent+`","properties":{"name":"server"}},
	    "ownership":{"owners":[{"owner":{"urn":"urn:li:corpuser:jo","username":"jo"},"type":"DATAOWNER","associatedUrn":"`+container+`"}],"lastModified":{"time":5}}},
	  "chart":{"urn":"`+chart+`","type":"CHART","properties":{"name":"sales","description":"chart","lastModified":{"time":2}},"tool":"`+chart+`"},
	  "domain":{"urn":"`+domain+`","properties":{"name":"Finance"}},
	  "tag":{"name":"pii","description":"personal","properties":{"name":"PII","description":"personal"}},
	  "dataset":{"deprecation":{"deprecated":true,"note":"old"},"domain":{"domain":{"urn":"`+domain+`","properties":{"name":"Finance"}},"associatedUrn":"`+ds+`"},
	    "container":{"urn":"`+container+`","properties":{"name":"db"}},"globalTags":{"tags":[{"tag":{"urn":"`+tag+`","name":"pii"}}]},"tags":{"tags":[{"tag":{"urn":"`+tag+`"}}]}},
	  "e":{"__typename":"Container","properties":{"name":"db"}},
	  "none":{"urn":"urn:li:container:none","exists":false,"properties":null}
	},"extensions":{}}`)
}

// TestGraphQLMissingFields reads the fields the mock's schema lacked
// (issue 28's list): InstitutionalMemoryMetadata.settings,
// EditableSchemaFieldInfo.globalTags and the training-run fields of
// DataProcessInstance. None validated before.
func TestGraphQLMissingFields(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	const (
		ds  = "urn:li:dataset:(urn:li:dataPlatform:hive,missing,PROD)"
		run = "urn:li:dataProcessInstance:run1"
	)
	put := func(u, aspect, value string) {
		t.Helper()
		if err := s.PutAspectJSON(u, aspect, json.RawMessage(value)); err != nil {
			t.Fatalf("%s %s: %v", u, aspect, err)
		}
	}
	put(ds, "institutionalMemory", `{"elements":[{"url":"https://wiki/x","description":"wiki","createStamp":{"time":1,"actor":"urn:li:corpuser:jo"},"settings":{"showInAssetPreview":true}}]}`)
	put(ds, "editableSchemaMetadata", `{"editableSchemaFieldInfo":[{"fieldPath":"id","globalTags":{"tags":[{"tag":"urn:li:tag:pii"}]}}]}`)
	put(run, "dataProcessInstanceProperties", `{"name":"train-1","created":{"time":7,"actor":"urn:li:corpuser:jo"}}`)
	put(run, "subTypes", `{"typeNames":["ML Training Run"]}`)
	put(run, "container", `{"container":"urn:li:container:exp"}`)
	put(run, "dataPlatformInstance", `{"platform":"urn:li:dataPlatform:mlflow","instance":"urn:li:dataPlatformInstance:(urn:li:dataPlatform:mlflow,prod)"}`)
	put(run, "mlTrainingRunProperties", `{"id":"r1","outputUrls":["s3://out"]}`)
	q := `{
	  dataset(urn: "` + ds + `") { institutionalMemory { elements { url label settings { showInAssetPreview } author { urn } created { time } } }
	    editableSchemaMetadata { editableSchemaFieldInfo { fieldPath globalTags { tags { tag { urn } } } } } }
	  dataProcessInstance(urn: "` + run + `") { urn properties { name created { time } } subTypes { typeNames } container { urn }
	    dataPlatformInstance { urn } platform { urn } mlTrainingRunProperties { id outputUrls } }
	}`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, nil)), `{"data":{
	  "dataset":{"institutionalMemory":{"elements":[{"url":"https://wiki/x","label":"wiki","settings":{"showInAssetPreview":true},"author":{"urn":"urn:li:corpuser:jo"},"created":{"time":1}}]},
	    "editableSchemaMetadata":{"editableSchemaFieldInfo":[{"fieldPath":"id","globalTags":{"tags":[{"tag":{"urn":"urn:li:tag:pii"}}]}}]}},
	  "dataProcessInstance":{"urn":"`+run+`","properties":{"name":"train-1","created":{"time":7}},"subTypes":{"typeNames":["ML Training Run"]},"container":{"urn":"urn:li:container:exp"},
	    "dataPlatformInstance":{"urn":"urn:li:dataPlatformInstance:(urn:li:dataPlatform:mlflow,prod)"},"platform":{"urn":"urn:li:dataPlatform:mlflow"},"mlTrainingRunProperties":{"id":"r1","outputUrls":["s3://out"]}}
	},"extensions":{}}`)
}

// TestGraphQLVersionedDataset reads a dataset at the aspect versions its
// versionStamp names, and documents through searchDocuments.
func TestGraphQLVersionedDataset(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	const ds = "urn:li:dataset:(urn:li:dataPlatform:hive,versioned,PROD)"
	for _, d := range []string{"one", "two"} {
		if err := s.PutAspectJSON(ds, "datasetProperties", json.RawMessage(`{"description":"`+d+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutAspectJSON(ds, "status", json.RawMessage(`{"removed":false}`)); err != nil {
		t.Fatal(err)
	}
	q := `{ latest: versionedDataset(urn: "` + ds + `") { type name properties { description } status { removed } }
	  first: versionedDataset(urn: "` + ds + `", versionStamp: "datasetProperties:1") { properties { description } status { removed } } }`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, nil)), `{"data":{
	  "latest":{"type":"DATASET","name":"versioned","properties":{"description":"two"},"status":{"removed":false}},
	  "first":{"properties":{"description":"one"},"status":{"removed":false}}},"extensions":{}}`)
}

// TestGraphQLTimeline reads a dataset's change history (getTimeline) and
// its schema's versions (getSchemaVersionList) from the stored versions.
func TestGraphQLTimeline(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	const ds = "urn:li:dataset:(urn:li:dataPlatform:hive,history,PROD)"
	field := func(p string) string {
		return `{"fieldPath":"` + p + `","nullable":false,"type":{"type":{"com.linkedin.schema.StringType":{}}},"nativeDataType":"string"}`
	}
	for _, fs := range []string{field("id"), field("id") + "," + field("name")} {
		if err := s.PutAspectJSON(ds, "schemaMetadata", json.RawMessage(`{"schemaName":"h","platform":"urn:li:dataPlatform:hive","version":0,"hash":"",
			"platformSchema":{"com.linkedin.schema.OtherSchema":{"rawSchema":""}},"fields":[`+fs+`]}`)); err != nil {
			t.Fatal(err)
		}
		s.FastForward(time.Second) // one transaction per write
	}
	q := `{ getTimeline(input: {urn: "` + ds + `", changeCategories: [TECHNICAL_SCHEMA]}) { changeTransactions { lastSemanticVersion versionStamp changeType changes { urn category operation } } }
	  getSchemaVersionList(input: {datasetUrn: "` + ds + `"}) { latestVersion { semanticVersion } semanticVersionList { semanticVersion } } }`
	got := postGraphQL(t, s, "/api/graphql", gqlBody(t, q, nil))
	var answer struct {
		Data struct {
			GetTimeline struct {
				ChangeTransactions []struct {
					LastSemanticVersion, VersionStamp, ChangeType string
					Changes                                       []struct{ Urn, Category, Operation string }
				}
			}
			GetSchemaVersionList struct {
				LatestVersion       struct{ SemanticVersion string }
				SemanticVersionList []struct{ SemanticVersion string }
			}
		}
		Errors []any
	}
	if err := json.Unmarshal([]byte(got.body), &answer); err != nil || len(answer.Errors) > 0 {
		t.Fatalf("%v: %s", err, got.body)
	}
	txs := answer.Data.GetTimeline.ChangeTransactions
	if len(txs) != 2 || txs[1].VersionStamp != "none" || txs[1].ChangeType != "MODIFY" || len(txs[1].Changes) == 0 ||
		txs[1].Changes[0].Category != "TECHNICAL_SCHEMA" || txs[1].Changes[0].Operation != "ADD" {
		t.Errorf("timeline %+v", txs)
	}
	v := answer.Data.GetSchemaVersionList
	if len(v.SemanticVersionList) != 2 || v.LatestVersion.SemanticVersion != txs[1].LastSemanticVersion[:len(v.LatestVersion.SemanticVersion)] ||
		v.SemanticVersionList[0].SemanticVersion != v.LatestVersion.SemanticVersion {
		t.Errorf("versions %+v (timeline %+v)", v, txs)
	}
}
