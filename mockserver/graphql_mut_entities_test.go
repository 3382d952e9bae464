package mockserver_test

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver"
)

// TestGraphQLUpdateEntity runs the update<Entity> mutations and reads their
// effect back through GraphQL and through Rest.li.
func TestGraphQLUpdateEntity(t *testing.T) {
	t.Parallel()
	s := mutServer(t)
	gqlData(t, s, `mutation { createTag(input: {id: "gold", name: "Gold"}) }`, nil)
	got := gqlData(t, s, `mutation($u: String!) { updateDataset(urn: $u, input: {
		ownership: {owners: [{owner: "urn:li:corpuser:alice", type: DATAOWNER}]},
		deprecation: {deprecated: true, note: "old"},
		institutionalMemory: {elements: [{url: "https://doc", description: "Doc", author: "urn:li:corpuser:alice", createdAt: 9}]},
		tags: {tags: [{tag: {urn: "urn:li:tag:gold", name: "Gold"}}]},
		editableSchemaMetadata: {editableSchemaFieldInfo: [{fieldPath: "id", description: "the key", globalTags: {tags: [{tag: {urn: "urn:li:tag:gold", name: "Gold"}}]}}]},
		editableProperties: {description: "Edited", name: "Users"}}) {
		urn editableProperties { description name } tags { tags { tag { urn } } }
		ownership { owners { owner { ... on CorpUser { urn } } } } institutionalMemory { elements { url } } } }`,
		map[string]any{"u": gqlDataset})
	contains(t, "updateDataset answer", asJSON(got), `"description":"Edited"`, `"name":"Users"`, `"urn":"urn:li:tag:gold"`, `"url":"https://doc"`, gqlUser)
	if strings.Contains(asJSON(got), "urn:li:tag:pii") || strings.Contains(asJSON(got), "jdoe") {
		t.Errorf("updateDataset keeps replaced tags or owners: %s", asJSON(got))
	}
	contains(t, "REST ownership", restAspect(t, s, gqlDataset, "ownership"), `"owner":"urn:li:corpuser:alice"`, `"type":"DATAOWNER"`, `"source":{"type":"SERVICE"}`)
	contains(t, "REST datasetDeprecation", restAspect(t, s, gqlDataset, "datasetDeprecation"), `"deprecated":true`, `"note":"old"`)
	contains(t, "REST editableSchemaMetadata", restAspect(t, s, gqlDataset, "editableSchemaMetadata"), `"fieldPath":"id"`, `"description":"the key"`, `"tag":"urn:li:tag:gold"`)
	contains(t, "REST institutionalMemory", restAspect(t, s, gqlDataset, "institutionalMemory"), `"createStamp":{"actor":"urn:li:corpuser:alice","time":9}`)

	for _, tc := range []struct{ field, urn, input, aspect string }{
		{"updateChart", "urn:li:chart:(looker,c1)", "ChartUpdateInput", "editableChartProperties"},
		{"updateDashboard", "urn:li:dashboard:(looker,d1)", "DashboardUpdateInput", "editableDashboardProperties"},
		{"updateNotebook", "urn:li:notebook:(querybook,n1)", "NotebookUpdateInput", "editableNotebookProperties"},
		{"updateDataFlow", "urn:li:dataFlow:(airflow,f1,prod)", "DataFlowUpdateInput", "editableDataFlowProperties"},
		{"updateDataJob", "urn:li:dataJob:(urn:li:dataFlow:(airflow,f1,prod),j1)", "DataJobUpdateInput", "editableDataJobProperties"},
	} {
		got := gqlData(t, s, `mutation($u: String!, $i: `+tc.input+`!) { `+tc.field+`(urn: $u, input: $i) { urn } }`,
			map[string]any{"u": tc.urn, "i": map[string]any{"editableProperties": map[string]any{"description": "about " + tc.field},
				"tags": map[string]any{"tags": []any{map[string]any{"tag": map[string]any{"urn": "urn:li:tag:gold", "name": "Gold"}}}}}})
		contains(t, tc.field+" answer", asJSON(got), tc.urn)
		contains(t, tc.field+" REST", restAspect(t, s, tc.urn, tc.aspect), `"description":"about `+tc.field+`"`)
		contains(t, tc.field+" REST tags", restAspect(t, s, tc.urn, "globalTags"), `"tag":"urn:li:tag:gold"`)
	}

	batch := gqlData(t, s, `mutation { updateDatasets(input: [
		{urn: "urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)", update: {editableProperties: {description: "A"}}},
		{urn: "urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)", update: {editableProperties: {description: "B"}}}]) { urn editableProperties { description } } }`, nil)
	contains(t, "updateDatasets", asJSON(batch), `"description":"A"`, `"description":"B"`)

	msg, code := gqlError(t, s, `mutation { updateChart(urn: "not-a-urn", input: {}) { urn } }`, nil)
	if code != 400 || msg == "" {
		t.Errorf("bad urn: %q %v", msg, code)
	}
	msg, code = gqlError(t, s, `mutation($u: String!) { updateChart(urn: $u, input: {}) { urn } }`, map[string]any{"u": gqlDataset})
	if code != 400 || !strings.Contains(msg, "is not a chart urn") {
		t.Errorf("dataset through updateChart: %q %v", msg, code)
	}
	msg, code = gqlError(t, s, `mutation($u: String!) { updateDataset(urn: $u, input: {tags: {tags: [{tag: {urn: "urn:li:corpuser:x", name: "x"}}]}}) { urn } }`, map[string]any{"u": gqlDataset})
	if code != 500 || msg != "Failed to update tag with urn urn:li:corpuser:x, invalid urn" {
		t.Errorf("a tag that is not a tag: %q %v", msg, code)
	}
}

