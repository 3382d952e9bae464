package index

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Conditions of a [Criterion], DataHub's Condition enum. An empty
// condition is EQUAL.
const (
	CondEqual          = "EQUAL"
	CondIEqual         = "IEQUAL"
	CondIn             = "IN"
	CondContain        = "CONTAIN"
	CondStartWith      = "START_WITH"
	CondEndWith        = "END_WITH"
	CondExists         = "EXISTS"
	CondIsNull         = "IS_NULL"
	CondGreater        = "GREATER_THAN"
	CondGreaterOrEqual = "GREATER_THAN_OR_EQUAL_TO"
	CondLess           = "LESS_THAN"
	CondLessOrEqual    = "LESS_THAN_OR_EQUAL_TO"
	CondDescendants    = "DESCENDANTS_INCL"
	CondAncestors      = "ANCESTORS_INCL"
	CondRelated        = "RELATED_INCL"
)

// Criterion is one condition on an index field, DataHub's Criterion.
type Criterion struct {
	// Field is the index field; a ".keyword" suffix is ignored and
	// "_entityType" is the entity type (values like DATASET, dataset or
	// DATA_FLOW: underscores dropped, case ignored).
	Field     string
	Condition string
	Values    []string
	Negated   bool
	// set holds Values for an EQUAL or IN test of many values (see
	// Filter.prepared); nil: they are tested one by one.
	set map[string]struct{}
}

// setFrom is the number of values from which an EQUAL or IN criterion is
// tested through a set, in time independent of the number of values.
const setFrom = 16

// prepared returns a copy of f whose EQUAL and IN criteria of many values
// test them through a set, so that a document costs O(its values) however
// many values a criterion lists.
func (f Filter) prepared() Filter {
	out := make(Filter, len(f))
	for i, clause := range f {
		out[i] = slices.Clone(clause)
		for j := range out[i] {
			c := &out[i][j]
			eq := c.Condition == "" || c.Condition == CondEqual || c.Condition == CondIn
			if !eq || len(c.Values) < setFrom || c.field() == "_entityType" || c.field() == "_index" {
				continue
			}
			c.set = make(map[string]struct{}, len(c.Values))
			for _, v := range c.Values {
				c.set[v] = struct{}{}
			}
		}
	}
	return out
}

// Filter is a disjunction of conjunctions (DataHub's Filter.or): a
// document matches when it matches every criterion of some clause. An
// empty filter matches every document.
type Filter [][]Criterion

// field is the criterion's field without ".keyword".
func (c Criterion) field() string { return strings.TrimSuffix(c.Field, ".keyword") }

// check refuses a criterion DataHub's query builder would refuse.
func (c Criterion) check() error {
	switch c.Condition {
	case "", CondEqual, CondIEqual, CondIn, CondContain, CondStartWith, CondEndWith, CondExists, CondIsNull,
		CondGreater, CondGreaterOrEqual, CondLess, CondLessOrEqual, CondDescendants, CondAncestors, CondRelated:
	default:
		return fmt.Errorf("unsupported condition %q for field %s", c.Condition, c.Field)
	}
	if c.Field == "" {
		return fmt.Errorf("a filter criterion has no field")
	}
	return nil
}

// used reports whether the criterion takes part in the query: one with no
// values is dropped unless its condition is EXISTS or IS_NULL, as DataHub's
// ESUtils does.
func (c Criterion) used() bool {
	return len(c.Values) > 0 || c.Condition == CondExists || c.Condition == CondIsNull
}

// normType is an entity type as DataHub turns a value into an index name:
// underscores dropped, lower-cased.
func normType(t string) string { return strings.ToLower(strings.ReplaceAll(t, "_", "")) }

// match reports whether document d satisfies c.
func (c Criterion) match(d *searchDoc) bool {
	var have []string
	if c.field() == "_entityType" || c.field() == "_index" {
		have = []string{normType(d.entity)}
	} else {
		have = d.fields[c.field()]
	}
	return c.matchValues(have) != c.Negated
}

