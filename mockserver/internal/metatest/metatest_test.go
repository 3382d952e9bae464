package metatest

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

func TestEvaluate(t *testing.T) {
	t.Parallel()
	aspects := map[string]json.RawMessage{
		"ownership":                 json.RawMessage(`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"},{"owner":"urn:li:corpuser:b"}]}`),
		"editableDatasetProperties": json.RawMessage(`{"description":"Has PII columns"}`),
		"datasetProfile":            json.RawMessage(`{"rowCount":120,"columnCount":4}`),
		"status":                    json.RawMessage(`{"removed":false}`),
	}
	const urn = "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
	rule := func(r string) string { return `{"on":{"types":["dataset"]},"rules":` + r + `}` }
	for _, tc := range []struct {
		name, def     string
		applies, pass bool
	}{
		{"exists", rule(`[{"property":"ownership.owners.owner","operator":"exists"}]`), true, true},
		{"exists missing", rule(`[{"property":"glossaryTerms.terms.urn","operator":"exists"}]`), true, false},
		{"exists null member", rule(`[{"property":"ownership.owners.source","operator":"exists"}]`), true, false},
		{"equals in array", rule(`[{"property":"ownership.owners.owner","operator":"equals","values":["urn:li:corpuser:b"]}]`), true, true},
		{"equals bool", rule(`[{"property":"status.removed","operator":"equals","values":["false"]}]`), true, true},
		{"equals number", rule(`[{"property":"datasetProfile.rowCount","operator":"equals","values":["120"]}]`), true, true},
		{"in miss", rule(`[{"property":"ownership.owners.type","operator":"in","values":["TECHNICAL_OWNER"]}]`), true, false},
		{"contains", rule(`[{"property":"editableDatasetProperties.description","operator":"contains","values":["x","PII"]}]`), true, true},
		{"contains case", rule(`[{"property":"editableDatasetProperties.description","operator":"contains","values":["pii"]}]`), true, false},
		{"starts_with", rule(`[{"property":"editableDatasetProperties.description","operator":"starts_with","values":["Has"]}]`), true, true},
		{"regex", rule(`[{"property":"editableDatasetProperties.description","operator":"regex","values":["(?i)pii"]}]`), true, true},
		{"greater_than", rule(`[{"property":"datasetProfile.rowCount","operator":"greater_than","values":["100"]}]`), true, true},
		{"less_than", rule(`[{"property":"datasetProfile.rowCount","operator":"less_than","values":["100"]}]`), true, false},
		{"operator case", rule(`[{"property":"datasetProfile.rowCount","operator":"LESS_THAN","values":["200"]}]`), true, true},
		{"urn", rule(`[{"property":"urn","operator":"starts_with","values":["urn:li:dataset:"]}]`), true, true},
		{"and", rule(`{"and":[{"property":"status.removed","operator":"exists"},{"property":"datasetProfile.rowCount","operator":"less_than","values":["1"]}]}`), true, false},
		{"or", rule(`{"or":[{"property":"nope.x","operator":"exists"},{"property":"status.removed","operator":"exists"}]}`), true, true},
		{"not", rule(`{"not":{"property":"nope.x","operator":"exists"}}`), true, true},
		{"negate", rule(`[{"property":"nope.x","operator":"exists","negate":true}]`), true, true},
		{"empty and", rule(`{"and":[]}`), true, true},
		{"empty or", rule(`{"or":[]}`), true, false},
		{"nested", rule(`{"and":[{"or":[{"not":{"property":"status.removed","operator":"equals","values":["true"]}}]},[{"property":"urn","operator":"exists"}]]}`), true, true},
		{"other type", `{"on":{"types":["chart"]},"rules":[]}`, false, false},
		{"type case", `{"on":{"types":["DATASET"]},"rules":[]}`, true, true},
		{"condition holds", `{"on":{"types":["dataset"],"conditions":[{"property":"status.removed","operator":"exists"}]},"rules":{"or":[]}}`, true, false},
		{"condition fails", `{"on":{"types":["dataset"],"conditions":[{"property":"nope.x","operator":"exists"}]},"rules":[]}`, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := Parse(tc.def)
			if err != nil {
				t.Fatal(err)
			}
			r, err := d.Evaluate(urn, "dataset", aspects)
			if err != nil {
				t.Fatal(err)
			}
			if r.Applies != tc.applies || r.Passes != tc.pass {
				t.Errorf("= %+v, want applies %v passes %v", r, tc.applies, tc.pass)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ def, want string }{
		{`[]`, "definition: not a JSON object"},
		{strings.Repeat("[", 20000) + strings.Repeat("]", 20000), "definition: nested too deeply: JSON nesting exceeds the limit of 10000 levels"},
		{`{"on":{"types":["dataset"]},"rules":[],"extra":1}`, "extra: unknown member (expected on, rules, actions)"},
		{`{"rules":[]}`, "on: required"},
		{`{"on":{"types":"dataset"},"rules":[]}`, "on: expected an object with types (a list of strings) and conditions"},
		{`{"on":{"types":["dataset"]},"rules":5}`, "rules: a rule must be an object or a list of rules"},
		{`{"on":{"types":["dataset"]},"rules":{"and":{}}}`, "rules.and: expected a list of rules"},
		{`{"on":{"types":["dataset"]},"rules":[{"operator":"exists"}]}`, "rules[0].property: required"},
		{`{"on":{"types":["dataset"]},"rules":[{"property":"a.b","operator":"equals"}]}`, "rules[0].values: required for operator equals"},
		{`{"on":{"types":["dataset"]},"rules":[{"property":"a.b","operator":"exists","values":"x"}]}`, "rules[0].values: wrong type"},
		{`{"on":{"types":["dataset"]},"rules":{"not":[{"property":"a","operator":"between","values":["1"]}]}}`, `rules.not[0].operator: unsupported operator "between" (datahub-mock supports exists, equals, in, contains, starts_with, regex, greater_than, less_than)`},
	} {
		_, err := Parse(tc.def)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%s) = %v, want %q", tc.def, err, tc.want)
		}
	}
}