// TestGraphQLReportOperation reports operations and reads them back as the
// dataset's operation timeseries, through GraphQL and through Rest.li.
func TestGraphQLReportOperation(t *testing.T) {
	t.Parallel()
	s := mutServer(t)
	got := gqlData(t, s, `mutation($u: String!) { reportOperation(input: {urn: $u, operationType: INSERT, sourceType: DATA_PROCESS,
		numAffectedRows: 42, partition: "2024-01-01", timestampMillis: 1700000000000, customProperties: [{key: "job", value: "etl"}]}) }`,
		map[string]any{"u": gqlDataset})
	if got["reportOperation"] != "true" {
		t.Fatalf("reportOperation = %v", got)
	}
	read := gqlData(t, s, `query($u: String!) { dataset(urn: $u) { operations(limit: 10) { operationType numAffectedRows timestampMillis partition } } }`,
		map[string]any{"u": gqlDataset})
	contains(t, "GraphQL operations", asJSON(read), `"operationType":"INSERT"`, `"numAffectedRows":42`, `"timestampMillis":1700000000000`)
	body := restTimeseries(t, s, gqlDataset, "dataset", "operation")
	contains(t, "REST operation", body, `\"partition\":\"2024-01-01\"`, `\"sourceType\":\"DATA_PROCESS\"`, `\"lastUpdatedTimestamp\":1700000000000`, `\"job\":\"etl\"`)

	msg, code := gqlError(t, s, `mutation { reportOperation(input: {urn: "urn:li:chart:(looker,c1)", operationType: INSERT, sourceType: DATA_PROCESS}) }`, nil)
	if code != 400 || msg != "Unable to report operation. Invalid entity type chart provided." {
		t.Errorf("a chart: %q %v", msg, code)
	}
	if _, code := gqlError(t, s, `mutation { reportOperation(input: {urn: "bad", operationType: INSERT, sourceType: DATA_PROCESS}) }`, nil); code != 400 {
		t.Errorf("a bad urn: %v", code)
	}
}

// restTimeseries is the answer of Rest.li's getTimeseriesAspectValues for
// aspect of u.
func restTimeseries(t *testing.T, s *mockserver.Server, u, entity, aspect string) string {
	t.Helper()
	body := `{"urn":"` + u + `","entity":"` + entity + `","aspect":"` + aspect + `","limit":100}`
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL()+"/aspects?action=getTimeseriesAspectValues", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-RestLi-Protocol-Version", "2.0.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("getTimeseriesAspectValues: %d %s", resp.StatusCode, b)
	}
	return string(b)
}

