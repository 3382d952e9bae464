package aspects

import (
	"fmt"
	"strings"

	"github.com/catalogkit/datahub-go/internal/errs"
)

// TestOperator is the operator of a metadata test predicate ([TestWhere]).
type TestOperator string

// The operators of metadata test predicates that the mock server
// evaluates. DataHub's engine has these and more; a TestOperator of
// another name is written as given.
const (
	TestOpExists      TestOperator = "exists"       // the property has a value; takes no values
	TestOpEquals      TestOperator = "equals"       // a value equals one of the values
	TestOpIn          TestOperator = "in"           // the same as equals
	TestOpContains    TestOperator = "contains"     // a string value contains one of the values
	TestOpStartsWith  TestOperator = "starts_with"  // a string value starts with one of the values
	TestOpRegex       TestOperator = "regex"        // a string value matches one of the values (regular expressions)
	TestOpGreaterThan TestOperator = "greater_than" // a numeric value is greater than the first value
	TestOpLessThan    TestOperator = "less_than"    // a numeric value is less than the first value
)

// TestRule is a rule of a metadata test definition: a predicate on a
// property ([TestWhere]) or a combination of rules ([TestAllOf],
// [TestAnyOf], [TestNot]). The zero TestRule is no rule; a definition
// holding one is refused by [NewTestDefinition].
type TestRule struct {
	kind     string // "and", "or", "not", or "" for a predicate
	rules    []TestRule
	property string
	operator TestOperator
	values   []string
}

// TestWhere returns the predicate "property operator values":
//
//	aspects.TestWhere("ownership.owners.owner", aspects.TestOpExists)
//	aspects.TestWhere("datasetProperties.description", aspects.TestOpContains, "pii", "personal")
func TestWhere(property string, op TestOperator, values ...string) TestRule {
	return TestRule{property: property, operator: op, values: values}
}

// TestAllOf returns the rule that holds when every one of rules holds
// ("and"; it holds for no rules).
func TestAllOf(rules ...TestRule) TestRule { return TestRule{kind: "and", rules: rules} }

// TestAnyOf returns the rule that holds when some one of rules holds
// ("or").
func TestAnyOf(rules ...TestRule) TestRule { return TestRule{kind: "or", rules: rules} }

// TestNot returns the rule that holds when rule does not.
func TestNot(rule TestRule) TestRule { return TestRule{kind: "not", rules: []TestRule{rule}} }

// MarshalJSON writes the rule in the definition's JSON form. It fails for
// a rule [NewTestDefinition] would refuse.
func (r TestRule) MarshalJSON() ([]byte, error) {
	if err := r.check("rule"); err != nil {
		return nil, err
	}
	switch r.kind {
	case "and", "or":
		return marshal(map[string][]TestRule{r.kind: nonNil(r.rules)})
	case "not":
		return marshal(map[string]TestRule{"not": r.rules[0]})
	}
	p := struct {
		Property string       `json:"property"`
		Operator TestOperator `json:"operator"`
		Values   []string     `json:"values,omitempty"`
	}{r.property, r.operator, r.values}
	return marshal(p)
}

// check reports the first problem of r, naming its place as path.
func (r TestRule) check(path string) error {
	switch r.kind {
	case "and", "or":
		for i, sub := range r.rules {
			if err := sub.check(fmt.Sprintf("%s.%s[%d]", path, r.kind, i)); err != nil {
				return err
			}
		}
		return nil
	case "not":
		return r.rules[0].check(path + ".not")
	}
	switch {
	case r.property == "" && r.operator == "":
		return testDefError(path, "empty rule (use TestWhere, TestAllOf, TestAnyOf or TestNot)")
	case r.property == "":
		return testDefError(path, "no property")
	case r.operator == "":
		return testDefError(path, "no operator")
	case r.operator != TestOpExists && len(r.values) == 0:
		return testDefError(path, fmt.Sprintf("operator %s needs values", r.operator))
	case r.operator == TestOpExists && len(r.values) > 0:
		return testDefError(path, "operator exists takes no values")
	}
	return nil
}

