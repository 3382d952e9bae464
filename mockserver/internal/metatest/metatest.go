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

	"github.com/catalogkit/datahub-go/internal/jsonx"
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
	conditions *rule // nil: none
	rules      *rule
}

// Parse reads a definition's JSON.
func Parse(def string) (*Definition, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(def), &top); err != nil || top == nil {
		if jsonx.TooDeep(err) {
			return nil, &Error{Path: "definition", Msg: fmt.Sprintf(jsonx.MsgTooDeep, jsonx.MaxDepth)}
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
	// Both rule trees are parsed and checked now, so that a broken part is
	// reported even when evaluation would not reach it.
	d := &Definition{Types: on.Types}
	var err error
	if isSet(on.Conditions) {
		if d.conditions, err = parseRules(on.Conditions, "on.conditions"); err != nil {
			return nil, err
		}
	}
	if d.rules, err = parseRules(top["rules"], "rules"); err != nil {
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
	if d.conditions != nil && !d.conditions.eval(e) {
		return Result{}, nil
	}
	return Result{Applies: true, Passes: d.rules.eval(e)}, nil
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

// rule is one parsed rule: a list (all must hold), "and", "or", "not" or a
// predicate. A definition is parsed into rules once, so that evaluating it
// is linear in its size however deep it nests.
type rule struct {
	kind  ruleKind
	kids  []*rule
	pred  *predicate
	negOf *rule // for "not"
}

type ruleKind uint8

const (
	ruleAll ruleKind = iota // a list or "and"
	ruleAny                 // "or"
	ruleNot
	rulePred
)

// predicate is {"property", "operator", "values", "negate"}, checked.
type predicate struct {
	property, op string
	values       []string
	negate       bool
	res          []*regexp.Regexp
	bound        float64
}

// rulePath is the path of a rule in its definition, kept as a chain of
// segments and spelt out only for an error, so that parsing a deep
// definition does not build a string per level.
type rulePath struct {
	parent *rulePath
	seg    string
}

func (p *rulePath) child(seg string) *rulePath { return &rulePath{parent: p, seg: seg} }

func (p *rulePath) String() string {
	var segs []string
	for q := p; q != nil; q = q.parent {
		segs = append(segs, q.seg)
	}
	slices.Reverse(segs)
	return strings.Join(segs, "")
}

func (p *rulePath) errorf(seg, format string, args ...any) *Error {
	return &Error{Path: p.String() + seg, Msg: fmt.Sprintf(format, args...)}
}

// parseRules decodes the JSON of a rule tree once and parses it.
func parseRules(raw json.RawMessage, path string) (*rule, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		if jsonx.TooDeep(err) {
			return nil, &Error{Path: path, Msg: fmt.Sprintf(jsonx.MsgTooDeep, jsonx.MaxDepth)}
		}
		return nil, &Error{Path: path, Msg: "a rule must be an object or a list of rules"}
	}
	return parseRule(v, &rulePath{seg: path})
}

// parseRule parses one decoded rule at path.
func parseRule(v any, path *rulePath) (*rule, error) {
	switch v := v.(type) {
	case []any:
		return parseList(v, ruleAll, path)
	case map[string]any:
		if len(v) == 1 {
			for k, x := range v {
				switch k {
				case "and", "or":
					list, ok := x.([]any)
					if !ok {
						return nil, path.errorf("."+k, "expected a list of rules")
					}
					kind := ruleAll
					if k == "or" {
						kind = ruleAny
					}
					return parseList(list, kind, path.child("."+k))
				case "not":
					inner, err := parseRule(x, path.child(".not"))
					if err != nil {
						return nil, err
					}
					return &rule{kind: ruleNot, negOf: inner}, nil
				}
			}
		}
		p, err := parsePredicate(v, path)
		if err != nil {
			return nil, err
		}
		return &rule{kind: rulePred, pred: p}, nil
	}
	return nil, path.errorf("", "a rule must be an object or a list of rules")
}

func parseList(list []any, kind ruleKind, path *rulePath) (*rule, error) {
	r := &rule{kind: kind, kids: make([]*rule, len(list))}
	for i, x := range list {
		k, err := parseRule(x, path.child("["+strconv.Itoa(i)+"]"))
		if err != nil {
			return nil, err
		}
		r.kids[i] = k
	}
	return r, nil
}

// parsePredicate checks {"property", "operator", "values", "negate"}.
func parsePredicate(m map[string]any, path *rulePath) (*predicate, error) {
	var p predicate
	var operator string
	for k, v := range m {
		ok := true
		switch k {
		case "property", "query":
			ok = setString(&p.property, v)
		case "operator", "operation":
			ok = setString(&operator, v)
		case "values":
			switch vs := v.(type) {
			case nil:
			case []any:
				p.values = make([]string, len(vs))
				for i, x := range vs {
					ok = ok && setString(&p.values[i], x)
				}
			default:
				ok = false
			}
		case "negate":
			switch b := v.(type) {
			case nil:
			case bool:
				p.negate = b
			default:
				ok = false
			}
		default:
			return nil, path.errorf("."+k, "unsupported member (datahub-mock supports and, or, not, property, operator, values, negate)")
		}
		if !ok {
			return nil, path.errorf("."+k, "wrong type")
		}
	}
	if p.property == "" {
		return nil, path.errorf(".property", "required")
	}
	p.op = strings.ToLower(operator)
	if !slices.Contains(Operators, p.op) {
		return nil, path.errorf(".operator", "unsupported operator %q (datahub-mock supports %s)", operator, strings.Join(Operators, ", "))
	}
	if p.op != "exists" && len(p.values) == 0 {
		return nil, path.errorf(".values", "required for operator %s", p.op)
	}
	switch p.op {
	case "regex":
		for i, v := range p.values {
			re, err := regexp.Compile(v)
			if err != nil {
				return nil, path.errorf(fmt.Sprintf(".values[%d]", i), "invalid regular expression: %s", err)
			}
			p.res = append(p.res, re)
		}
	case "greater_than", "less_than":
		f, err := strconv.ParseFloat(p.values[0], 64)
		if err != nil {
			return nil, path.errorf(".values[0]", "%q is not a number", p.values[0])
		}
		p.bound = f
	}
	return &p, nil
}

// setString sets *dst to v, a string or null (left as it is, as
// json.Unmarshal leaves a string for null); false for another type.
func setString(dst *string, v any) bool {
	switch s := v.(type) {
	case nil:
		return true
	case string:
		*dst = s
		return true
	}
	return false
}

// eval evaluates r for e.
func (r *rule) eval(e *entity) bool {
	switch r.kind {
	case ruleAll:
		for _, k := range r.kids {
			if !k.eval(e) {
				return false
			}
		}
		return true
	case ruleAny:
		for _, k := range r.kids {
			if k.eval(e) {
				return true
			}
		}
		return false
	case ruleNot:
		return !r.negOf.eval(e)
	}
	return r.pred.eval(e)
}

// eval evaluates the predicate for e.
func (p *predicate) eval(e *entity) bool {
	vals := e.values(p.property)
	ok := false
	if p.op == "exists" {
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
		switch p.op {
		case "equals", "in":
			ok = slices.Contains(p.values, str)
		case "contains":
			ok = isStr && slices.ContainsFunc(p.values, func(x string) bool { return strings.Contains(s, x) })
		case "starts_with":
			ok = isStr && slices.ContainsFunc(p.values, func(x string) bool { return strings.HasPrefix(s, x) })
		case "regex":
			ok = isStr && slices.ContainsFunc(p.res, func(re *regexp.Regexp) bool { return re.MatchString(s) })
		case "greater_than", "less_than":
			f, err := strconv.ParseFloat(str, 64)
			if err == nil {
				ok = (p.op == "greater_than" && f > p.bound) || (p.op == "less_than" && f < p.bound)
			}
		}
	}
	return ok != p.negate
}
