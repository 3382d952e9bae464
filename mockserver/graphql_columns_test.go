package mockserver_test

import (
	"encoding/json"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// TestGraphQLColumnLabels: a dataset's columns answer their tags and
// glossary terms, the schema's (schemaMetadata fields) and the edited ones
// (editableSchemaFieldInfo), each association's associatedUrn the dataset,
// as DataHub's SchemaFieldMapper and EditableSchemaFieldInfoMapper give
// them; a column without any answers null.
func TestGraphQLColumnLabels(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	ds := "urn:li:dataset:(urn:li:dataPlatform:hive,db.labels,PROD)"
	put := func(aspect, value string) {
		t.Helper()
		if err := s.PutAspectJSON(ds, aspect, json.RawMessage(value)); err != nil {
			t.Fatalf("PutAspectJSON %s: %v", aspect, err)
		}
	}
	put("schemaMetadata", `{"schemaName":"labels","platform":"urn:li:dataPlatform:hive","version":0,"hash":"","platformSchema":{"com.linkedin.schema.OtherSchema":{"rawSchema":""}},
		"created":{"time":0,"actor":"urn:li:corpuser:x"},"lastModified":{"time":0,"actor":"urn:li:corpuser:x"},"fields":[
		{"fieldPath":"id","nullable":false,"type":{"type":{"com.linkedin.schema.NumberType":{}}},"nativeDataType":"int","recursive":false},
		{"fieldPath":"email","nullable":true,"type":{"type":{"com.linkedin.schema.StringType":{}}},"nativeDataType":"string","recursive":false,
		 "globalTags":{"tags":[{"tag":"urn:li:tag:pii"}]},"glossaryTerms":{"terms":[{"urn":"urn:li:glossaryTerm:Contact"}],"auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}}]}`)
	put("editableSchemaMetadata", `{"editableSchemaFieldInfo":[{"fieldPath":"email","globalTags":{"tags":[{"tag":"urn:li:tag:gold","context":"reviewed"}]},
		"glossaryTerms":{"terms":[{"urn":"urn:li:glossaryTerm:Email"}],"auditStamp":{"time":1,"actor":"urn:li:corpuser:x"}}}]}`)
	labels := `tags { tags { tag { urn name } context associatedUrn } } glossaryTerms { terms { term { urn name } associatedUrn } }`
	query := `{ dataset(urn: "` + ds + `") { schemaMetadata { fields { fieldPath ` + labels + ` } }
		editableSchemaMetadata { editableSchemaFieldInfo { fieldPath ` + labels + ` } } } }`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, query, nil)), `{"data":{"dataset":{
		"schemaMetadata":{"fields":[
			{"fieldPath":"id","tags":null,"glossaryTerms":null},
			{"fieldPath":"email",
			 "tags":{"tags":[{"tag":{"urn":"urn:li:tag:pii","name":"pii"},"context":null,"associatedUrn":"`+ds+`"}]},
			 "glossaryTerms":{"terms":[{"term":{"urn":"urn:li:glossaryTerm:Contact","name":"Contact"},"associatedUrn":"`+ds+`"}]}}]},
		"editableSchemaMetadata":{"editableSchemaFieldInfo":[
			{"fieldPath":"email",
			 "tags":{"tags":[{"tag":{"urn":"urn:li:tag:gold","name":"gold"},"context":"reviewed","associatedUrn":"`+ds+`"}]},
			 "glossaryTerms":{"terms":[{"term":{"urn":"urn:li:glossaryTerm:Email","name":"Email"},"associatedUrn":"`+ds+`"}]}}]}}},"extensions":{}}`)
}