// TestGraphQLERModelRelationship creates and updates a relationship
// between two datasets and reads it back through GraphQL and Rest.li.
func TestGraphQLERModelRelationship(t *testing.T) {
	t.Parallel()
	s := mutServer(t)
	const other = "urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)"
	got := gqlData(t, s, `mutation($a: String!, $b: String!) { createERModelRelationship(input: {
		properties: {name: "user orders", source: $a, destination: $b, created: true,
			relationshipFieldmappings: [{sourceField: "id", destinationField: "user_id"}, {sourceField: "id", destinationField: "buyer_id"}]},
		editableProperties: {description: "who ordered", name: " "}}) { urn } }`, map[string]any{"a": gqlDataset, "b": other})
	// The key orders the two datasets, the lower first, as DataHub's guid.
	u := "urn:li:erModelRelationship:" + md5Hex(`{"Destination":"`+gqlDataset+`","ERModelRelationName":"user orders","Source":"`+other+`"}`)
	contains(t, "createERModelRelationship", asJSON(got), u)
	contains(t, "REST properties", restAspect(t, s, u, "erModelRelationshipProperties"), `"cardinality":"ONE_N"`,
		`"destinationField":"buyer_id"`, `"name":"user orders"`, `"created":{`)
	if got := restAspect(t, s, u, "editableERModelRelationshipProperties"); got != `{"description":"who ordered"}` {
		t.Errorf("editable properties %s (a blank name is left out)", got)
	}
	gqlData(t, s, `mutation($u: String!) { updateERModelRelationship(urn: $u, input: {editableProperties: {description: "orders of a user"}}) }`, map[string]any{"u": u})
	read := gqlData(t, s, `query($u: String!) { entity(urn: $u) { urn ... on ERModelRelationship { editableProperties { description } } } }`, map[string]any{"u": u})
	contains(t, "GraphQL editableProperties", asJSON(read), `"description":"orders of a user"`)

	if got := gqlData(t, s, `mutation($u: String!) { deleteERModelRelationship(urn: $u) }`, map[string]any{"u": u}); got["deleteERModelRelationship"] != nil {
		t.Errorf("deleteERModelRelationship = %v, want null (DataHub has no resolver)", got)
	}
	if _, code := gqlError(t, s, `mutation { updateERModelRelationship(urn: "urn:li:dataset:x", input: {}) }`, nil); code != 400 {
		t.Errorf("a bad urn: %v", code)
	}
	msg, code := gqlError(t, s, `mutation($a: String!) { createERModelRelationship(input: {properties: {name: "n", source: $a, destination: $a}}) { urn } }`,
		map[string]any{"a": gqlDataset})
	if code != 500 || !strings.HasPrefix(msg, "Failed to create erModelRelationship to resource with input") {
		t.Errorf("no field mappings: %q %v", msg, code)
	}
}