func (c Criterion) matchValues(have []string) bool {
	switch c.Condition {
	case CondExists:
		return len(have) > 0
	case CondIsNull:
		return len(have) == 0
	case CondGreater, CondGreaterOrEqual, CondLess, CondLessOrEqual:
		for _, h := range have {
			if compareOK(c.Condition, h, c.Values[0]) {
				return true
			}
		}
		return false
	}
	if c.set != nil {
		for _, h := range have {
			if _, ok := c.set[h]; ok {
				return true
			}
		}
		return false
	}
	entityType := c.field() == "_entityType" || c.field() == "_index"
	for _, h := range have {
		for _, v := range c.Values {
			if entityType {
				v = normType(v)
			}
			if valueMatch(c.Condition, h, v) {
				return true
			}
		}
	}
	return false
}

// valueMatch is one value test. CONTAIN, START_WITH and END_WITH ignore case
// as DataHub's case-insensitive wildcard queries on the keyword field do.
func valueMatch(cond, have, want string) bool {
	switch cond {
	case CondIEqual:
		return strings.EqualFold(have, want)
	case CondContain:
		return strings.Contains(strings.ToLower(have), strings.ToLower(want))
	case CondStartWith:
		return strings.HasPrefix(strings.ToLower(have), strings.ToLower(want))
	case CondEndWith:
		return strings.HasSuffix(strings.ToLower(have), strings.ToLower(want))
	default: // EQUAL, IN and the hierarchy conditions on a flat index
		return have == want
	}
}

// compareOK is a range test: numerically when both sides are numbers,
// else byte-wise.
func compareOK(cond, have, want string) bool {
	var c int
	hf, herr := strconv.ParseFloat(have, 64)
	wf, werr := strconv.ParseFloat(want, 64)
	switch {
	case herr == nil && werr == nil:
		switch {
		case hf < wf:
			c = -1
		case hf > wf:
			c = 1
		}
	default:
		c = strings.Compare(have, want)
	}
	switch cond {
	case CondGreater:
		return c > 0
	case CondGreaterOrEqual:
		return c >= 0
	case CondLess:
		return c < 0
	default:
		return c <= 0
	}
}

// matchClause reports whether d satisfies every used criterion of clause.
func matchClause(clause []Criterion, d *searchDoc) bool {
	for _, c := range clause {
		if c.used() && !c.match(d) {
			return false
		}
	}
	return true
}

// Match reports whether d satisfies the filter.
func (f Filter) match(d *searchDoc) bool {
	if len(f) == 0 {
		return true
	}
	for _, clause := range f {
		if matchClause(clause, d) {
			return true
		}
	}
	return false
}

// namesRemoved reports whether any criterion names the removed field, which
// lifts the default exclusion of soft-deleted entities.
func (f Filter) namesRemoved() bool {
	for _, clause := range f {
		for _, c := range clause {
			if c.field() == "removed" {
				return true
			}
		}
	}
	return false
}

// candidates returns the URNs of s that may match clause, from the postings
// of its most selective positive EQUAL or IN criterion; all is true when the
// clause has none and every document must be tested.
func (s *searchIdx) candidates(clause []Criterion) (set []map[string]struct{}, all bool) {
	best, bestN := -1, 0
	for i, c := range clause {
		if c.Negated || len(c.Values) == 0 || (c.Condition != "" && c.Condition != CondEqual && c.Condition != CondIn) {
			continue
		}
		if c.field() == "_entityType" || c.field() == "_index" {
			ok := false
			for _, v := range c.Values {
				ok = ok || normType(v) == normType(s.entity)
			}
			if !ok {
				return nil, false // the clause excludes this index
			}
			continue
		}
		n := 0
		for _, v := range c.Values {
			n += len(s.post[c.field()][v])
		}
		if best < 0 || n < bestN {
			best, bestN = i, n
		}
	}
	if best < 0 {
		return nil, true
	}
	for _, v := range clause[best].Values {
		if p := s.post[clause[best].field()][v]; len(p) > 0 {
			set = append(set, p)
		}
	}
	return set, false
}
