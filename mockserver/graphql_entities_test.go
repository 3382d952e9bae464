package mockserver_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver"
)

// entityAnswers are, for every entity type of the registry, a URN of it and
// the GraphQL type and EntityType entity(urn) answers it as ("" for null:
// DataHub's SDL has no type for it).
var entityAnswers = map[string]struct{ urn, typename, entityType string }{
	"dataPlatform":            {"urn:li:dataPlatform:hive", "DataPlatform", "DATA_PLATFORM"},
	"role":                    {"urn:li:role:x", "Role", "ROLE"},
	"dataset":                 {"urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)", "Dataset", "DATASET"},
	"dataHubPolicy":           {"urn:li:dataHubPolicy:x", "DataHubPolicy", "DATAHUB_POLICY"},
	"dataJob":                 {"urn:li:dataJob:(urn:li:dataFlow:(x,x,x),x)", "DataJob", "DATA_JOB"},
	"dataFlow":                {"urn:li:dataFlow:(x,x,x)", "DataFlow", "DATA_FLOW"},
	"dataProcess":             {"urn:li:dataProcess:(x,x,PROD)", "", ""},
	"dataProcessInstance":     {"urn:li:dataProcessInstance:x", "DataProcessInstance", "DATA_PROCESS_INSTANCE"},
	"chart":                   {"urn:li:chart:(x,x)", "Chart", "CHART"},
	"dashboard":               {"urn:li:dashboard:(x,x)", "Dashboard", "DASHBOARD"},
	"notebook":                {"urn:li:notebook:(x,x)", "Notebook", "NOTEBOOK"},
	"corpuser":                {"urn:li:corpuser:x", "CorpUser", "CORP_USER"},
	"corpGroup":               {"urn:li:corpGroup:x", "CorpGroup", "CORP_GROUP"},
	"domain":                  {"urn:li:domain:x", "Domain", "DOMAIN"},
	"container":               {"urn:li:container:x", "Container", "CONTAINER"},
	"tag":                     {"urn:li:tag:x", "Tag", "TAG"},
	"glossaryTerm":            {"urn:li:glossaryTerm:x", "GlossaryTerm", "GLOSSARY_TERM"},
	"glossaryNode":            {"urn:li:glossaryNode:x", "GlossaryNode", "GLOSSARY_NODE"},
	"document":                {"urn:li:document:x", "Document", "DOCUMENT"},
	"dataHubIngestionSource":  {"urn:li:dataHubIngestionSource:x", "", ""},
	"dataHubSecret":           {"urn:li:dataHubSecret:x", "", ""},
	"dataHubExecutionRequest": {"urn:li:dataHubExecutionRequest:x", "ExecutionRequest", "EXECUTION_REQUEST"},
	"assertion":               {"urn:li:assertion:x", "Assertion", "ASSERTION"},
	"dataHubRetention":        {"urn:li:dataHubRetention:(x,x)", "", ""},
	"dataPlatformInstance":    {"urn:li:dataPlatformInstance:(urn:li:dataPlatform:hive,x)", "DataPlatformInstance", "DATA_PLATFORM_INSTANCE"},
	"mlModel":                 {"urn:li:mlModel:(urn:li:dataPlatform:hive,x,PROD)", "MLModel", "MLMODEL"},
	"mlModelGroup":            {"urn:li:mlModelGroup:(urn:li:dataPlatform:hive,x,PROD)", "MLModelGroup", "MLMODEL_GROUP"},
	"mlModelDeployment":       {"urn:li:mlModelDeployment:(urn:li:dataPlatform:hive,x,PROD)", "", ""},
	"mlFeatureTable":          {"urn:li:mlFeatureTable:(urn:li:dataPlatform:hive,x)", "MLFeatureTable", "MLFEATURE_TABLE"},
	"mlFeature":               {"urn:li:mlFeature:(x,x)", "MLFeature", "MLFEATURE"},
	"mlPrimaryKey":            {"urn:li:mlPrimaryKey:(x,x)", "MLPrimaryKey", "MLPRIMARY_KEY"},
	"telemetry":               {"urn:li:telemetry:x", "", ""},
	"dataHubAccessToken":      {"urn:li:dataHubAccessToken:x", "AccessTokenMetadata", "ACCESS_TOKEN"},
	"test":                    {"urn:li:test:x", "Test", "TEST"},
	"dataHubUpgrade":          {"urn:li:dataHubUpgrade:x", "", ""},
	"inviteToken":             {"urn:li:inviteToken:x", "", ""},
	"schemaField":             {"urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD),x)", "SchemaFieldEntity", "SCHEMA_FIELD"},
	"globalSettings":          {"urn:li:globalSettings:x", "", ""},
	"versionSet":              {"urn:li:versionSet:(x,x)", "VersionSet", "VERSION_SET"},
	"incident":                {"urn:li:incident:x", "Incident", "INCIDENT"},
	"dataHubRole":             {"urn:li:dataHubRole:x", "DataHubRole", "DATAHUB_ROLE"},
	"post":                    {"urn:li:post:x", "Post", "POST"},
	"dataHubStepState":        {"urn:li:dataHubStepState:x", "", ""},
	"dataHubView":             {"urn:li:dataHubView:x", "DataHubView", "DATAHUB_VIEW"},
	"erModelRelationship":     {"urn:li:erModelRelationship:x", "ERModelRelationship", "ER_MODEL_RELATIONSHIP"},
	"query":                   {"urn:li:query:x", "QueryEntity", "QUERY"},
	"dataProduct":             {"urn:li:dataProduct:x", "DataProduct", "DATA_PRODUCT"},
	"application":             {"urn:li:application:x", "Application", "APPLICATION"},
	"semanticModel":           {"urn:li:semanticModel:(urn:li:dataPlatform:hive,x,x)", "SemanticModel", "SEMANTIC_MODEL"},
	"metric":                  {"urn:li:metric:(urn:li:dataPlatform:hive,x,x)", "Metric", "METRIC"},
	"ownershipType":           {"urn:li:ownershipType:x", "OwnershipTypeEntity", "CUSTOM_OWNERSHIP_TYPE"},
	"lifecycleStageType":      {"urn:li:lifecycleStageType:x", "", ""},
	"businessAttribute":       {"urn:li:businessAttribute:x", "BusinessAttribute", "BUSINESS_ATTRIBUTE"},
	"dataContract":            {"urn:li:dataContract:x", "DataContract", "DATA_CONTRACT"},
	"dataHubPersona":          {"urn:li:dataHubPersona:x", "", ""},
	"dataHubAction":           {"urn:li:dataHubAction:x", "", ""},
	"entityType":              {"urn:li:entityType:x", "EntityTypeEntity", "ENTITY_TYPE"},
	"dataType":                {"urn:li:dataType:x", "DataTypeEntity", "DATA_TYPE"},
	"structuredProperty":      {"urn:li:structuredProperty:x", "StructuredPropertyEntity", "STRUCTURED_PROPERTY"},
	"form":                    {"urn:li:form:x", "Form", "FORM"},
	"dataHubPageTemplate":     {"urn:li:dataHubPageTemplate:x", "DataHubPageTemplate", "DATAHUB_PAGE_TEMPLATE"},
	"dataHubPageModule":       {"urn:li:dataHubPageModule:x", "DataHubPageModule", "DATAHUB_PAGE_MODULE"},
	"dataHubFile":             {"urn:li:dataHubFile:x", "DataHubFile", "DATAHUB_FILE"},
	"dataHubConnection":       {"urn:li:dataHubConnection:x", "DataHubConnection", "DATAHUB_CONNECTION"},
	"platformResource":        {"urn:li:platformResource:x", "", ""},
	"dataHubOpenAPISchema":    {"urn:li:dataHubOpenAPISchema:x", "", ""},
	"service":                 {"urn:li:service:x", "", ""},
	"aiAgent":                 {"urn:li:aiAgent:x", "", ""},
	"api":                     {"urn:li:api:x", "", ""},
	"repository":              {"urn:li:repository:x", "", ""},
	"agentSkill":              {"urn:li:agentSkill:x", "", ""},
}

