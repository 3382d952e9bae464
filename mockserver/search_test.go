package mockserver_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver"
)

// TestGraphQLSearchWire pins the answers of the search fields on the
// GraphQL fixture.
func TestGraphQLSearchWire(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	seedGraphQL(t, s)
	if err := s.PutAspectJSON(gqlBare, "status", json.RawMessage(`{"removed":true}`)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, query string
		vars        map[string]any
		want        string
	}{
		{"searchAcrossEntities by tag, with facets",
			`query q($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) {
			  start count total searchResults { entity { urn type } matchedFields { name value } }
			  facets { field displayName aggregations { value count } } suggestions { text } } }`,
			map[string]any{"input": map[string]any{"query": "*", "orFilters": []any{
				map[string]any{"and": []any{map[string]any{"field": "tags", "values": []string{"urn:li:tag:pii"}}}}}}},
			`{"data":{"searchAcrossEntities":{"start":0,"count":10,"total":1,
			  "searchResults":[{"entity":{"urn":"` + gqlDataset + `","type":"DATASET"},"matchedFields":[]}],
			  "facets":[{"field":"_entityType","displayName":"Type","aggregations":[{"value":"DATASET","count":1}]},
			    {"field":"glossaryTerms","displayName":"Glossary Term","aggregations":[{"value":"urn:li:glossaryTerm:Users","count":1}]},
			    {"field":"origin","displayName":"Environment","aggregations":[{"value":"PROD","count":1}]},
			    {"field":"owners","displayName":"Owned By","aggregations":[{"value":"urn:li:corpGroup:data","count":1},{"value":"urn:li:corpuser:jdoe","count":1}]},
			    {"field":"platform","displayName":"Platform","aggregations":[{"value":"urn:li:dataPlatform:hive","count":1}]},
			    {"field":"tags","displayName":"Tagged With","aggregations":[{"value":"urn:li:tag:pii","count":1}]}],
			  "suggestions":[]}},"extensions":{}}`},
		{"search one type, text, soft-deleted left out",
			`query q($input: SearchInput!) { search(input: $input) { start count total searchResults { entity { urn } matchedFields { name value } } } }`,
			map[string]any{"input": map[string]any{"type": "MLMODEL", "query": "churn", "count": 5,
				"searchFlags": map[string]any{"skipAggregates": true}}},
			`{"data":{"search":{"start":0,"count":5,"total":1,"searchResults":[{"entity":{"urn":"` + gqlModel + `"},
			  "matchedFields":[{"name":"description","value":"Churn model"},{"name":"id","value":"churn"}]}]}},"extensions":{}}`},
		{"includeSoftDeleted",
			`query q($input: SearchInput!) { search(input: $input) { total } }`,
			map[string]any{"input": map[string]any{"type": "MLMODEL", "query": "*", "searchFlags": map[string]any{"includeSoftDeleted": true}}},
			`{"data":{"search":{"total":2}},"extensions":{}}`},
		{"aggregateAcrossEntities",
			`query q($input: AggregateAcrossEntitiesInput!) { aggregateAcrossEntities(input: $input) { facets { field aggregations { value count } } } }`,
			map[string]any{"input": map[string]any{"query": "*", "facets": []string{"_entityType"}}},
			`{"data":{"aggregateAcrossEntities":{"facets":[{"field":"_entityType","aggregations":[
			  {"value":"MLFEATURE","count":2},{"value":"DATASET","count":1},{"value":"MLFEATURE_TABLE","count":1},
			  {"value":"MLMODEL","count":1},{"value":"MLMODEL_GROUP","count":1}]}]}},"extensions":{}}`},
		{"past the window",
			`query q($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total } }`,
			map[string]any{"input": map[string]any{"query": "*", "types": []string{"TAG"}, "start": 9995, "count": 10}},
			`{"errors":[{"message":"Failed to execute search: entity types [TAG], query *, filters: [], start: 9995, count: 10. Root cause: result window is too large: from + size must be less than or equal to: [10000] but was [10005]",
			  "locations":[{"line":1,"column":47}],"path":["searchAcrossEntities"],
			  "extensions":{"code":500,"type":"SERVER_ERROR","classification":"DataFetchingException"}}],
			  "data":{"searchAcrossEntities":null},"extensions":{}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, tc.query, tc.vars)), tc.want)
		})
	}
}

// TestGraphQLScrollWire pins a scroll: a full page has a next id, the last
// short page none.
func TestGraphQLScrollWire(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	seedGraphQL(t, s)
	const q = `query q($input: ScrollAcrossEntitiesInput!) { scrollAcrossEntities(input: $input) {
	  nextScrollId count total searchResults { entity { urn } } } }`
	in := map[string]any{"query": "", "types": []string{"MLFEATURE", "MLFEATURE_TABLE"}, "count": 2,
		"searchFlags": map[string]any{"skipAggregates": true}}
	var page struct {
		Data struct {
			ScrollAcrossEntities struct {
				NextScrollID  *string `json:"nextScrollId"`
				Count, Total  int
				SearchResults []struct{ Entity struct{ URN string } }
			} `json:"scrollAcrossEntities"`
		} `json:"data"`
	}
	var urns []string
	for range 3 {
		r := postGraphQL(t, s, "/api/graphql", gqlBody(t, q, map[string]any{"input": in}))
		if err := json.Unmarshal(r.body, &page); err != nil {
			t.Fatal(err)
		}
		p := page.Data.ScrollAcrossEntities
		for _, h := range p.SearchResults {
			urns = append(urns, h.Entity.URN)
		}
		if p.Total != 3 {
			t.Fatalf("total %d: %s", p.Total, r.body)
		}
		if p.NextScrollID == nil {
			// count is min(count asked, total), as DataHub's ScrollResult.pageSize
			if p.Count != 2 || len(urns) != 3 {
				t.Fatalf("last page count %d, %d results: %s", p.Count, len(urns), r.body)
			}
			break
		}
		in["scrollId"] = *p.NextScrollID
	}
	want := strings.Join([]string{gqlFeature, "urn:li:mlFeature:(users,height)", gqlTable}, " ")
	if strings.Join(urns, " ") != want {
		t.Errorf("scrolled %v, want %s", urns, want)
	}
}

// TestGraphQLLineageWire pins searchAcrossLineage and scrollAcrossLineage
// on the fixture: the model consumes the feature, whose source is the
// dataset; the model is a member of the group (downstream).
func TestGraphQLLineageWire(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	seedGraphQL(t, s)
	const search = `query q($input: SearchAcrossLineageInput!) { searchAcrossLineage(input: $input) {
	  start count total searchResults { entity { urn type } degree degrees paths { path { urn } } } facets { field displayName aggregations { value count } } } }`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, search, map[string]any{"input": map[string]any{
		"urn": gqlModel, "direction": "UPSTREAM", "orFilters": []any{map[string]any{"and": []any{
			map[string]any{"field": "degree", "values": []string{"1", "2"}}}}}}})),
		`{"data":{"searchAcrossLineage":{"start":0,"count":10,"total":2,"searchResults":[
		  {"entity":{"urn":"`+gqlFeature+`","type":"MLFEATURE"},"degree":1,"degrees":[1],"paths":[{"path":[{"urn":"`+gqlModel+`"},{"urn":"`+gqlFeature+`"}]}]},
		  {"entity":{"urn":"`+gqlDataset+`","type":"DATASET"},"degree":2,"degrees":[2],"paths":[{"path":[{"urn":"`+gqlModel+`"},{"urn":"`+gqlFeature+`"},{"urn":"`+gqlDataset+`"}]}]}],
		  "facets":[{"field":"degree","displayName":"Degree of Dependencies","aggregations":[{"value":"1","count":1},{"value":"2","count":1},{"value":"3+","count":0}]},
		    {"field":"_entityType","displayName":"Type","aggregations":[{"value":"DATASET","count":1},{"value":"MLFEATURE","count":1}]},
		    {"field":"glossaryTerms","displayName":"Glossary Term","aggregations":[{"value":"urn:li:glossaryTerm:Users","count":1}]},
		    {"field":"origin","displayName":"Environment","aggregations":[{"value":"PROD","count":1}]},
		    {"field":"owners","displayName":"Owned By","aggregations":[{"value":"urn:li:corpGroup:data","count":1},{"value":"urn:li:corpuser:jdoe","count":1}]},
		    {"field":"platform","displayName":"Platform","aggregations":[{"value":"urn:li:dataPlatform:hive","count":1}]},
		    {"field":"tags","displayName":"Tagged With","aggregations":[{"value":"urn:li:tag:pii","count":1}]}]}},"extensions":{}}`)
	const scroll = `query q($input: ScrollAcrossLineageInput!) { scrollAcrossLineage(input: $input) {
	  nextScrollId count total searchResults { entity { urn } degree } } }`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, scroll, map[string]any{"input": map[string]any{
		"urn": gqlFeature, "direction": "DOWNSTREAM", "searchFlags": map[string]any{"skipAggregates": true}}})),
		`{"data":{"scrollAcrossLineage":{"nextScrollId":null,"count":2,"total":2,"searchResults":[
		  {"entity":{"urn":"`+gqlModel+`"},"degree":1},{"entity":{"urn":"`+gqlGroup+`"},"degree":2}]}},"extensions":{}}`)
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, scroll, map[string]any{"input": map[string]any{
		"urn": gqlFeature, "direction": "DOWNSTREAM", "orFilters": []any{map[string]any{"and": []any{
			map[string]any{"field": "degree", "values": []string{"4"}}}}}}})),
		`{"errors":[{"message":"4 is not a valid filter value for degree filters","locations":[{"line":1,"column":46}],
		  "path":["scrollAcrossLineage"],"extensions":{"code":400,"type":"BAD_REQUEST","classification":"DataFetchingException"}}],
		  "data":{"scrollAcrossLineage":null},"extensions":{}}`)
}

// TestGraphQLUpdateLineage adds lineage by mutation: DataHub's upstream
// item on a dataset, refusal of a missing entity, and 16 concurrent
// mutations on one dataset keeping all 16 edges.
func TestGraphQLUpdateLineage(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	seedGraphQL(t, s)
	const m = `mutation u($input: UpdateLineageInput!) { updateLineage(input: $input) }`
	edge := func(down, up string) map[string]any { return map[string]any{"downstreamUrn": down, "upstreamUrn": up} }
	up := func(i int) string { return "urn:li:dataset:(urn:li:dataPlatform:hive,up" + strconv.Itoa(i) + ",PROD)" }
	for i := range 16 {
		if err := s.PutAspectJSON(up(i), "status", json.RawMessage(`{"removed":false}`)); err != nil {
			t.Fatal(err)
		}
	}
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, m, map[string]any{"input": map[string]any{
		"edgesToAdd": []any{edge(gqlDataset, up(0))}, "edgesToRemove": []any{}}})),
		`{"data":{"updateLineage":true},"extensions":{}}`)
	got, err := s.GetAspectJSON(gqlDataset, "upstreamLineage", 0)
	if err != nil {
		t.Fatal(err)
	}
	var ul struct {
		Upstreams []map[string]any `json:"upstreams"`
	}
	if err := json.Unmarshal(got, &ul); err != nil || len(ul.Upstreams) != 1 || ul.Upstreams[0]["dataset"] != up(0) ||
		ul.Upstreams[0]["type"] != "TRANSFORMED" || ul.Upstreams[0]["properties"].(map[string]any)["source"] != "UI" {
		t.Fatalf("upstreamLineage = %s (%v)", got, err)
	}
	missing := "urn:li:dataset:(urn:li:dataPlatform:hive,nowhere,PROD)"
	r := postGraphQL(t, s, "/api/graphql", gqlBody(t, m, map[string]any{"input": map[string]any{
		"edgesToAdd": []any{edge(missing, up(0))}, "edgesToRemove": []any{}}}))
	if !strings.Contains(string(r.body), "Cannot upsert lineage as downstream urn "+missing+" doesn't exist") {
		t.Errorf("missing downstream: %s", r.body)
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			postGraphQL(t, s, "/api/graphql", gqlBody(t, m, map[string]any{"input": map[string]any{
				"edgesToAdd": []any{edge(gqlDataset, up(i))}, "edgesToRemove": []any{}}}))
		})
	}
	wg.Wait()
	got, _ = s.GetAspectJSON(gqlDataset, "upstreamLineage", 0)
	if err := json.Unmarshal(got, &ul); err != nil || len(ul.Upstreams) != 16 {
		t.Fatalf("after 16 concurrent mutations: %d upstreams (%v)", len(ul.Upstreams), err)
	}
	// Removal wins.
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, m, map[string]any{"input": map[string]any{
		"edgesToAdd": []any{edge(gqlDataset, up(1))}, "edgesToRemove": []any{edge(gqlDataset, up(1))}}})),
		`{"data":{"updateLineage":true},"extensions":{}}`)
	got, _ = s.GetAspectJSON(gqlDataset, "upstreamLineage", 0)
	if err := json.Unmarshal(got, &ul); err != nil || len(ul.Upstreams) != 15 {
		t.Fatalf("after removing one: %d upstreams (%v)", len(ul.Upstreams), err)
	}
}

// TestGraphQLSearchFindsEveryType: an entity of a type the mock's GraphQL
// did not serve before (a container) is a result, as in DataHub (it was
// left out, total 1).
func TestGraphQLSearchFindsEveryType(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	seedGraphQL(t, s)
	if err := s.PutAspectJSON("urn:li:container:abc", "globalTags", json.RawMessage(`{"tags":[{"tag":"urn:li:tag:pii"}]}`)); err != nil {
		t.Fatal(err)
	}
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t,
		`query q($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total searchResults { entity { urn type } } } }`,
		map[string]any{"input": map[string]any{"query": "pii"}})),
		`{"data":{"searchAcrossEntities":{"total":2,"searchResults":[{"entity":{"urn":"urn:li:container:abc","type":"CONTAINER"}},{"entity":{"urn":"`+gqlDataset+`","type":"DATASET"}}]}},"extensions":{}}`)
}

// TestGraphQLSearchFollowsLag: a write is searchable once the index has
// caught up with it (the async lag on the server clock), as in DataHub.
func TestGraphQLSearchFollowsLag(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithAsyncLag(5*time.Second))
	if err := s.PutAspectJSON(gqlDataset, "globalTags", json.RawMessage(`{"tags":[{"tag":"urn:li:tag:late"}]}`)); err != nil {
		t.Fatal(err)
	}
	const q = `query q($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total } }`
	vars := map[string]any{"input": map[string]any{"query": "*", "orFilters": []any{map[string]any{"and": []any{
		map[string]any{"field": "tags", "values": []string{"urn:li:tag:late"}}}}}}}
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, vars)), `{"data":{"searchAcrossEntities":{"total":0}},"extensions":{}}`)
	s.FastForward(5 * time.Second)
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, vars)), `{"data":{"searchAcrossEntities":{"total":1}},"extensions":{}}`)
}

// TestGraphQLSearchOfEveryType: search, searchAcrossEntities and
// scrollAcrossEntities of CONTAINER, DOMAIN and DATA_PROCESS_INSTANCE find
// the stored entities (they answered total 0 before).
func TestGraphQLSearchOfEveryType(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	for u, a := range map[string][2]string{
		"urn:li:container:c1":             {"containerProperties", `{"name":"c"}`},
		"urn:li:domain:d1":                {"domainProperties", `{"name":"d"}`},
		"urn:li:dataProcessInstance:run1": {"dataProcessInstanceProperties", `{"name":"run","created":{"time":1,"actor":"urn:li:corpuser:x"}}`},
	} {
		if err := s.PutAspectJSON(u, a[0], json.RawMessage(a[1])); err != nil {
			t.Fatal(err)
		}
	}
	for typ, u := range map[string]string{"CONTAINER": "urn:li:container:c1", "DOMAIN": "urn:li:domain:d1", "DATA_PROCESS_INSTANCE": "urn:li:dataProcessInstance:run1"} {
		hit := `{"entity":{"urn":"` + u + `","type":"` + typ + `"}}`
		wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t,
			`query q($t: EntityType!) { search(input: {type: $t, query: "*"}) { total searchResults { entity { urn type } } }
			  searchAcrossEntities(input: {types: [$t], query: "*"}) { total searchResults { entity { urn type } } }
			  scrollAcrossEntities(input: {types: [$t], query: "*"}) { total searchResults { entity { urn type } } } }`,
			map[string]any{"t": typ})),
			`{"data":{"search":{"total":1,"searchResults":[`+hit+`]},"searchAcrossEntities":{"total":1,"searchResults":[`+hit+`]},
			"scrollAcrossEntities":{"total":1,"searchResults":[`+hit+`]}},"extensions":{}}`)
	}
}
