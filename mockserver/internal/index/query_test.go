package index

import (
	"slices"
	"testing"
)

// TestStructuredQuery checks each element of the query_string syntax the
// structured search reads, against the free-text reading of the same text.
func TestStructuredQuery(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	for _, n := range []string{"one", "two", "three"} {
		put(t, st, ds(n), "datasetKey", `{"platform":"urn:li:dataPlatform:hive","name":"`+n+`","origin":"PROD"}`)
	}
	put(t, st, ds("one"), "datasetProperties", `{"name":"orders daily","qualifiedName":"shop.orders_1","description":"orders of the day"}`)
	put(t, st, ds("two"), "datasetProperties", `{"name":"orders","qualifiedName":"shopXorders_2","description":"star * here"}`)
	put(t, st, ds("three"), "datasetProperties", `{"name":"customers","qualifiedName":"crm.customers","description":"shop.orders are elsewhere"}`)
	tests := []struct {
		name       string
		text       string
		structured bool
		want       []string
	}{
		{"field query", `qualifiedName:crm.customers`, true, []string{ds("three")}},
		{"field query is the field only", `description:customers`, true, nil},
		{"field query on a field outside the default ones", `origin:PROD`, true, []string{ds("one"), ds("three"), ds("two")}},
		{"escaped dot and wildcard", `qualifiedName:shop\.orders*`, true, []string{ds("one")}},
		{"wildcard without escape", `qualifiedName:shop?orders*`, true, []string{ds("one"), ds("two")}},
		{"wildcard is whole-value or whole-word", `qualifiedName:orders*`, true, nil},
		{"wildcard on a word", `description:da*`, true, []string{ds("one")}},
		{"escaped star is literal", `description:\*`, true, []string{ds("two")}},
		{"quoted phrase", `"orders daily"`, true, []string{ds("one")}},
		{"AND is the default operator", `orders AND daily`, true, []string{ds("one")}},
		{"terms all match", `orders daily`, true, []string{ds("one")}},
		{"field:* matches a field that has a value", `qualifiedName:*`, true, []string{ds("one"), ds("three"), ds("two")}},
		{"prefix \\/q makes any query structured", `\/q qualifiedName:crm.customers`, false, []string{ds("three")}},
		{"free text keeps the colon", `qualifiedName:crm.customers`, false, nil},
		{"free text trims stars", `cust*`, false, []string{ds("three")}},
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
