package graphql

import (
	"encoding/json"
	"testing"
)

// FuzzCheckVariables checks that reading an operation's variable
// definitions and coercing values never panics, whatever the query.
func FuzzCheckVariables(f *testing.F) {
	for _, q := range []string{
		`query q($c: Int) { a(count: $c) }`,
		`query q($c: [Int!]! = [1, 2] @d, $s: String = "x") { a }`,
		"query a { b }\nquery q($c: Int) { b }",
		`fragment F on T { a } { b }`,
		`query q($c: Int = {a: [1, {b: "("}]}) { a }`,
		`query q($ c`,
		`"""block \""" string""" query`,
	} {
		f.Add(q, "q", `{"c":"ten","s":5}`)
	}
	f.Fuzz(func(t *testing.T, query, op, vars string) {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(vars), &m) != nil {
			return
		}
		_ = checkVariables(query, op, m)
	})
}

// TestOperationVariables checks the variable definitions read from
// queries: types with lists and "!", defaults and directives skipped, the
// operation chosen by name, and the "$" of each located.
func TestOperationVariables(t *testing.T) {
	t.Parallel()
	q := "query a { b }\n# comment ($x: Int)\nquery q(\n  $c: [Int!]! = [1, 2] @d(x: \"(\")\n  $s: String = \"x\"\n) { b }"
	defs, ok := operationVariables(q, "q")
	if !ok || len(defs) != 2 {
		t.Fatalf("operationVariables = %+v, %t", defs, ok)
	}
	c, s := defs[0], defs[1]
	if c.name != "c" || c.typ.elem == nil || c.typ.elem.name != "Int" || !c.typ.elem.nonNull || !c.typ.nonNull || c.loc.Line != 4 || c.loc.Column != 3 {
		t.Errorf("$c = %+v", c)
	}
	if s.name != "s" || s.typ.name != "String" || s.typ.nonNull || s.loc.Line != 5 || s.loc.Column != 3 {
		t.Errorf("$s = %+v", s)
	}
	if _, ok := operationVariables(q, ""); ok {
		t.Errorf("two operations and no name: read as one")
	}
	if _, ok := operationVariables(q, "nope"); ok {
		t.Errorf("an operation that is not there: read")
	}
}
