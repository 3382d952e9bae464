package index

import (
	"errors"
	"slices"
	"testing"
)

// TestQuerySyntax checks each form of DataHub's two query syntaxes: the
// simple_query_string of a free-text search and the query_string of a
// structured one.
func TestQuerySyntax(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	for _, n := range []string{"one", "two", "three", "four"} {
		put(t, st, ds(n), "datasetKey", `{"platform":"urn:li:dataPlatform:hive","name":"`+n+`","origin":"PROD"}`)
	}
	put(t, st, ds("one"), "datasetProperties", `{"name":"orders daily","qualifiedName":"shop.orders","description":"orders of the day","created":{"time":100}}`)
	put(t, st, ds("two"), "datasetProperties", `{"name":"orders","qualifiedName":"shop.orders_all","description":"every order ever","created":{"time":200}}`)
	put(t, st, ds("three"), "datasetProperties", `{"name":"customers","qualifiedName":"crm.customers","description":"the customers of the shop","created":{"time":300}}`)
	put(t, st, ds("four"), "datasetProperties", `{"name":"payments","qualifiedName":"bank.payments"}`)
	one, two, three, four := ds("one"), ds("two"), ds("three"), ds("four")
	tests := []struct {
		name       string
		text       string
		structured bool
		want       []string
	}{
		// simple_query_string (free text)
		{"free: terms all match", `orders daily`, false, []string{one}},
		{"free: | is OR", `daily | customers`, false, []string{one, three}},
		{"free: - excludes", `orders -daily`, false, []string{two}},
		{"free: -term alone is everything else", `-orders`, false, []string{four, three}},
		{"free: + is AND", `orders +daily`, false, []string{one}},
		{"free: left to right", `daily | customers shop`, false, []string{one, three}},
		{"free: parentheses group", `shop (daily | customers)`, false, []string{one, three}},
		{"free: negated group", `orders -(daily | ever)`, false, nil},
		{"free: phrase", `"orders of the"`, false, []string{one}},
		{"free: phrase with slop", `"orders day"~3`, false, []string{one}},
		{"free: phrase without slop is exact", `"orders day"`, false, nil},
		{"free: fuzzy", `custmers~1`, false, []string{three}},
		{"free: fuzzy ~ alone is 2 edits", `paymnts~`, false, []string{four}},
		{"free: fuzzy beyond its edits", `pamnts~1`, false, nil},
		{"free: prefix", `paym*`, false, []string{four}},
		{"free: inner star splits the term", `cust*shop`, false, []string{three}},
		{"free: star is everything", `*`, false, []string{four, one, three, two}},
		{"free: AND is a stop word", `orders AND daily`, false, []string{one}},
		{"free: NOT is a stop word", `daily NOT orders`, false, []string{one}},
		{"free: only stop words are kept", `the`, false, []string{one, three}},
		{"free: escaped operator is literal", `shop\.orders`, false, []string{one, two}},
		{"free: unbalanced parenthesis ignored", `(orders daily`, false, []string{one}},
		{"free: stray parenthesis ignored", `orders) daily`, false, []string{one}},
		{"free: unclosed phrase is a phrase", `"orders of`, false, []string{one}},
		// query_string (structured)
		{"structured: OR", `daily OR customers`, true, []string{one, three}},
		{"structured: || and &&", `(daily || customers) && shop`, true, []string{one, three}},
		{"structured: AND", `orders AND daily`, true, []string{one}},
		{"structured: NOT", `orders NOT daily`, true, []string{two}},
		{"structured: ! and -", `orders !daily -ever`, true, nil},
		{"structured: NOT alone", `NOT orders`, true, []string{four, three}},
		{"structured: + requires, others optional with OR", `+orders OR payments`, true, []string{four, one, two}},
		{"structured: a AND b OR c requires a only", `daily AND orders OR payments`, true, []string{one}},
		{"structured: field group", `name:(daily OR payments)`, true, []string{four, one}},
		{"structured: range inclusive", `createdAt:[100 TO 200]`, true, []string{one, two}},
		{"structured: range exclusive", `createdAt:{100 TO 300}`, true, []string{two}},
		{"structured: range mixed and open", `createdAt:{100 TO *]`, true, []string{three, two}},
		{"structured: comparison", `createdAt:>=200`, true, []string{three, two}},
		{"structured: comparison below", `createdAt:<200`, true, []string{one}},
		{"structured: text range", `name:[c TO o]`, true, []string{three}},
		{"structured: wildcard in the middle", `qualifiedName:shop.ord*all`, true, []string{two}},
		{"structured: regular expression", `name:/pay.*s/`, true, []string{four}},
		{"structured: fuzzy", `name:custmers~1`, true, []string{three}},
		{"structured: exists", `_exists_:createdAt`, true, []string{one, three, two}},
		{"structured: field star is exists", `description:*`, true, []string{one, three, two}},
		{"structured: boost keeps the match", `payments^2 OR daily`, true, []string{four, one}},
		{"structured: phrase slop", `description:"orders day"~2`, true, []string{one}},
		{"structured: escaped colon is text", `shop\:x OR payments`, true, []string{four}},
		{"structured: star is everything", `*`, true, []string{four, one, three, two}},
		{"\\/q prefix makes any query structured", `\/q daily OR customers`, false, []string{one, three}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := x.Search(Query{Text: tt.text, Structured: tt.structured, Types: []string{"dataset"}, Count: 100})
			if err != nil {
				t.Fatal(err)
			}
			got := urnsOf(res)
			slices.Sort(got)
			if len(got) == 0 {
				got = nil
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s: got %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}

// TestQuerySyntaxErrors checks that a structured query Elasticsearch
// cannot parse fails with ErrQuerySyntax (not ErrBadQuery) and that the
// same text as free text does not fail.
func TestQuerySyntaxErrors(t *testing.T) {
	t.Parallel()
	_, x, _ := newTest(t, 0)
	for _, text := range []string{
		`orders AND`, `AND orders`, `orders OR`, `NOT`, `(orders`, `orders)`, `"orders`,
		`name:[a TO`, `name:[a b]`, `name:/ord`, `orders\`, `name:`, `()`, `a AND OR b`, `-`, `orders^`,
	} {
		t.Run(text, func(t *testing.T) {
			t.Parallel()
			_, err := x.Search(Query{Text: text, Structured: true})
			if !errors.Is(err, ErrQuerySyntax) || errors.Is(err, ErrBadQuery) {
				t.Errorf("structured %q: got %v, want an ErrQuerySyntax", text, err)
			}
			if _, err := x.Search(Query{Text: text}); err != nil {
				t.Errorf("free text %q: %v", text, err)
			}
		})
	}
}

// TestQueryScore checks that the tree scores as the flat path does: a
// conjunction written with operators scores as the plain terms, and an OR
// adds the score of every clause that matches.
func TestQueryScore(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	put(t, st, ds("one"), "datasetKey", `{"platform":"urn:li:dataPlatform:hive","name":"one","origin":"PROD"}`)
	put(t, st, ds("one"), "datasetProperties", `{"name":"orders daily","description":"orders"}`)
	score := func(text string, structured bool) float64 {
		t.Helper()
		res, err := x.Search(Query{Text: text, Structured: structured, Count: 10})
		if err != nil || len(res.Hits) != 1 {
			t.Fatalf("%s: %v %v", text, res.Hits, err)
		}
		return res.Hits[0].Score
	}
	plain := score("orders daily", false)
	for _, text := range []string{"orders +daily", "(orders daily)"} {
		if got := score(text, false); got != plain {
			t.Errorf("%s: score %v, want %v (as plain terms)", text, got, plain)
		}
	}
	if got := score("orders AND daily", true); got != plain {
		t.Errorf("structured AND: score %v, want %v", got, plain)
	}
	orders, daily := score("orders", false), score("daily", false)
	if got := score("orders OR daily", true); got != orders+daily {
		t.Errorf("OR: score %v, want %v", got, orders+daily)
	}
	if got := score("daily^3", true); got != 3*daily {
		t.Errorf("boost: score %v, want %v", got, 3*daily)
	}
}
