package graphql

// The entities the mock answers by URN alone: every entity type of the
// registry whose GraphQL type DataHub's SDL declares, besides the served ones
// of graphQLType. entity and entities answer them with urn, type and (where
// DataHub's type has it) exists; they are not searched. An entity type with
// no GraphQL type (telemetry, say) is answered as null, as DataHub's
// UrnToEntityMapper maps it to no entity.

// urnOnlyTypes are the GraphQL types of the entities answered by URN alone
// (DataJob and the other lineage entities of graphQLType are answered so
// too).
var urnOnlyTypes = map[string]string{
	"application":             "Application",
	"assertion":               "Assertion",
	"businessAttribute":       "BusinessAttribute",
	"container":               "Container",
	"dataContract":            "DataContract",
	"dataHubAccessToken":      "AccessTokenMetadata",
	"dataHubConnection":       "DataHubConnection",
	"dataHubExecutionRequest": "ExecutionRequest",
	"dataHubFile":             "DataHubFile",
	"dataHubPageModule":       "DataHubPageModule",
	"dataHubPageTemplate":     "DataHubPageTemplate",
	"dataHubPolicy":           "DataHubPolicy",
	"dataHubRole":             "DataHubRole",
	"dataHubView":             "DataHubView",
	"dataPlatformInstance":    "DataPlatformInstance",
	"dataProduct":             "DataProduct",
	"dataType":                "DataTypeEntity",
	"document":                "Document",
	"domain":                  "Domain",
	"entityType":              "EntityTypeEntity",
	"erModelRelationship":     "ERModelRelationship",
	"form":                    "Form",
	"glossaryNode":            "GlossaryNode",
	"incident":                "Incident",
	"metric":                  "Metric",
	"notebook":                "Notebook",
	"ownershipType":           "OwnershipTypeEntity",
	"post":                    "Post",
	"query":                   "QueryEntity",
	"role":                    "Role",
	"schemaField":             "SchemaFieldEntity",
	"semanticModel":           "SemanticModel",
	"structuredProperty":      "StructuredPropertyEntity",
	"test":                    "Test",
	"versionSet":              "VersionSet",
}

func (r *entityR) ToApplication() (*urnOnlyR, bool) { return &urnOnlyR{r.e}, r.e.name == "application" }
func (r *entityR) ToAssertion() (*urnOnlyR, bool)   { return &urnOnlyR{r.e}, r.e.name == "assertion" }
func (r *entityR) ToBusinessAttribute() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "businessAttribute"
}
func (r *entityR) ToContainer() (*urnOnlyR, bool) { return &urnOnlyR{r.e}, r.e.name == "container" }
func (r *entityR) ToDataContract() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "dataContract"
}
func (r *entityR) ToAccessTokenMetadata() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "dataHubAccessToken"
}
func (r *entityR) ToDataHubConnection() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "dataHubConnection"
}
func (r *entityR) ToExecutionRequest() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "dataHubExecutionRequest"
}
func (r *entityR) ToDataHubFile() (*urnOnlyR, bool) { return &urnOnlyR{r.e}, r.e.name == "dataHubFile" }
func (r *entityR) ToDataHubPageModule() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "dataHubPageModule"
}
func (r *entityR) ToDataHubPageTemplate() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "dataHubPageTemplate"
}
func (r *entityR) ToDataHubPolicy() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "dataHubPolicy"
}
func (r *entityR) ToDataHubRole() (*urnOnlyR, bool) { return &urnOnlyR{r.e}, r.e.name == "dataHubRole" }
func (r *entityR) ToDataHubView() (*urnOnlyR, bool) { return &urnOnlyR{r.e}, r.e.name == "dataHubView" }
func (r *entityR) ToDataPlatformInstance() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "dataPlatformInstance"
}
func (r *entityR) ToDataProduct() (*urnOnlyR, bool)    { return &urnOnlyR{r.e}, r.e.name == "dataProduct" }
func (r *entityR) ToDataTypeEntity() (*urnOnlyR, bool) { return &urnOnlyR{r.e}, r.e.name == "dataType" }
func (r *entityR) ToDocument() (*urnOnlyR, bool)       { return &urnOnlyR{r.e}, r.e.name == "document" }
func (r *entityR) ToDomain() (*urnOnlyR, bool)         { return &urnOnlyR{r.e}, r.e.name == "domain" }
func (r *entityR) ToEntityTypeEntity() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "entityType"
}
func (r *entityR) ToERModelRelationship() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "erModelRelationship"
}
func (r *entityR) ToForm() (*urnOnlyR, bool) { return &urnOnlyR{r.e}, r.e.name == "form" }
func (r *entityR) ToGlossaryNode() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "glossaryNode"
}
func (r *entityR) ToIncident() (*urnOnlyR, bool) { return &urnOnlyR{r.e}, r.e.name == "incident" }
func (r *entityR) ToMetric() (*urnOnlyR, bool)   { return &urnOnlyR{r.e}, r.e.name == "metric" }
func (r *entityR) ToNotebook() (*urnOnlyR, bool) { return &urnOnlyR{r.e}, r.e.name == "notebook" }
func (r *entityR) ToOwnershipTypeEntity() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "ownershipType"
}
func (r *entityR) ToPost() (*urnOnlyR, bool)        { return &urnOnlyR{r.e}, r.e.name == "post" }
func (r *entityR) ToQueryEntity() (*urnOnlyR, bool) { return &urnOnlyR{r.e}, r.e.name == "query" }
func (r *entityR) ToRole() (*urnOnlyR, bool)        { return &urnOnlyR{r.e}, r.e.name == "role" }
func (r *entityR) ToSchemaFieldEntity() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "schemaField"
}
func (r *entityR) ToSemanticModel() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "semanticModel"
}
func (r *entityR) ToStructuredPropertyEntity() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "structuredProperty"
}
func (r *entityR) ToTest() (*urnOnlyR, bool)       { return &urnOnlyR{r.e}, r.e.name == "test" }
func (r *entityR) ToVersionSet() (*urnOnlyR, bool) { return &urnOnlyR{r.e}, r.e.name == "versionSet" }
