package mockserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// querySyntaxServer is a server with four datasets for the query syntax
// tests.
func querySyntaxServer(t *testing.T) (*mockserver.Server, func(string) string) {
	t.Helper()
	s := mockserver.Start(t)
	ds := func(n string) string { return "urn:li:dataset:(urn:li:dataPlatform:hive," + n + ",PROD)" }
	for n, props := range map[string]string{
		"one":   `{"name":"orders daily","qualifiedName":"shop.orders","description":"orders of the day","created":{"time":100}}`,
		"two":   `{"name":"orders","qualifiedName":"shop.orders_all","description":"every order ever","created":{"time":200}}`,
		"three": `{"name":"customers","qualifiedName":"crm.customers","description":"the customers of the shop","created":{"time":300}}`,
		"four":  `{"name":"payments","qualifiedName":"bank.payments"}`,
	} {
		if err := s.PutAspectJSON(ds(n), "datasetProperties", json.RawMessage(props)); err != nil {
			t.Fatal(err)
		}
	}
	return s, ds
}

// searchPaths are the served searches of a query text: each returns the
// URNs it found, sorted, or fails t. fulltext nil sends no flag.
var searchPaths = map[string]func(t *testing.T, s *mockserver.Server, text string, fulltext *bool) []string{
	"graphql search": func(t *testing.T, s *mockserver.Server, text string, fulltext *bool) []string {
		input := map[string]any{"type": "DATASET", "query": text, "count": 100}
		if fulltext != nil {
			input["searchFlags"] = map[string]any{"fulltext": *fulltext}
		}
		return gqlURNs(t, s, `query q($input: SearchInput!) { search(input: $input) { searchResults { entity { urn } } } }`,
			input, "search")
	},
	"graphql searchAcrossEntities": func(t *testing.T, s *mockserver.Server, text string, _ *bool) []string {
		return gqlURNs(t, s, `query q($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { searchResults { entity { urn } } } }`,
			map[string]any{"types": []string{"DATASET"}, "query": text, "count": 100}, "searchAcrossEntities")
	},
	"graphql scrollAcrossEntities": func(t *testing.T, s *mockserver.Server, text string, _ *bool) []string {
		return gqlURNs(t, s, `query q($input: ScrollAcrossEntitiesInput!) { scrollAcrossEntities(input: $input) { searchResults { entity { urn } } } }`,
			map[string]any{"types": []string{"DATASET"}, "query": text, "count": 100}, "scrollAcrossEntities")
	},
	"restli search": func(t *testing.T, s *mockserver.Server, text string, fulltext *bool) []string {
		body := map[string]any{"entity": "dataset", "input": text, "start": 0, "count": 100}
		if fulltext != nil {
			body["fulltext"] = *fulltext
		}
		return restliURNs(t, s, "search", body)
	},
	"restli searchAcrossEntities": func(t *testing.T, s *mockserver.Server, text string, fulltext *bool) []string {
		body := map[string]any{"entities": []string{"dataset"}, "input": text, "start": 0, "count": 100}
		if fulltext != nil {
			body["searchFlags"] = map[string]any{"fulltext": *fulltext}
		}
		return restliURNs(t, s, "searchAcrossEntities", body)
	},
	"restli scrollAcrossEntities": func(t *testing.T, s *mockserver.Server, text string, fulltext *bool) []string {
		body := map[string]any{"entities": []string{"dataset"}, "input": text, "keepAlive": "1m", "count": 100}
		if fulltext != nil {
			body["searchFlags"] = map[string]any{"fulltext": *fulltext}
		}
		return restliURNs(t, s, "scrollAcrossEntities", body)
	},
}

func gqlURNs(t *testing.T, s *mockserver.Server, query string, input map[string]any, field string) []string {
	t.Helper()
	r := postGraphQL(t, s, "/api/graphql", gqlBody(t, query, map[string]any{"input": input}))
	var out struct {
		Data map[string]struct {
			SearchResults []struct{ Entity struct{ URN string } }
		}
		Errors []struct{ Message string }
	}
	if err := json.Unmarshal(r.body, &out); err != nil || r.status != http.StatusOK || len(out.Errors) > 0 {
		t.Fatalf("%s %v: %d %s", field, input, r.status, r.body)
	}
	var urns []string
	for _, h := range out.Data[field].SearchResults {
		urns = append(urns, h.Entity.URN)
	}
	slices.Sort(urns)
	return urns
}

// restliPost posts a Rest.li action and returns its status and body.
func restliPost(t *testing.T, s *mockserver.Server, action string, body map[string]any) (int, []byte) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(s.URL()+"/entities?action="+action, "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, raw
}

func restliURNs(t *testing.T, s *mockserver.Server, action string, body map[string]any) []string {
	t.Helper()
	status, raw := restliPost(t, s, action, body)
	var out struct {
		Value struct{ Entities []struct{ Entity string } }
	}
	if err := json.Unmarshal(raw, &out); err != nil || status != http.StatusOK {
		t.Fatalf("%s %v: %d %s", action, body, status, raw)
	}
	var urns []string
	for _, e := range out.Value.Entities {
		urns = append(urns, e.Entity)
	}
	slices.Sort(urns)
	return urns
}

