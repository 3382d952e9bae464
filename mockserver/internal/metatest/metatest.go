// Package metatest evaluates DataHub metadata test definitions (the JSON of
// a test entity's testInfo.definition) against an entity's aspects, for the
// mock's POST /test?action=evaluate.
//
// A definition is an object with "on" (the entity "types" it applies to and
// optional "conditions") and "rules"; "actions" is accepted and ignored. A
// rule is one of:
//
//	{"and": [rule, ...]}   every rule holds (an empty list holds)
//	{"or":  [rule, ...]}   some rule holds
//	{"not": rule}          the rule does not hold
//	[rule, ...]            the same as "and"
//	{"property": "aspect.field.path", "operator": "op", "values": ["v", ...], "negate": false}
//
// ("query" and "operation" are accepted for "property" and "operator", as
// DataHub's legacy form.) A property path starts with an aspect name and
// goes down through object members; an array on the way stands for each of
// its elements. "urn" is the entity's URN. The operators are:
//
//	exists                  the path has a value (not null)
//	equals, in              a value equals one of values
//	contains                a string value contains one of values
//	starts_with             a string value starts with one of values
//	regex                   a string value matches one of values (RE2)
//	greater_than, less_than a numeric value compares so with values[0]
//
// Anything else, or a malformed rule, is an [*Error] naming its place in the
// definition ("rules.or[1].operator"), never a silent pass or failure.
package metatest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// Operators are the operators the evaluator supports.
var Operators = []string{"exists", "equals", "in", "contains", "starts_with", "regex", "greater_than", "less_than"}

// Error is a part of a definition the evaluator cannot evaluate.
type Error struct {
	// Path names the part: "rules.or[1].operator".
	Path string
	// Msg says what is wrong with it.
	Msg string
}

// Error returns the path and the problem.
func (e *Error) Error() string { return e.Path + ": " + e.Msg }

// Definition is a parsed test definition.
type Definition struct {
	// Types are the entity types the test applies to.
	Types      []string
	conditions json.RawMessage
	rules      json.RawMessage
}

// Parse reads a definition's JSON.
func Parse(def string) (*Definition, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(def), &top); err != nil || top == nil {
		if gms.TooDeep(err) {
			return nil, &Error{Path: "definition", Msg: fmt.Sprintf(gms.MsgTooDeep, gms.MaxJSONDepth)}
		}
		return nil, &Error{Path: "definition", Msg: "not a JSON object"}
	}
	for k := range top {
		if k != "on" && k != "rules" && k != "actions" {
			return nil, &Error{Path: k, Msg: "unknown member (expected on, rules, actions)"}
		}
	}
	if len(top["on"]) == 0 {
		return nil, &Error{Path: "on", Msg: "required"}
	}
	if len(top["rules"]) == 0 {
		return nil, &Error{Path: "rules", Msg: "required"}
	}
	var on struct {
		Types      []string        `json:"types"`
		Conditions json.RawMessage `json:"conditions"`
	}
	if err := json.Unmarshal(top["on"], &on); err != nil {
		return nil, &Error{Path: "on", Msg: "expected an object with types (a list of strings) and conditions"}
	}
	if len(on.Types) == 0 {
		return nil, &Error{Path: "on.types", Msg: "required: the entity types the test applies to"}
	}
	d := &Definition{Types: on.Types, conditions: on.Conditions, rules: top["rules"]}
	// Check both rule trees now, so that a broken part is reported even when
	// evaluation would not reach it.
	probe := &entity{aspects: map[string]any{}}
	if isSet(d.conditions) {
		if _, err := eval(d.conditions, "on.conditions", probe, true); err != nil {
			return nil, err
		}
	}
	if _, err := eval(d.rules, "rules", probe, true); err != nil {
		return nil, err
	}
	return d, nil
}

// AppliesTo reads only a definition's on.types and reports whether the test
// applies to entityType (compared case-insensitively), so that a test for
// other types is skipped even when the rest of its definition cannot be
// evaluated. known is false when the types cannot be read; then the test's
// applicability is unknown and [Parse] says what is wrong.
func AppliesTo(def, entityType string) (applies, known bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal([]byte(def), &top) != nil {
		return false, false
	}
	var on map[string]json.RawMessage
	if json.Unmarshal(top["on"], &on) != nil {
		return false, false
	}
	var types []string
	if json.Unmarshal(on["types"], &types) != nil || len(types) == 0 {
		return false, false
	}
	return typeIn(types, entityType), true
}

func typeIn(types []string, entityType string) bool {
	return slices.ContainsFunc(types, func(t string) bool { return strings.EqualFold(t, entityType) })
}