func TestAppliesTo(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		def            string
		applies, known bool
	}{
		{`{"on":{"types":["chart"]},"rules":{"xor":1}}`, false, true},
		{`{"on":{"types":["Dataset"]},"rules":{"xor":1}}`, true, true},
		{`{"on":{"types":[]},"rules":[]}`, false, false},
		{`{"on":{"types":"dataset"},"rules":[]}`, false, false},
		{`{"rules":[]}`, false, false},
		{`{`, false, false},
	} {
		applies, known := AppliesTo(tc.def, "dataset")
		if applies != tc.applies || known != tc.known {
			t.Errorf("AppliesTo(%s) = %v, %v, want %v, %v", tc.def, applies, known, tc.applies, tc.known)
		}
	}
}

// notNested is a definition whose rule is a predicate inside n "not"s.
func notNested(n int) string {
	return `{"on":{"types":["dataset"]},"rules":` + strings.Repeat(`{"not":`, n) +
		`{"property":"urn","operator":"exists"}` + strings.Repeat("}", n) + "}"
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDeepNotIsLinear parses and evaluates definitions nested in "not"
// 2,497 and 9,990 deep: 4 times the depth costs about 4 times the bytes
// (a parser that decodes each level's subtree again costs 16 times), and
// the answer alternates with the depth's parity. Not parallel, so that the
// allocation counter sees this test alone.
func TestDeepNotIsLinear(t *testing.T) {
	run := func(n int) (bool, uint64) {
		var passes bool
		b := allocated(func() {
			d, err := Parse(notNested(n))
			if err != nil {
				t.Fatalf("depth %d: %v", n, err)
			}
			r, err := d.Evaluate("urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)", "dataset", nil)
			if err != nil || !r.Applies {
				t.Fatalf("depth %d: %+v, %v", n, r, err)
			}
			passes = r.Passes
		})
		return passes, b
	}
	small, smallBytes := run(2497)
	large, largeBytes := run(9990)
	if small != false || large != true {
		t.Errorf("passes = %v (odd depth), %v (even depth); want false, true", small, large)
	}
	if ratio := float64(largeBytes) / float64(smallBytes); ratio > 6 {
		t.Errorf("4x the depth allocates %.1fx the bytes (%d vs %d): not linear", ratio, largeBytes, smallBytes)
	}
}

func BenchmarkDeepNot(b *testing.B) {
	def := notNested(9990)
	b.ReportAllocs()
	for b.Loop() {
		d, err := Parse(def)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := d.Evaluate("urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)", "dataset", nil); err != nil {
			b.Fatal(err)
		}
	}
}
