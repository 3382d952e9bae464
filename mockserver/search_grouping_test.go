package mockserver_test

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestSearchGroupingSpec checks that a plain search leaves schema fields
// alone whatever its groupingSpec, as DataHub's search service does (it
// reads groupingSpec only in lineage searches, see TestLineageGroupingSpec):
// GraphQL's searchAcrossEntities and Rest.li's searchAcrossEntities and
// scrollAcrossEntities return the schemaField entity, not its dataset.
func TestSearchGroupingSpec(t *testing.T) {
	t.Parallel()
	s, _ := querySyntaxServer(t)
	field := "urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,one,PROD),id)"
	if err := s.PutAspectJSON(field, "status", json.RawMessage(`{"removed":false}`)); err != nil {
		t.Fatal(err)
	}
	want := []string{field}
	grouping := map[string]any{"groupingCriteria": []any{map[string]any{"baseEntityType": "SCHEMA_FIELD", "groupingEntityType": "DATASET"}}}
	for _, flags := range []map[string]any{nil, {"groupingSpec": grouping}} {
		input := map[string]any{"types": []string{"SCHEMA_FIELD"}, "query": "*", "count": 10}
		if flags != nil {
			input["searchFlags"] = flags
		}
		got := gqlURNs(t, s, `query q($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { searchResults { entity { urn } } } }`,
			input, "searchAcrossEntities")
		if !slices.Equal(got, want) {
			t.Errorf("graphql searchAcrossEntities, flags %v: got %v, want %v", flags, got, want)
		}
	}
	restGrouping := map[string]any{"groupingSpec": map[string]any{"groupingCriteria": []any{
		map[string]any{"baseEntityType": "schemaField", "groupingEntityType": "dataset"}}}}
	for _, action := range []string{"searchAcrossEntities", "scrollAcrossEntities"} {
		body := map[string]any{"entities": []string{"schemaField"}, "input": "*", "count": 10, "searchFlags": restGrouping}
		if action == "searchAcrossEntities" {
			body["start"] = 0
		} else {
			body["keepAlive"] = "1m"
		}
		if got := restliURNs(t, s, action, body); !slices.Equal(got, want) {
			t.Errorf("restli %s: got %v, want %v", action, got, want)
		}
	}
}