func isSet(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// Result is the outcome of a test for one entity.
type Result struct {
	// Applies reports whether the entity's type is one of the test's types
	// and its conditions hold; Passes is meaningful only then.
	Applies, Passes bool
}

// Evaluate runs the definition against an entity: its URN and its latest
// aspects by name.
func (d *Definition) Evaluate(urn, entityType string, aspects map[string]json.RawMessage) (Result, error) {
	if !typeIn(d.Types, entityType) {
		return Result{}, nil
	}
	e := &entity{urn: urn, raw: aspects, aspects: map[string]any{}}
	if isSet(d.conditions) {
		ok, err := eval(d.conditions, "on.conditions", e, false)
		if err != nil || !ok {
			return Result{}, err
		}
	}
	ok, err := eval(d.rules, "rules", e, false)
	if err != nil {
		return Result{}, err
	}
	return Result{Applies: true, Passes: ok}, nil
}

type entity struct {
	urn     string
	raw     map[string]json.RawMessage
	aspects map[string]any // decoded on first use
}

// values returns the values at a property path (arrays flattened).
func (e *entity) values(path string) []any {
	if path == "urn" {
		return []any{e.urn}
	}
	parts := strings.Split(path, ".")
	v, ok := e.aspects[parts[0]]
	if !ok {
		if raw, has := e.raw[parts[0]]; has {
			dec := json.NewDecoder(strings.NewReader(string(raw)))
			dec.UseNumber()
			_ = dec.Decode(&v)
		}
		e.aspects[parts[0]] = v
	}
	cur := []any{v}
	for _, p := range parts[1:] {
		var next []any
		for _, c := range flatten(cur) {
			if m, ok := c.(map[string]any); ok {
				if x, ok := m[p]; ok {
					next = append(next, x)
				}
			}
		}
		cur = next
	}
	var out []any
	for _, c := range flatten(cur) {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
}

func flatten(vs []any) []any {
	var out []any
	for _, v := range vs {
		if a, ok := v.([]any); ok {
			out = append(out, flatten(a)...)
		} else {
			out = append(out, v)
		}
	}
	return out
}

// eval evaluates one rule at path; check only validates (every branch is
// visited).
func eval(raw json.RawMessage, path string, e *entity, check bool) (bool, error) {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) > 0 && raw[0] == '[' {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return false, &Error{Path: path, Msg: "not a list of rules"}
		}
		return all(list, path, e, check)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return false, &Error{Path: path, Msg: "a rule must be an object or a list of rules"}
	}
	if len(m) == 1 {
		for k, v := range m {
			switch k {
			case "and", "or":
				var list []json.RawMessage
				if err := json.Unmarshal(v, &list); err != nil {
					return false, &Error{Path: path + "." + k, Msg: "expected a list of rules"}
				}
				if k == "and" {
					return all(list, path+".and", e, check)
				}
				return anyOf(list, path+".or", e, check)
			case "not":
				ok, err := eval(v, path+".not", e, check)
				return !ok, err
			}
		}
	}
	return predicate(m, path, e, check)
}

func all(list []json.RawMessage, path string, e *entity, check bool) (bool, error) {
	res := true
	for i, r := range list {
		ok, err := eval(r, fmt.Sprintf("%s[%d]", path, i), e, check)
		if err != nil {
			return false, err
		}
		res = res && ok
		if !res && !check {
			return false, nil
		}
	}
	return res, nil
}

func anyOf(list []json.RawMessage, path string, e *entity, check bool) (bool, error) {
	res := false
	for i, r := range list {
		ok, err := eval(r, fmt.Sprintf("%s[%d]", path, i), e, check)
		if err != nil {
			return false, err
		}
		res = res || ok
		if res && !check {
			return true, nil
		}
	}
	return res, nil
}

// predicate evaluates {"property", "operator", "values", "negate"}.
func predicate(m map[string]json.RawMessage, path string, e *entity, check bool) (bool, error) {
	var p struct {
		Property, Operator string
		Values             []string
		Negate             bool
	}
	for k, v := range m {
		var err error
		switch k {
		case "property", "query":
			err = json.Unmarshal(v, &p.Property)
		case "operator", "operation":
			err = json.Unmarshal(v, &p.Operator)
		case "values":
			err = json.Unmarshal(v, &p.Values)
		case "negate":
			err = json.Unmarshal(v, &p.Negate)
		default:
			return false, &Error{Path: path + "." + k, Msg: "unsupported member (datahub-mock supports and, or, not, property, operator, values, negate)"}
		}
		if err != nil {
			return false, &Error{Path: path + "." + k, Msg: "wrong type"}
		}
	}
	if p.Property == "" {
		return false, &Error{Path: path + ".property", Msg: "required"}
	}
	op := strings.ToLower(p.Operator)
	if !slices.Contains(Operators, op) {
		return false, &Error{Path: path + ".operator", Msg: fmt.Sprintf("unsupported operator %q (datahub-mock supports %s)", p.Operator, strings.Join(Operators, ", "))}
	}
	if op != "exists" && len(p.Values) == 0 {
		return false, &Error{Path: path + ".values", Msg: "required for operator " + op}
	}
	var res []*regexp.Regexp
	var bound float64
	switch op {
	case "regex":
		for i, v := range p.Values {
			re, err := regexp.Compile(v)
			if err != nil {
				return false, &Error{Path: fmt.Sprintf("%s.values[%d]", path, i), Msg: "invalid regular expression: " + err.Error()}
			}
			res = append(res, re)
		}
	case "greater_than", "less_than":
		f, err := strconv.ParseFloat(p.Values[0], 64)
		if err != nil {
			return false, &Error{Path: path + ".values[0]", Msg: fmt.Sprintf("%q is not a number", p.Values[0])}
		}
		bound = f
	}
	if check {
		return false, nil
	}
	vals := e.values(p.Property)
	ok := false
	if op == "exists" {
		ok = len(vals) > 0
	}
	for _, v := range vals {
		if ok {
			break
		}
		s, isStr := v.(string)
		str := s
		if !isStr {
			b, _ := json.Marshal(v)
			str = string(b)
		}
		switch op {
		case "equals", "in":
			ok = slices.Contains(p.Values, str)
		case "contains":
			ok = isStr && slices.ContainsFunc(p.Values, func(x string) bool { return strings.Contains(s, x) })
		case "starts_with":
			ok = isStr && slices.ContainsFunc(p.Values, func(x string) bool { return strings.HasPrefix(s, x) })
		case "regex":
			ok = isStr && slices.ContainsFunc(res, func(re *regexp.Regexp) bool { return re.MatchString(s) })
		case "greater_than", "less_than":
			f, err := strconv.ParseFloat(str, 64)
			if err == nil {
				ok = (op == "greater_than" && f > bound) || (op == "less_than" && f < bound)
			}
		}
	}
	return ok != p.Negate, nil
}
