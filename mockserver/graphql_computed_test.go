package mockserver_test

import (
	"encoding/json"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// putAll writes aspects (urn, aspect, JSON value) into s.
func putAll(t *testing.T, s *mockserver.Server, rows ...[3]string) {
	t.Helper()
	for _, r := range rows {
		if err := s.PutAspectJSON(r[0], r[1], json.RawMessage(r[2])); err != nil {
			t.Fatalf("PutAspectJSON %s %s: %v", r[0], r[1], err)
		}
	}
}

// TestGraphQLComputedFields reads the entity fields DataHub computes
// (relationships, lineage, parentContainers, health, structured property
// values) and the fields the issue found missing from served types, each
// after writing the aspects they come from.
func TestGraphQLComputedFields(t *testing.T) {
	t.Parallel()
	const up = "urn:li:dataset:(urn:li:dataPlatform:hive,db.raw,PROD)"
	for _, c := range []struct {
		name string
		rows [][3]string
		doc  string
		want []string
	}{
		{"relationships", [][3]string{{gqlDataset, "container", `{"container":"urn:li:container:c"}`}, {"urn:li:container:c", "containerProperties", `{"name":"C"}`}},
			`{ dataset(urn: "` + gqlDataset + `") { relationships(input: {types: ["IsPartOf"], direction: OUTGOING}) { start count total relationships { type direction entity { urn } } } }
			   container(urn: "urn:li:container:c") { relationships(input: {types: ["IsPartOf"], direction: INCOMING}) { total relationships { entity { urn } } } } }`,
			[]string{`"relationships":{"count":1,"relationships":[{"direction":"OUTGOING","entity":{"urn":"urn:li:container:c"},"type":"IsPartOf"}],"start":0,"total":1}`,
				`"relationships":{"relationships":[{"entity":{"urn":"` + gqlDataset + `"}}],"total":1}`}},
		{"lineage", [][3]string{{gqlDataset, "upstreamLineage", `{"upstreams":[{"dataset":"` + up + `","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}]}`},
			{up, "datasetProperties", `{"name":"raw"}`}},
			`{ dataset(urn: "` + gqlDataset + `") { lineage(input: {direction: UPSTREAM}) { total relationships { type degree entity { urn } } } }
			   up: dataset(urn: "` + up + `") { lineage(input: {direction: DOWNSTREAM}) { total relationships { entity { urn } } } } }`,
			[]string{`"lineage":{"relationships":[{"degree":1,"entity":{"urn":"` + up + `"},"type":"DownstreamOf"}],"total":1}`,
				`"up":{"lineage":{"relationships":[{"entity":{"urn":"` + gqlDataset + `"}}],"total":1}}`}},
		{"parentContainers", [][3]string{{gqlDataset, "container", `{"container":"urn:li:container:c"}`}, {"urn:li:container:c", "containerProperties", `{"name":"C"}`},
			{"urn:li:container:c", "container", `{"container":"urn:li:container:top"}`}, {"urn:li:container:top", "containerProperties", `{"name":"Top"}`}},
			`{ dataset(urn: "` + gqlDataset + `") { parentContainers { count containers { urn properties { name } } } } }`,
			[]string{`"parentContainers":{"containers":[{"properties":{"name":"C"},"urn":"urn:li:container:c"},{"properties":{"name":"Top"},"urn":"urn:li:container:top"}],"count":2}`}},
		{"health", [][3]string{
			{"urn:li:incident:i1", "incidentInfo", `{"type":"OPERATIONAL","title":"Broken","entities":["` + gqlDataset + `"],"status":{"state":"ACTIVE","lastUpdated":{"time":20,"actor":"urn:li:corpuser:x"}},"created":{"time":10,"actor":"urn:li:corpuser:x"}}`},
			{"urn:li:assertion:a1", "assertionInfo", `{"type":"DATASET","datasetAssertion":{"dataset":"` + gqlDataset + `","scope":"DATASET_ROWS","operator":"GREATER_THAN"}}`},
			{"urn:li:assertion:a1", "assertionRunEvent", `{"timestampMillis":5,"runId":"r","assertionUrn":"urn:li:assertion:a1","asserteeUrn":"` + gqlDataset + `","status":"COMPLETE","result":{"type":"FAILURE"}}`}},
			`{ dataset(urn: "` + gqlDataset + `") { health { type status message causes activeIncidentHealthDetails { latestIncidentUrn latestIncidentTitle count } } } }`,
			[]string{`{"activeIncidentHealthDetails":{"count":1,"latestIncidentTitle":"Broken","latestIncidentUrn":"urn:li:incident:i1"},"causes":["ACTIVE_INCIDENTS"],"message":"1 active incident","status":"FAIL","type":"INCIDENTS"}`,
				`{"activeIncidentHealthDetails":null,"causes":["urn:li:assertion:a1"],"message":"1 of 1 assertions are failing","status":"FAIL","type":"ASSERTIONS"}`}},
		{"siblings", [][3]string{{gqlDataset, "siblings", `{"siblings":["urn:li:dataset:(urn:li:dataPlatform:dbt,db.users,PROD)"],"primary":false}`},
			{"urn:li:dataset:(urn:li:dataPlatform:dbt,db.users,PROD)", "siblings", `{"siblings":["` + gqlDataset + `"],"primary":true}`}},
			`{ dataset(urn: "` + gqlDataset + `") { siblings { isPrimary siblings { urn } } siblingsSearch(input: {query: "*"}) { total searchResults { entity { urn } } } } }`,
			[]string{`"siblings":{"isPrimary":false,"siblings":[{"urn":"urn:li:dataset:(urn:li:dataPlatform:dbt,db.users,PROD)"}]}`,
				`"siblingsSearch":{"searchResults":[{"entity":{"urn":"urn:li:dataset:(urn:li:dataPlatform:dbt,db.users,PROD)"}}],"total":1}`}},
		{"structured property values", nil,
			`{ dataset(urn: "` + gqlDataset + `") { structuredProperties { properties { values { ... on StringValue { stringValue } ... on NumberValue { numberValue } } } } } }`,
			[]string{`"values":[{"stringValue":"a"},{"stringValue":"b"}]`, `"values":[{"numberValue":2.5}]`}},
		{"PDL defaults", [][3]string{{"urn:li:form:x", "formInfo", `{"name":"x","prompts":[{"id":"p","title":"t","type":"STRUCTURED_PROPERTY"}]}`}},
			`{ form(urn: "urn:li:form:x") { info { type prompts { required } actors { owners } } } }`,
			[]string{`"info":{"actors":{"owners":true},"prompts":[{"required":false}],"type":"COMPLETION"}`}},
		// The fields issue 28 found missing from served types, each read
		// after writing its aspect.
		{"InstitutionalMemoryMetadata.settings", [][3]string{{gqlDataset, "institutionalMemory", `{"elements":[{"url":"https://wiki/users","description":"Wiki","createStamp":{"time":5,"actor":"urn:li:corpuser:jdoe"},"settings":{"showInAssetPreview":true}}]}`}},
			`{ dataset(urn: "` + gqlDataset + `") { institutionalMemory { elements { url settings { showInAssetPreview } } } } }`, []string{`"settings":{"showInAssetPreview":true}`}},
		{"Tag.description", [][3]string{{"urn:li:tag:t", "tagProperties", `{"name":"T","description":"tag desc"}`}},
			`{ tag(urn: "urn:li:tag:t") { description } }`, []string{`"tag":{"description":"tag desc"}`}},
		{"Dataset.deprecation", [][3]string{{gqlDataset, "deprecation", `{"deprecated":true,"note":"old","actor":"urn:li:corpuser:x"}`}},
			`{ dataset(urn: "` + gqlDataset + `") { deprecation { deprecated note } } }`, []string{`"deprecation":{"deprecated":true,"note":"old"}`}},
		{"Dataset.domain", [][3]string{{gqlDataset, "domains", `{"domains":["urn:li:domain:d"]}`}, {"urn:li:domain:d", "domainProperties", `{"name":"D"}`}},
			`{ dataset(urn: "` + gqlDataset + `") { domain { domain { urn properties { name } } } } }`, []string{`"domain":{"domain":{"properties":{"name":"D"},"urn":"urn:li:domain:d"}}`}},
		{"Dataset.container", [][3]string{{gqlDataset, "container", `{"container":"urn:li:container:c"}`}, {"urn:li:container:c", "containerProperties", `{"name":"C"}`}},
			`{ dataset(urn: "` + gqlDataset + `") { container { urn properties { name } } } }`, []string{`"container":{"properties":{"name":"C"},"urn":"urn:li:container:c"}`}},
		{"Dataset.globalTags", nil,
			`{ dataset(urn: "` + gqlDataset + `") { globalTags { tags { tag { urn } } } } }`, []string{`"globalTags":{"tags":[{"tag":{"urn":"urn:li:tag:pii"}}]}`}},
		{"Dataset.incidents", [][3]string{
			{"urn:li:incident:i1", "incidentInfo", `{"type":"OPERATIONAL","entities":["` + gqlDataset + `"],"status":{"state":"ACTIVE","lastUpdated":{"time":20,"actor":"urn:li:corpuser:x"}},"created":{"time":10,"actor":"urn:li:corpuser:x"}}`},
			{"urn:li:incident:i2", "incidentInfo", `{"type":"OPERATIONAL","entities":["` + gqlDataset + `"],"status":{"state":"RESOLVED","lastUpdated":{"time":30,"actor":"urn:li:corpuser:x"}},"created":{"time":30,"actor":"urn:li:corpuser:x"}}`}},
			`{ dataset(urn: "` + gqlDataset + `") { all: incidents { total incidents { urn } } active: incidents(state: ACTIVE) { total incidents { urn } } } }`,
			[]string{`"all":{"incidents":[{"urn":"urn:li:incident:i2"},{"urn":"urn:li:incident:i1"}],"total":2}`, `"active":{"incidents":[{"urn":"urn:li:incident:i1"}],"total":1}`}},
		{"Dataset.assertions", [][3]string{{"urn:li:assertion:a1", "assertionInfo", `{"type":"DATASET","datasetAssertion":{"dataset":"` + gqlDataset + `","scope":"DATASET_ROWS","operator":"GREATER_THAN"}}`}},
			`{ dataset(urn: "` + gqlDataset + `") { assertions { total assertions { urn } } } }`, []string{`"assertions":{"assertions":[{"urn":"urn:li:assertion:a1"}],"total":1}`}},
		{"EditableSchemaFieldInfo.globalTags", [][3]string{{gqlDataset, "editableSchemaMetadata", `{"editableSchemaFieldInfo":[{"fieldPath":"id","globalTags":{"tags":[{"tag":"urn:li:tag:t"}]}}]}`}},
			`{ dataset(urn: "` + gqlDataset + `") { editableSchemaMetadata { editableSchemaFieldInfo { fieldPath globalTags { tags { tag { urn } } } } } } }`,
			[]string{`"editableSchemaFieldInfo":[{"fieldPath":"id","globalTags":{"tags":[{"tag":{"urn":"urn:li:tag:t"}}]}}]`}},
		{"DataProcessInstance training run", [][3]string{
			{"urn:li:dataProcessInstance:run1", "dataProcessInstanceProperties", `{"name":"run1","created":{"time":1,"actor":"urn:li:corpuser:x"}}`},
			{"urn:li:dataProcessInstance:run1", "subTypes", `{"typeNames":["ML Training Run"]}`},
			{"urn:li:dataProcessInstance:run1", "container", `{"container":"urn:li:container:c"}`},
			{"urn:li:dataProcessInstance:run1", "dataPlatformInstance", `{"platform":"urn:li:dataPlatform:mlflow","instance":"urn:li:dataPlatformInstance:(urn:li:dataPlatform:mlflow,prod)"}`},
			{"urn:li:dataProcessInstance:run1", "mlTrainingRunProperties", `{"id":"r-1","outputUrls":["s3://out"]}`}},
			`{ dataProcessInstance(urn: "urn:li:dataProcessInstance:run1") { properties { name } subTypes { typeNames } container { urn }
			     dataPlatformInstance { urn } mlTrainingRunProperties { id outputUrls } } }`,
			[]string{`"properties":{"name":"run1"}`, `"subTypes":{"typeNames":["ML Training Run"]}`, `"container":{"urn":"urn:li:container:c"}`,
				`"dataPlatformInstance":{"urn":"urn:li:dataPlatformInstance:(urn:li:dataPlatform:mlflow,prod)"}`,
				`"mlTrainingRunProperties":{"id":"r-1","outputUrls":["s3://out"]}`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := mutServer(t)
			if c.name == "structured property values" {
				for _, p := range []string{`qualifiedName: "io.s", valueType: "urn:li:dataType:datahub.string", cardinality: MULTIPLE`,
					`qualifiedName: "io.n", valueType: "urn:li:dataType:datahub.number"`} {
					gqlData(t, s, `mutation { createStructuredProperty(input: {`+p+`, entityTypes: ["urn:li:entityType:datahub.dataset"]}) { urn } }`, nil)
				}
				gqlData(t, s, `mutation($u: String!) { upsertStructuredProperties(input: {assetUrn: $u, structuredPropertyInputParams: [
					{structuredPropertyUrn: "urn:li:structuredProperty:io.s", values: [{stringValue: "a"}, {stringValue: "b"}]},
					{structuredPropertyUrn: "urn:li:structuredProperty:io.n", values: [{numberValue: 2.5}]}]}) { properties { associatedUrn } } }`, map[string]any{"u": gqlDataset})
			}
			putAll(t, s, c.rows...)
			contains(t, c.name, asJSON(gqlData(t, s, c.doc, nil)), c.want...)
		})
	}
}
