package conformance_test

// mockSkips lists the steps of DataHub's fixtures that the mock does not
// pass, each with the reason. TestMock fails when a listed step passes, so
// the list holds only what still differs.
var mockSkips = map[string]string{
	"v3/entities.json[6]":  "the mock's search matches nothing for the query qualifiedName:entities\\.datasetSingle* (a field query with an escaped dot and a wildcard)",
	"v3/entities.json[9]":  "the query as in [6], and systemMetadata as DataHub's OpenAPI writes it (aspectCreated, schemaVersion, properties.eventSource) and the entity facet, which the mock does not write",
	"v3/entities.json[10]": "the mock's search matches nothing for the query qualifiedName:entities\\.datasetSingle* (a field query with an escaped dot and a wildcard)",
}
