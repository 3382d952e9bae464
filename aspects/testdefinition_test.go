package aspects_test

import (
	"errors"
	"fmt"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
)

func TestNewTestDefinition(t *testing.T) {
	t.Parallel()
	cond := aspects.TestNot(aspects.TestWhere("status.removed", aspects.TestOpEquals, "true"))
	for _, tt := range []struct {
		name  string
		on    aspects.TestOn
		rules aspects.TestRule
		want  string
	}{
		{"predicate", aspects.TestOn{Types: []string{"dataset"}}, aspects.TestWhere("ownership.owners.owner", aspects.TestOpExists),
			`{"on":{"types":["dataset"]},"rules":{"property":"ownership.owners.owner","operator":"exists"}}`},
		{"combined, with conditions", aspects.TestOn{Types: []string{"dataset", "chart"}, Conditions: &cond},
			aspects.TestAllOf(
				aspects.TestAnyOf(
					aspects.TestWhere("datasetProperties.description", aspects.TestOpContains, "pii", "<personal>"),
					aspects.TestWhere("urn", aspects.TestOpRegex, `^urn:li:dataset:\(.*,PROD\)$`)),
				aspects.TestWhere("datasetProfile.rowCount", aspects.TestOpGreaterThan, "10")),
			`{"on":{"types":["dataset","chart"],"conditions":{"not":{"property":"status.removed","operator":"equals","values":["true"]}}},` +
				`"rules":{"and":[{"or":[{"property":"datasetProperties.description","operator":"contains","values":["pii","<personal>"]},` +
				`{"property":"urn","operator":"regex","values":["^urn:li:dataset:\\(.*,PROD\\)$"]}]},` +
				`{"property":"datasetProfile.rowCount","operator":"greater_than","values":["10"]}]}}`},
		{"empty and", aspects.TestOn{Types: []string{"mlModel"}}, aspects.TestAllOf(),
			`{"on":{"types":["mlModel"]},"rules":{"and":[]}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			def, err := aspects.NewTestDefinition(tt.on, tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			if def.Type != aspects.TestDefinitionJSON || def.JSON == nil || *def.JSON != tt.want {
				t.Errorf("definition = %s %v\nwant JSON %s", def.Type, deref(def.JSON), tt.want)
			}
		})
	}
}

func TestNewTestDefinitionRefuses(t *testing.T) {
	t.Parallel()
	ok := aspects.TestWhere("urn", aspects.TestOpExists)
	var zero aspects.TestRule
	for _, tt := range []struct {
		name  string
		on    aspects.TestOn
		rules aspects.TestRule
		want  string
	}{
		{"no types", aspects.TestOn{}, ok, "aspects: test definition: on.types: no entity type"},
		{"empty type", aspects.TestOn{Types: []string{"dataset", " "}}, ok, "aspects: test definition: on.types[1]: empty entity type"},
		{"empty rule", aspects.TestOn{Types: []string{"dataset"}}, zero, "aspects: test definition: rules: empty rule (use TestWhere, TestAllOf, TestAnyOf or TestNot)"},
		{"no property", aspects.TestOn{Types: []string{"dataset"}}, aspects.TestAllOf(ok, aspects.TestWhere("", aspects.TestOpExists)),
			"aspects: test definition: rules.and[1]: no property"},
		{"no operator", aspects.TestOn{Types: []string{"dataset"}}, aspects.TestAnyOf(aspects.TestNot(aspects.TestWhere("urn", ""))),
			"aspects: test definition: rules.or[0].not: no operator"},
		{"values missing", aspects.TestOn{Types: []string{"dataset"}}, aspects.TestWhere("urn", aspects.TestOpEquals),
			"aspects: test definition: rules: operator equals needs values"},
		{"exists with values", aspects.TestOn{Types: []string{"dataset"}}, aspects.TestWhere("urn", aspects.TestOpExists, "x"),
			"aspects: test definition: rules: operator exists takes no values"},
		{"bad condition", aspects.TestOn{Types: []string{"dataset"}, Conditions: &zero}, ok,
			"aspects: test definition: on.conditions: empty rule (use TestWhere, TestAllOf, TestAnyOf or TestNot)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := aspects.NewTestDefinition(tt.on, tt.rules)
			var de *aspects.TestDefinitionError
			if !errors.As(err, &de) || !errors.Is(err, datahub.ErrValidation) || err.Error() != tt.want {
				t.Errorf("err = %v, want %q matching datahub.ErrValidation", err, tt.want)
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// A metadata test that every dataset not soft-deleted has an owner.
func ExampleNewTestDefinition() {
	live := aspects.TestNot(aspects.TestWhere("status.removed", aspects.TestOpEquals, "true"))
	def, err := aspects.NewTestDefinition(aspects.TestOn{Types: []string{"dataset"}, Conditions: &live},
		aspects.TestWhere("ownership.owners.owner", aspects.TestOpExists))
	if err != nil {
		panic(err)
	}
	info := aspects.TestInfo{Name: "Has an owner", Category: "Governance", Definition: def}
	fmt.Println(*info.Definition.JSON)
	// Output:
	// {"on":{"types":["dataset"],"conditions":{"not":{"property":"status.removed","operator":"equals","values":["true"]}}},"rules":{"property":"ownership.owners.owner","operator":"exists"}}
}