func md5Hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestGraphQLBusinessAttributes creates, renames, attaches, detaches and
// deletes a business attribute, reading each effect back.
func TestGraphQLBusinessAttributes(t *testing.T) {
	t.Parallel()
	s := mutServer(t)
	got := gqlData(t, s, `mutation { createBusinessAttribute(input: {id: "email", name: "Email", description: "an address", type: STRING}) { urn } }`, nil)
	const attr = "urn:li:businessAttribute:email"
	contains(t, "createBusinessAttribute", asJSON(got), attr)
	contains(t, "REST info", restAspect(t, s, attr, "businessAttributeInfo"), `"fieldPath":"Email"`, `"name":"Email"`, `"com.linkedin.schema.StringType":{}`)
	contains(t, "REST ownership", restAspect(t, s, attr, "ownership"), `"owner":"urn:li:corpuser:datahub"`)

	msg, code := gqlError(t, s, `mutation { createBusinessAttribute(input: {id: "email", name: "Other"}) { urn } }`, nil)
	if code != 400 || msg != "This Business Attribute already exists!" {
		t.Errorf("same id: %q %v", msg, code)
	}
	msg, code = gqlError(t, s, `mutation { createBusinessAttribute(input: {name: "Email"}) { urn } }`, nil)
	if code != 409 || msg != `"Email" already exists as Business Attribute. Please pick a unique name.` {
		t.Errorf("same name: %q %v", msg, code)
	}
	gqlData(t, s, `mutation { updateBusinessAttribute(urn: "urn:li:businessAttribute:email", input: {name: "E-mail", description: "where mail goes"}) { urn } }`, nil)
	read := gqlData(t, s, `query { businessAttribute(urn: "urn:li:businessAttribute:email") { properties { name description } } }`, nil)
	contains(t, "GraphQL properties", asJSON(read), `"name":"E-mail"`, `"description":"where mail goes"`)
	msg, code = gqlError(t, s, `mutation { updateBusinessAttribute(urn: "urn:li:businessAttribute:ghost", input: {name: "x"}) { urn } }`, nil)
	if code != 500 || msg != "This urn does not exist: urn:li:businessAttribute:ghost" {
		t.Errorf("update of a missing attribute: %q %v", msg, code)
	}

	field := "urn:li:schemaField:(" + gqlDataset + ",id)"
	gqlData(t, s, `mutation($f: String!) { addBusinessAttribute(input: {businessAttributeUrn: "urn:li:businessAttribute:email", resourceUrn: [{resourceUrn: $f}]}) }`, map[string]any{"f": field})
	contains(t, "REST businessAttributes", restAspect(t, s, field, "businessAttributes"), `"businessAttributeUrn":"urn:li:businessAttribute:email"`)
	msg, code = gqlError(t, s, `mutation($f: String!) { addBusinessAttribute(input: {businessAttributeUrn: "urn:li:businessAttribute:ghost", resourceUrn: [{resourceUrn: $f}]}) }`, map[string]any{"f": field})
	if code != 400 || msg != "This urn does not exist: urn:li:businessAttribute:ghost" {
		t.Errorf("add of a missing attribute: %q %v", msg, code)
	}
	gqlData(t, s, `mutation($f: String!) { removeBusinessAttribute(input: {businessAttributeUrn: "urn:li:businessAttribute:email", resourceUrn: [{resourceUrn: $f}]}) }`, map[string]any{"f": field})
	if got := restAspect(t, s, field, "businessAttributes"); got != "{}" {
		t.Errorf("after remove: %s", got)
	}
	msg, code = gqlError(t, s, `mutation($f: String!) { removeBusinessAttribute(input: {businessAttributeUrn: "urn:li:businessAttribute:email", resourceUrn: [{resourceUrn: $f}]}) }`, map[string]any{"f": field})
	if code != 500 || !strings.HasPrefix(msg, "Failed to remove Business Attribute with urn urn:li:businessAttribute:email from resources [ResourceRefInput{resourceUrn=") {
		t.Errorf("remove of none: %q %v", msg, code)
	}
	gqlData(t, s, `mutation { deleteBusinessAttribute(urn: "urn:li:businessAttribute:email") }`, nil)
	if got := restAspect(t, s, attr, "businessAttributeInfo"); got != "" {
		t.Errorf("deleted attribute still has info %s", got)
	}
	msg, code = gqlError(t, s, `mutation { deleteBusinessAttribute(urn: "urn:li:businessAttribute:email") }`, nil)
	if code != 500 || msg != "This urn does not exist: urn:li:businessAttribute:email" {
		t.Errorf("delete twice: %q %v", msg, code)
	}
}

