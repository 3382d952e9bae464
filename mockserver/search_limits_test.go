package mockserver_test

import (
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// TestGraphQLSearchLimits pins the answers to a search beyond DataHub's
// limits: a query over 500 characters, a keep-alive over a day, a negative
// start.
func TestGraphQLSearchLimits(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	seedGraphQL(t, s)
	const search = `query q($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total } }`
	const scroll = `query q($input: ScrollAcrossEntitiesInput!) { scrollAcrossEntities(input: $input) { total } }`
	const lineage = `query q($input: SearchAcrossLineageInput!) { searchAcrossLineage(input: $input) { total } }`
	long := strings.TrimSpace(strings.Repeat("bulk ", 101)) // 504 characters
	tests := []struct {
		name, query string
		input       map[string]any
		want        string
	}{
		{"a query of 500 characters", search, map[string]any{"query": long[:500]},
			`{"data":{"searchAcrossEntities":{"total":0}},"extensions":{}}`},
		{"a query over 500 characters", search, map[string]any{"query": long},
			`{"errors":[{"message":"Search query exceeds maximum length of 500 characters",
			  "locations":[{"line":1,"column":47}],"path":["searchAcrossEntities"],
			  "extensions":{"code":400,"type":"BAD_REQUEST","classification":"DataFetchingException"}}],
			  "data":{"searchAcrossEntities":null},"extensions":{}}`},
		{"a lineage query over 500 characters", lineage,
			map[string]any{"urn": gqlDataset, "direction": "DOWNSTREAM", "query": long},
			`{"errors":[{"message":"Search query exceeds maximum length of 500 characters",
			  "locations":[{"line":1,"column":46}],"path":["searchAcrossLineage"],
			  "extensions":{"code":400,"type":"BAD_REQUEST","classification":"DataFetchingException"}}],
			  "data":{"searchAcrossLineage":null},"extensions":{}}`},
		{"a keep-alive of a day", scroll, map[string]any{"query": "*", "types": []string{"TAG"}, "keepAlive": "1d"},
			`{"data":{"scrollAcrossEntities":{"total":0}},"extensions":{}}`},
		{"a keep-alive over a day", scroll, map[string]any{"query": "*", "types": []string{"TAG"}, "keepAlive": "99999999999999d"},
			`{"errors":[{"message":"Failed to execute search: entity types [TAG], query *, filters: [], start: 0, count: 10. Root cause: Keep alive for request (99999999999999d) is too large. It must be less than (1d). This limit can be set by changing the [search.max_keep_alive] cluster level setting.",
			  "locations":[{"line":1,"column":47}],"path":["scrollAcrossEntities"],
			  "extensions":{"code":500,"type":"SERVER_ERROR","classification":"DataFetchingException"}}],
			  "data":{"scrollAcrossEntities":null},"extensions":{}}`},
		{"a negative start with results", search, map[string]any{"query": "*", "types": []string{"MLMODEL"}, "start": -5},
			`{"errors":[{"message":"Failed to execute search: entity types [MLMODEL], query *, filters: [], start: -5, count: 10. Root cause: fromIndex = -5",
			  "locations":[{"line":1,"column":47}],"path":["searchAcrossEntities"],
			  "extensions":{"code":500,"type":"SERVER_ERROR","classification":"DataFetchingException"}}],
			  "data":{"searchAcrossEntities":null},"extensions":{}}`},
		{"a negative start without results", `query q($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { start total } }`,
			map[string]any{"query": "*", "types": []string{"TAG"}, "start": -5},
			`{"data":{"searchAcrossEntities":{"start":-5,"total":0}},"extensions":{}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, tc.query, map[string]any{"input": tc.input})), tc.want)
		})
	}
}