// TestQuerySyntaxServed checks DataHub's query syntaxes on every served
// search: a free-text query (GraphQL's default and its only kind in
// searchAcrossEntities and scrollAcrossEntities; Rest.li's across-entity
// actions without searchFlags) is a simple_query_string, a structured one
// (GraphQL search with fulltext false; Rest.li search without fulltext,
// flags without fulltext) a query_string; both give the same answer on
// every path.
func TestQuerySyntaxServed(t *testing.T) {
	t.Parallel()
	s, ds := querySyntaxServer(t)
	one, two, three, four := ds("one"), ds("two"), ds("three"), ds("four")
	yes, no := true, false
	free := []struct {
		name, text string
		want       []string
	}{
		{"terms", `orders daily`, []string{one}},
		{"| is OR", `daily | customers`, []string{one, three}},
		{"- excludes", `orders -daily`, []string{two}},
		{"grouping", `shop (daily | customers)`, []string{one, three}},
		{"phrase", `"orders of the"`, []string{one}},
		{"fuzzy", `custmers~1`, []string{three}},
		{"prefix", `paym*`, []string{four}},
		{"slash escaped by the resolvers", `shop/x`, nil},
		{"AND is a stop word", `orders AND daily`, []string{one}},
	}
	structured := []struct {
		name, text string
		want       []string
	}{
		{"OR", `daily OR customers`, []string{one, three}},
		{"NOT", `orders NOT daily`, []string{two}},
		{"field group", `name:(daily OR payments)`, []string{four, one}},
		{"range", `createdAt:[100 TO 200]`, []string{one, two}},
		{"comparison", `createdAt:>200`, []string{three}},
		{"wildcard in the middle", `qualifiedName:shop.ord*all`, []string{two}},
		{"exists", `_exists_:createdAt`, []string{one, three, two}},
	}
	for path, run := range searchPaths {
		for _, tc := range free {
			t.Run(path+"/free/"+tc.name, func(t *testing.T) {
				t.Parallel()
				var flag *bool
				if strings.HasPrefix(path, "graphql search") || path == "restli search" {
					flag = &yes
				}
				if got := run(t, s, tc.text, flag); !slices.Equal(got, tc.want) {
					t.Errorf("%s: got %v, want %v", tc.text, got, tc.want)
				}
			})
		}
		for _, tc := range structured {
			t.Run(path+"/structured/"+tc.name, func(t *testing.T) {
				t.Parallel()
				text, flag := tc.text, &no
				switch path {
				case "graphql searchAcrossEntities", "graphql scrollAcrossEntities":
					// Always free text there but for the prefix "\/q ", which
					// is "/q " there (the resolvers escape "/").
					text = "/q " + text
				case "restli search":
					flag = nil // structured without the fulltext parameter
				}
				if got := run(t, s, text, flag); !slices.Equal(got, tc.want) {
					t.Errorf("%s: got %v, want %v", text, got, tc.want)
				}
			})
		}
	}
}

// TestQuerySyntaxError checks the answer to a structured query that does
// not parse: DataHub's search fails (Elasticsearch refuses it), a server
// error on GraphQL and Rest.li; the same text as free text is served.
func TestQuerySyntaxError(t *testing.T) {
	t.Parallel()
	s, ds := querySyntaxServer(t)
	r := postGraphQL(t, s, "/api/graphql", gqlBody(t,
		`query q($input: SearchInput!) { search(input: $input) { total } }`,
		map[string]any{"input": map[string]any{"type": "DATASET", "query": "orders AND", "searchFlags": map[string]any{"fulltext": false}}}))
	var g struct {
		Errors []struct {
			Message    string
			Extensions struct{ Code int }
		}
	}
	if err := json.Unmarshal(r.body, &g); err != nil || len(g.Errors) != 1 || g.Errors[0].Extensions.Code != 500 ||
		!strings.Contains(g.Errors[0].Message, "Failed to parse query [orders AND]") {
		t.Errorf("graphql: %s", r.body)
	}
	status, raw := restliPost(t, s, "search", map[string]any{"entity": "dataset", "input": "(orders", "start": 0, "count": 10})
	if status != http.StatusInternalServerError || !strings.Contains(string(raw), "Failed to parse query [(orders]") {
		t.Errorf("restli: %d %s", status, raw)
	}
	if got := restliURNs(t, s, "search", map[string]any{"entity": "dataset", "input": "(orders", "start": 0, "count": 10, "fulltext": true}); len(got) != 2 {
		t.Errorf("restli free text (orders: got %v, want %s and %s", got, ds("one"), ds("two"))
	}
}

// TestQuerySyntaxOpenAPI checks the v3 list's query, a structured query in
// DataHub: a boolean query selects the entities, one that does not parse
// is a server error.
func TestQuerySyntaxOpenAPI(t *testing.T) {
	t.Parallel()
	s, ds := querySyntaxServer(t)
	get := func(query string) (int, []byte) {
		t.Helper()
		resp, err := http.Get(s.URL() + "/openapi/v3/entity/dataset?query=" + url.QueryEscape(query))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, b
	}
	status, body := get("name:(daily OR payments)")
	var out struct{ Entities []struct{ URN string } }
	if err := json.Unmarshal(body, &out); err != nil || status != http.StatusOK {
		t.Fatalf("%d %s", status, body)
	}
	var got []string
	for _, e := range out.Entities {
		got = append(got, e.URN)
	}
	slices.Sort(got)
	if want := []string{ds("four"), ds("one")}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if status, body := get("(orders"); status != http.StatusInternalServerError || !strings.Contains(string(body), "Failed to parse query") {
		t.Errorf("unparsable query: %d %s", status, body)
	}
}