// TestGraphQLPatchEntity patches aspects through patchEntity and
// patchEntities and reads the effect back; a failure is the result's error.
func TestGraphQLPatchEntity(t *testing.T) {
	t.Parallel()
	s := mutServer(t)
	got := gqlData(t, s, `mutation($u: String!) { patchEntity(input: {urn: $u, aspectName: "globalTags",
		patch: [{op: ADD, path: "/tags/urn:li:tag:gold", value: "{\"tag\":\"urn:li:tag:gold\"}"}]}) { urn name success error } }`,
		map[string]any{"u": gqlDataset})
	if want := `{"patchEntity":{"error":null,"name":null,"success":true,"urn":"` + gqlDataset + `"}}`; asJSON(got) != want {
		t.Errorf("patchEntity = %s, want %s", asJSON(got), want)
	}
	read := gqlData(t, s, `query($u: String!) { dataset(urn: $u) { tags { tags { tag { urn } } } } }`, map[string]any{"u": gqlDataset})
	contains(t, "GraphQL tags", asJSON(read), "urn:li:tag:gold", "urn:li:tag:pii")

	const term = "urn:li:glossaryTerm:Revenue"
	got = gqlData(t, s, `mutation($u: String!, $t: String!) { patchEntities(input: [
		{urn: $t, aspectName: "glossaryTermInfo", forceGenericPatch: true, patch: [{op: ADD, path: "/name", value: "Revenue"},
			{op: ADD, path: "/definition", value: "money in"}, {op: ADD, path: "/termSource", value: "INTERNAL"}]},
		{urn: $u, aspectName: "institutionalMemory", arrayPrimaryKeys: [{arrayField: "elements", keys: ["url"]}],
			patch: [{op: ADD, path: "/elements/https:~1~1runbook", value: "{\"url\":\"https://runbook\",\"description\":\"Runbook\",\"createStamp\":{\"time\":1,\"actor\":\"urn:li:corpuser:alice\"}}"}]}]) { urn name success } }`,
		map[string]any{"u": gqlDataset, "t": term})
	contains(t, "patchEntities", asJSON(got), `{"name":"Revenue","success":true,"urn":"`+term+`"}`, `{"name":null,"success":true,"urn":"`+gqlDataset+`"}`)
	contains(t, "REST glossaryTermInfo", restAspect(t, s, term, "glossaryTermInfo"), `"definition":"money in"`, `"name":"Revenue"`)
	contains(t, "REST institutionalMemory", restAspect(t, s, gqlDataset, "institutionalMemory"), `"url":"https://runbook"`, `"url":"https://wiki/users"`)

	got = gqlData(t, s, `mutation { patchEntity(input: {aspectName: "status", patch: [{op: ADD, path: "/removed", value: "true"}]}) { urn success error } }`, nil)
	if want := `{"patchEntity":{"error":"Failed to create MCP for input 0: ` + "URN must be provided for patch operations. Please provide a valid URN for the entity you want to patch." + `","success":false,"urn":"urn:li:unknown:error"}}`; asJSON(got) != want {
		t.Errorf("no urn: %s, want %s", asJSON(got), want)
	}
	got = gqlData(t, s, `mutation($u: String!) { patchEntity(input: {urn: $u, aspectName: "chartInfo", patch: [{op: ADD, path: "/title", value: "x"}]}) { success error } }`, map[string]any{"u": gqlDataset})
	contains(t, "aspect of another entity", asJSON(got), `"error":"Failed to create MCP for input 0: Aspect chartInfo not found for entity type dataset"`, `"success":false`)
	got = gqlData(t, s, `mutation($u: String!) { patchEntities(input: [{urn: $u, aspectName: "status", patch: [{op: ADD, path: "/removed", value: "\"yes\""}]}]) { success error } }`, map[string]any{"u": gqlDataset})
	contains(t, "a patch whose result is invalid", asJSON(got), `"error":"Failed to apply batch patch: `, `"success":false`)
}

