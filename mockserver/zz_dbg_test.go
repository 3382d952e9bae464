package mockserver_test
import "testing"
func TestDbgMutb2(t *testing.T) {
	s := mutServer(t)
	put := func(u, a, v string) { if err := s.PutAspectJSON(u, a, []byte(v)); err != nil { t.Fatal(err) } }
	put(gqlDataset, "deprecation", `{"deprecated":true,"note":"old","actor":"urn:li:corpuser:x"}`)
	put(gqlDataset, "domains", `{"domains":["urn:li:domain:d"]}`)
	put("urn:li:domain:d", "domainProperties", `{"name":"D"}`)
	put(gqlDataset, "container", `{"container":"urn:li:container:c"}`)
	put("urn:li:container:c", "containerProperties", `{"name":"C"}`)
	put("urn:li:container:c", "container", `{"container":"urn:li:container:top"}`)
	put("urn:li:container:top", "containerProperties", `{"name":"Top"}`)
	put("urn:li:tag:t", "tagProperties", `{"name":"T","description":"tag desc"}`)
	put(gqlDataset, "editableSchemaMetadata", `{"editableSchemaFieldInfo":[{"fieldPath":"id","globalTags":{"tags":[{"tag":"urn:li:tag:t"}]}}]}`)
	put(gqlDataset, "institutionalMemory", `{"elements":[{"url":"https://wiki/users","description":"Wiki","createStamp":{"time":5,"actor":"urn:li:corpuser:jdoe"},"settings":{"showInAssetPreview":true}}]}`)
	gqlData(t, s, `mutation { createStructuredProperty(input: {qualifiedName: "p", valueType: "urn:li:dataType:datahub.string", cardinality: MULTIPLE, entityTypes: ["urn:li:entityType:datahub.dataset"]}) { urn } }`, nil)
	put(gqlDataset, "structuredProperties", `{"properties":[{"propertyUrn":"urn:li:structuredProperty:p","values":[{"string":"v"},{"string":"w"}]}]}`)
	t.Log(asJSON(gqlData(t, s, `query($u: String!) { dataset(urn: $u) { deprecation { deprecated note } domain { domain { urn } } container { urn } parentContainers { count containers { urn } }
	  globalTags { tags { tag { urn } } } exists health { type status }
	  editableSchemaMetadata { editableSchemaFieldInfo { fieldPath globalTags { tags { tag { urn } } } } }
	  institutionalMemory { elements { url settings { showInAssetPreview } } }
	  structuredProperties { properties { values { ... on StringValue { stringValue } ... on NumberValue { numberValue } } } }
	  relationships(input: {types: ["IsPartOf"], direction: OUTGOING}) { total relationships { type entity { urn } } }
	  siblings { isPrimary } } tag(urn: "urn:li:tag:t") { description properties { description } } }`, map[string]any{"u": gqlDataset})))
}
