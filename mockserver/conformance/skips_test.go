package conformance_test

// mockSkips lists the steps of DataHub's fixtures that the mock does not
// pass, each with the reason. TestMock fails when a listed step passes, so
// the list holds only what still differs.
var mockSkips = map[string]string{
	"v3/entities.json[6]":               "v3 scroll with query, filters or sortCriteria answers 501",
	"v3/entities.json[7]":               "v3 scroll with query, filters or sortCriteria answers 501",
	"v3/entities.json[8]":               "v3 scroll with query, filters or sortCriteria answers 501",
	"v3/entities.json[9]":               "v3 scroll with query, filters or sortCriteria answers 501",
	"v3/entities.json[10]":              "v3 list ignores query and sortOrder",
	"v3/structured_properties.json[15]": "structured-property definition validation (valueType must be a dataType, entity types must exist) is not in the core yet",
	"v3/structured_properties.json[16]": "structured-property definition validation (valueType must be a dataType, entity types must exist) is not in the core yet",
	"v3/structured_properties.json[18]": "structured-property definition validation (valueType must be a dataType, entity types must exist) is not in the core yet",
}