// TestGraphQLLogicalModels sets a lifecycle stage and a logical parent,
// creates a logical model, links and unlinks a physical child and makes a
// breaking schema change, reading each effect back.
func TestGraphQLLogicalModels(t *testing.T) {
	t.Parallel()
	s := mutServer(t)
	gqlData(t, s, `mutation($u: String!) { setLifecycleStage(urn: $u, lifecycleStageUrn: "urn:li:lifecycleStageType:draft") }`, map[string]any{"u": gqlDataset})
	contains(t, "REST status", restAspect(t, s, gqlDataset, "status"), `"lifecycleStage":"urn:li:lifecycleStageType:draft"`, `"removed":false`, `"lifecycleLastUpdated":{`)
	gqlData(t, s, `mutation($u: String!) { setLifecycleStage(urn: $u) }`, map[string]any{"u": gqlDataset})
	if got := restAspect(t, s, gqlDataset, "status"); strings.Contains(got, "draft") {
		t.Errorf("cleared stage still there: %s", got)
	}

	got := gqlData(t, s, `mutation { createLogicalModel(input: {name: "customer", displayName: "Customer",
		columns: [{fieldPath: "id", type: NUMBER}, {fieldPath: "email", type: STRING}]}) }`, nil)
	const model = "urn:li:dataset:(urn:li:dataPlatform:logical,customer,PROD)"
	if got["createLogicalModel"] != model {
		t.Fatalf("createLogicalModel = %v", got)
	}
	contains(t, "REST dataPlatformInfo", restAspect(t, s, "urn:li:dataPlatform:logical", "dataPlatformInfo"), `"logical":true`, `"type":"OTHERS"`)
	read := gqlData(t, s, `query { dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:logical,customer,PROD)") { properties { name } schemaMetadata { fields { fieldPath } } } }`, nil)
	contains(t, "GraphQL model", asJSON(read), `"name":"Customer"`, `"fieldPath":"email"`)
	msg, code := gqlError(t, s, `mutation { createLogicalModel(input: {name: "customer", columns: [{fieldPath: "id", type: NUMBER}]}) }`, nil)
	if code != 400 || msg != "A logical model already exists at "+model+"." {
		t.Errorf("twice: %q %v", msg, code)
	}
	msg, code = gqlError(t, s, `mutation { createLogicalModel(input: {name: "x", columns: [{fieldPath: "a", type: NUMBER}, {fieldPath: "a", type: STRING}]}) }`, nil)
	if code != 400 || msg != "Duplicate column field path: a" {
		t.Errorf("duplicate column: %q %v", msg, code)
	}
	// The mock bootstraps no platforms: a platform is physical once its
	// dataPlatformInfo says so.
	_ = s.PutAspectJSON("urn:li:dataPlatform:hive", "dataPlatformInfo", json.RawMessage(`{"name":"hive","type":"RELATIONAL_DB","datasetNameDelimiter":"."}`))
	msg, code = gqlError(t, s, `mutation { createLogicalModel(input: {name: "y", platform: "urn:li:dataPlatform:hive", columns: [{fieldPath: "a", type: NUMBER}]}) }`, nil)
	if code != 400 || msg != "Cannot create a logical model on platform urn:li:dataPlatform:hive: it is not a logical platform." {
		t.Errorf("physical platform: %q %v", msg, code)
	}

	gqlData(t, s, `mutation($p: String!, $c: String!) { linkPhysicalChild(input: {logicalParentUrn: $p, childUrn: $c,
		columnMappings: [{parentFieldPath: "id", childFieldPath: "id"}]}) }`, map[string]any{"p": model, "c": gqlDataset})
	contains(t, "REST child logicalParent", restAspect(t, s, gqlDataset, "logicalParent"), `"destinationUrn":"`+model+`"`)
	contains(t, "REST field logicalParent", restAspect(t, s, "urn:li:schemaField:("+gqlDataset+",id)", "logicalParent"), `"destinationUrn":"urn:li:schemaField:(`+model+`,id)"`)

	// Retyping id is breaking: the child field mapped to it, its only
	// mapping, is unlinked, and so is the child.
	gqlData(t, s, `mutation($p: String!) { updateLogicalModelSchema(input: {urn: $p, columns: [{fieldPath: "id", type: STRING}, {fieldPath: "email", type: STRING}]}) }`, map[string]any{"p": model})
	if got := restAspect(t, s, "urn:li:schemaField:("+gqlDataset+",id)", "logicalParent"); got != "{}" {
		t.Errorf("field still linked after a breaking change: %s", got)
	}
	if got := restAspect(t, s, gqlDataset, "logicalParent"); got != "{}" {
		t.Errorf("child still linked after a breaking change: %s", got)
	}
	contains(t, "REST schema", restAspect(t, s, model, "schemaMetadata"), `"nativeDataType":"STRING"`)

	gqlData(t, s, `mutation($u: String!, $p: String!) { setLogicalParent(input: {resourceUrn: $u, parentUrn: $p}) }`, map[string]any{"u": gqlDataset, "p": model})
	contains(t, "REST setLogicalParent", restAspect(t, s, gqlDataset, "logicalParent"), `"destinationUrn":"`+model+`"`)
	gqlData(t, s, `mutation($c: String!) { unlinkPhysicalChild(input: {childUrn: $c}) }`, map[string]any{"c": gqlDataset})
	if got := restAspect(t, s, gqlDataset, "logicalParent"); got != "{}" {
		t.Errorf("after unlink: %s", got)
	}
	msg, code = gqlError(t, s, `mutation { updateLogicalModelSchema(input: {urn: "urn:li:dataset:(urn:li:dataPlatform:logical,none,PROD)", columns: [{fieldPath: "a", type: NUMBER}]}) }`, nil)
	if code != 400 || msg != "Logical model urn:li:dataset:(urn:li:dataPlatform:logical,none,PROD) has no schema to update." {
		t.Errorf("no schema: %q %v", msg, code)
	}
}