// TestGraphQLEntityEveryType checks entity and entities on a URN of every
// entity type of the registry: an object of its GraphQL type with its urn and
// type, or null for a type DataHub's SDL has no type for.
func TestGraphQLEntityEveryType(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	for _, e := range pdl.Entities() {
		if _, ok := entityAnswers[e.Name]; !ok {
			t.Errorf("no URN of entity type %s in entityAnswers", e.Name)
		}
	}
	for name, a := range entityAnswers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			q := `query q($u: String!) { entity(urn: $u) { __typename urn type } entities(urns: [$u]) { __typename urn type } entityExists(urn: $u) }`
			object := "null"
			if a.typename != "" {
				object = fmt.Sprintf(`{"__typename":%q,"urn":%q,"type":%q}`, a.typename, a.urn, a.entityType)
			}
			wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, map[string]any{"u": a.urn})),
				`{"data":{"entity":`+object+`,"entities":[`+object+`],"entityExists":false},"extensions":{}}`)
		})
	}
}

// TestGraphQLEntityExistsByURN checks the exists field of entities answered
// by URN alone: true once an aspect of the entity was written.
func TestGraphQLEntityExistsByURN(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	for u, aspect := range map[string]string{
		"urn:li:container:abc":                       `{"name":"abc"}`,
		"urn:li:glossaryNode:ab":                     `{"definition":"d"}`,
		"urn:li:dataJob:(urn:li:dataFlow:(x,x,x),j)": `{"name":"j","type":{"string":"COMMAND"},"customProperties":{}}`,
	} {
		name := map[string]string{"container": "containerProperties", "glossaryNode": "glossaryNodeInfo", "dataJob": "dataJobInfo"}[entityTypeOf(u)]
		if err := s.PutAspectJSON(u, name, json.RawMessage(aspect)); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	q := `{
	  a: entity(urn: "urn:li:container:abc") { ... on Container { exists } }
	  b: entity(urn: "urn:li:container:none") { ... on Container { exists } }
	  c: entity(urn: "urn:li:glossaryNode:ab") { ... on GlossaryNode { exists } }
	  d: entity(urn: "urn:li:dataJob:(urn:li:dataFlow:(x,x,x),j)") { ... on DataJob { exists } }
	  e: entities(urns: ["urn:li:container:abc", "urn:li:container:none", "urn:li:telemetry:x"], checkForExistence: true) { urn }
	}`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, nil)),
		`{"data":{"a":{"exists":true},"b":{"exists":false},"c":{"exists":true},"d":{"exists":true},
		  "e":[{"urn":"urn:li:container:abc"}]},"extensions":{}}`)
}

// entityTypeOf is the entity type of a well-formed URN.
func entityTypeOf(u string) string {
	var typ string
	for i, n, start := 0, 0, 0; i <= len(u); i++ {
		if i == len(u) || u[i] == ':' {
			n++
			if n == 3 {
				typ = u[start:i]
				break
			}
			start = i + 1
		}
	}
	return typ
}