// TestOn selects the entities a metadata test applies to.
type TestOn struct {
	// Types are the entity types, such as "dataset"; at least one.
	Types []string
	// Conditions, when set, narrows the entities of those types to those
	// that meet it.
	Conditions *TestRule
}

// NewTestDefinition returns the JSON definition of a metadata test that
// applies to the entities on selects and passes for those that meet
// rules, for a [TestInfo]'s Definition:
//
//	def, err := aspects.NewTestDefinition(
//		aspects.TestOn{Types: []string{"dataset"}},
//		aspects.TestAllOf(
//			aspects.TestWhere("ownership.owners.owner", aspects.TestOpExists),
//			aspects.TestNot(aspects.TestWhere("status.removed", aspects.TestOpEquals, "true")),
//		))
//	info := aspects.TestInfo{Name: "Has an owner", Category: "Governance", Definition: def}
//
// A metadata test's definition (TestInfo.Definition) is a JSON document
// with two members:
//
//	{"on":    {"types": ["dataset", ...], "conditions": rule},
//	 "rules": rule}
//
// "on" selects the entities the test applies to: those of the listed
// entity types that meet the optional conditions; the test is neither
// passed nor failed by any other entity. "rules" is what an entity it
// applies to must meet to pass. A rule is one of
//
//	{"and": [rule, ...]}   every rule holds (an empty list holds)
//	{"or":  [rule, ...]}   some rule holds
//	{"not": rule}          the rule does not hold
//	[rule, ...]            the same as "and"
//	{"property": "aspectName.field.path", "operator": "equals", "values": ["v", ...]}
//
// A property path starts with an aspect name (or is "urn") and goes down
// through record members; a list on the way stands for each of its
// elements, so "ownership.owners.owner" is every owner. The operators
// ([TestOperator]) are exists (no values), equals and in (a value equals
// one of the values), contains, starts_with, regex (a string value
// contains, starts with or matches one of the values), greater_than and
// less_than (a number compared with the first value). DataHub's own
// engine knows more operators and properties (see
// https://docs.datahub.com/docs/tests/metadata-tests); the mock server
// evaluates these. An optional "actions" member (tags or terms to add to
// passing or failing entities) is kept by DataHub and ignored by the mock.
//
// NewTestDefinition fails, with a *TestDefinitionError (matching
// datahub.ErrValidation) that names the place ("rules.and[1]: no
// property"), for no types, an empty type name or a malformed rule (an
// empty one, no property or operator, exists with values, another
// operator without).
func NewTestDefinition(on TestOn, rules TestRule) (TestDefinition, error) {
	if len(on.Types) == 0 {
		return TestDefinition{}, testDefError("on.types", "no entity type")
	}
	for i, t := range on.Types {
		if strings.TrimSpace(t) == "" {
			return TestDefinition{}, testDefError(fmt.Sprintf("on.types[%d]", i), "empty entity type")
		}
	}
	if on.Conditions != nil {
		if err := on.Conditions.check("on.conditions"); err != nil {
			return TestDefinition{}, err
		}
	}
	if err := rules.check("rules"); err != nil {
		return TestDefinition{}, err
	}
	type target struct {
		Types      []string  `json:"types"`
		Conditions *TestRule `json:"conditions,omitempty"`
	}
	b, err := marshal(struct {
		On    target   `json:"on"`
		Rules TestRule `json:"rules"`
	}{target(on), rules})
	if err != nil { // not reached: the rules were checked
		return TestDefinition{}, err
	}
	return TestDefinition{Type: TestDefinitionJSON, JSON: Ptr(string(b))}, nil
}

// TestDefinitionError is a metadata test definition that
// [NewTestDefinition] refuses. errors.Is(err, datahub.ErrValidation) holds
// for it.
type TestDefinitionError struct {
	// Path is the place in the definition, such as "rules.and[1]".
	Path string
	// Msg says what is wrong there.
	Msg string
}

// Error returns the place and the problem.
func (e *TestDefinitionError) Error() string {
	return "aspects: test definition: " + e.Path + ": " + e.Msg
}

// Is reports whether target is datahub.ErrValidation.
func (e *TestDefinitionError) Is(target error) bool { return target == errs.ErrValidation }

func testDefError(path, msg string) error { return &TestDefinitionError{Path: path, Msg: msg} }