// TestGraphQLUpsertDataContract upserts a dataset's contract twice (the
// second replaces the first under the same URN) and reads it back.
func TestGraphQLUpsertDataContract(t *testing.T) {
	t.Parallel()
	s := mutServer(t)
	gqlData(t, s, `mutation($u: String!) { upsertCustomAssertion(urn: "urn:li:assertion:rows", input: {entityUrn: $u, type: "rows", description: "has rows", platform: {name: "dbt"}}) { urn } }`,
		map[string]any{"u": gqlDataset})
	got := gqlData(t, s, `mutation($u: String!) { upsertDataContract(input: {entityUrn: $u, id: "users", dataQuality: [{assertionUrn: "urn:li:assertion:rows"}]}) { urn } }`,
		map[string]any{"u": gqlDataset})
	contains(t, "upsertDataContract", asJSON(got), `"urn":"urn:li:dataContract:users"`)
	contains(t, "REST properties", restAspect(t, s, "urn:li:dataContract:users", "dataContractProperties"), `"dataQuality":[{"assertion":"urn:li:assertion:rows"}]`, `"entity":"`+gqlDataset+`"`)
	contains(t, "REST status", restAspect(t, s, "urn:li:dataContract:users", "dataContractStatus"), `"state":"ACTIVE"`)
	got = gqlData(t, s, `mutation($u: String!) { upsertDataContract(input: {entityUrn: $u, id: "other", state: PENDING, freshness: [{assertionUrn: "urn:li:assertion:rows"}]}) { urn } }`,
		map[string]any{"u": gqlDataset})
	contains(t, "second upsert keeps the contract", asJSON(got), `"urn":"urn:li:dataContract:users"`)
	if p := restAspect(t, s, "urn:li:dataContract:users", "dataContractProperties"); strings.Contains(p, "dataQuality") || !strings.Contains(p, `"freshness"`) {
		t.Errorf("properties not replaced: %s", p)
	}
	contains(t, "REST status", restAspect(t, s, "urn:li:dataContract:users", "dataContractStatus"), `"state":"PENDING"`)
	read := gqlData(t, s, `query { entity(urn: "urn:li:dataContract:users") { urn type } }`, nil)
	contains(t, "GraphQL contract", asJSON(read), `"type":"DATA_CONTRACT"`) // DataContract.status reads the status aspect (the reads' generated table), not dataContractStatus

	msg, code := gqlError(t, s, `mutation { upsertDataContract(input: {entityUrn: "urn:li:dataset:(urn:li:dataPlatform:hive,ghost,PROD)"}) { urn } }`, nil)
	if code != 400 || msg != "Provided entity with urn urn:li:dataset:(urn:li:dataPlatform:hive,ghost,PROD) does not exist!" {
		t.Errorf("missing entity: %q %v", msg, code)
	}
	msg, code = gqlError(t, s, `mutation($u: String!) { upsertDataContract(input: {entityUrn: $u, schema: [{assertionUrn: "urn:li:assertion:ghost"}]}) { urn } }`, map[string]any{"u": gqlDataset})
	if code != 400 || msg != "Provided assertion with urn urn:li:assertion:ghost does not exist!" {
		t.Errorf("missing assertion: %q %v", msg, code)
	}
}

// TestGraphQLBulkEntityDataProducts reads the data products of entities,
// through their siblings too, with the output port flag.
func TestGraphQLBulkEntityDataProducts(t *testing.T) {
	t.Parallel()
	s := mutServer(t)
	sibling := concDataset(1)
	for _, put := range []struct{ u, aspect, value string }{
		{"urn:li:dataProduct:p", "dataProductProperties", `{"name":"P","assets":[{"destinationUrn":"` + gqlDataset + `"},{"destinationUrn":"` + sibling + `","outputPort":true}]}`},
		{"urn:li:dataProduct:q", "dataProductProperties", `{"name":"Q","assets":[{"destinationUrn":"` + sibling + `"}]}`},
		{gqlDataset, "siblings", `{"siblings":["` + sibling + `"],"primary":true}`},
	} {
		if err := s.PutAspectJSON(put.u, put.aspect, json.RawMessage(put.value)); err != nil {
			t.Fatal(err)
		}
	}
	got := gqlData(t, s, `query($a: String!, $b: String!) { bulkEntityDataProducts(input: {urns: [$a, $b]}) { entities { urn
		dataProductAssociations { dataProduct { urn type properties { name } } isOutputPort } } } }`, map[string]any{"a": gqlDataset, "b": concDataset(2)})
	want := `{"bulkEntityDataProducts":{"entities":[{"dataProductAssociations":[` +
		`{"dataProduct":{"properties":{"name":"P"},"type":"DATA_PRODUCT","urn":"urn:li:dataProduct:p"},"isOutputPort":true},` +
		`{"dataProduct":{"properties":{"name":"Q"},"type":"DATA_PRODUCT","urn":"urn:li:dataProduct:q"},"isOutputPort":false}],"urn":"` + gqlDataset + `"},` +
		`{"dataProductAssociations":[],"urn":"` + concDataset(2) + `"}]}}`
	if asJSON(got) != want {
		t.Errorf("bulkEntityDataProducts =\n%s\nwant\n%s", asJSON(got), want)
	}
	urns := make([]any, 101)
	for i := range urns {
		urns[i] = concDataset(i)
	}
	msg, code := gqlError(t, s, `query($u: [String!]!) { bulkEntityDataProducts(input: {urns: $u}) { entities { urn } } }`, map[string]any{"u": urns})
	if code != 400 || msg != "Cannot fetch data products for more than 100 entities at once" {
		t.Errorf("101 urns: %q %v", msg, code)
	}
}

// TestGraphQLGetSchemaBlame reads the last change of each field from the
// stored versions of a dataset's schema.
func TestGraphQLGetSchemaBlame(t *testing.T) {
	t.Parallel()
	var now atomic.Int64 // each write at its own millisecond
	now.Store(1_700_000_000_000)
	s := mockserver.Start(t, mockserver.WithClock(func() time.Time { return time.UnixMilli(now.Add(1000)) }))
	const ds = "urn:li:dataset:(urn:li:dataPlatform:hive,blame,PROD)"
	types := map[string]string{"a": "StringType", "b": "BooleanType", "c": "NumberType"}
	schema := func(fields ...string) json.RawMessage {
		var fs []string
		for _, f := range fields {
			fs = append(fs, `{"fieldPath":"`+f+`","nullable":false,"type":{"type":{"com.linkedin.schema.`+types[f]+`":{}}},"nativeDataType":"x","recursive":false}`)
		}
		return json.RawMessage(`{"schemaName":"b","platform":"urn:li:dataPlatform:hive","version":0,"hash":"","platformSchema":{"com.linkedin.schema.Schemaless":{}},"fields":[` + strings.Join(fs, ",") + `]}`)
	}
	for _, v := range []json.RawMessage{schema("a", "b"), schema("a", "b", "c"), schema("a", "c")} {
		if err := s.PutAspectJSON(ds, "schemaMetadata", v); err != nil {
			t.Fatal(err)
		}
	}
	const doc = `query($u: String!, $v: String) { getSchemaBlame(input: {datasetUrn: $u, version: $v}) { version { semanticVersion }
		schemaFieldBlameList { fieldPath schemaFieldChange { lastSemanticVersion changeType lastSchemaFieldChange } } } }`
	got := gqlData(t, s, doc, map[string]any{"u": ds})
	// c added: 0.1.0; b removed: 1.0.0 (and left out of the blame).
	want := `{"getSchemaBlame":{"schemaFieldBlameList":[` +
		`{"fieldPath":"a","schemaFieldChange":{"changeType":"ADD","lastSchemaFieldChange":"Added in v0.0.0","lastSemanticVersion":"0.0.0"}},` +
		`{"fieldPath":"c","schemaFieldChange":{"changeType":"ADD","lastSchemaFieldChange":"Added in v0.1.0","lastSemanticVersion":"0.1.0"}}],` +
		`"version":{"semanticVersion":"1.0.0"}}}`
	if asJSON(got) != want {
		t.Errorf("getSchemaBlame =\n%s\nwant\n%s", asJSON(got), want)
	}
	first := gqlData(t, s, doc, map[string]any{"u": ds, "v": "0.0.0"})
	if s := asJSON(first); !strings.Contains(s, `"fieldPath":"b"`) || strings.Contains(s, `"fieldPath":"c"`) {
		t.Errorf("blame at 0.0.0: %s", s)
	}
	if got := gqlData(t, s, doc, map[string]any{"u": "urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD)"}); asJSON(got) != `{"getSchemaBlame":{"schemaFieldBlameList":null,"version":null}}` {
		t.Errorf("no versions: %s", asJSON(got))
	}
}
