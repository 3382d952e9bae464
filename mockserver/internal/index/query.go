package index

import (
	"regexp"
	"slices"
	"strings"
)

// structuredPrefix starts a query that DataHub runs as a structured query
// whatever the search's mode (SearchQueryBuilder's STRUCTURED_QUERY_PREFIX).
const structuredPrefix = `\/q `

// term is one term of a query: lower-case text matched as a substring of
// a value (glob nil) or a whole-word or whole-value wildcard pattern (glob
// set), in the default-query fields or, with field set, in that field; or,
// by kind, a fuzzy word, a phrase with slop, a range of values or a
// field's existence.
type term struct {
	text  string
	field string
	glob  *regexp.Regexp
	kind  termKind
	edits int         // kindFuzzy: the most edits
	words []string    // kindPhrase: the phrase's words
	slop  int         // kindPhrase: the most words between them
	rng   *valueRange // kindRange
}

// termKind is what a term matches.
type termKind uint8

const (
	kindText   termKind = iota // text as a substring, or glob
	kindFuzzy                  // a word or value within edits of text
	kindPhrase                 // words in order, slop words between at most
	kindRange                  // a value in rng
	kindExists                 // any value of field
)

// terms are a free-text query's terms: the distinct ones, in the order
// they first occur, and for every occurrence in the query the index of its
// distinct term. None matches everything.
type terms struct {
	distinct []term
	order    []int
}

// add appends t to ts's order, and to its distinct terms unless seen (by
// key) holds it already.
func (ts *terms) add(seen map[string]int, key string, t term) {
	i, ok := seen[key]
	if !ok {
		i = len(ts.distinct)
		seen[key] = i
		ts.distinct = append(ts.distinct, t)
	}
	ts.order = append(ts.order, i)
}

// queryTerms splits a free-text query with no operator (its structured
// prefix and leading colons gone) into lower-case terms, every one of
// which must match (see parseQuery). It is split on white space; "\/"
// reads as "/" and the '*' at a term's ends are dropped, as DataHub's
// resolvers and its simple query leave them.
func queryTerms(text string) terms {
	var out terms
	seen := map[string]int{}
	add := func(t term) { out.add(seen, t.field+"\x00"+t.text, t) }
	text = strings.ReplaceAll(text, `\/`, "/")
	for _, t := range strings.Fields(strings.ToLower(text)) {
		if t = strings.Trim(t, "*"); t != "" {
			add(term{text: t})
		}
	}
	return out
}

// valueTerm reads one query_string value (raw, escapes in place) on
// field: a quoted phrase or a value with escapes and wildcards. ok is
// false for a value that is empty or all wildcards on the default fields.
func valueTerm(field, tok string) (term, bool) {
	t := term{field: field}
	if len(tok) >= 2 && tok[0] == '"' && tok[len(tok)-1] == '"' {
		t.text = strings.ToLower(unescape(tok[1 : len(tok)-1]))
		return t, t.text != ""
	}
	var lit, pat strings.Builder
	wild, escaped := false, false
	for _, r := range tok {
		switch {
		case escaped:
			escaped = false
			lit.WriteRune(r)
			pat.WriteString(regexp.QuoteMeta(string(r)))
		case r == '\\':
			escaped = true
		case r == '*':
			wild = true
			pat.WriteString(".*")
		case r == '?':
			wild = true
			pat.WriteString(".")
		default:
			lit.WriteRune(r)
			pat.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	if !wild {
		t.text = strings.ToLower(lit.String())
		return t, t.text != ""
	}
	if lit.Len() == 0 && t.field == "" {
		return t, false // "*": every document
	}
	re, err := regexp.Compile("^(?s:" + strings.ToLower(pat.String()) + ")$")
	if err != nil {
		return t, false
	}
	t.text, t.glob = strings.ToLower(lit.String()), re
	return t, true
}

// unescape drops the backslash of each escaped character.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	escaped := false
	for _, r := range s {
		if !escaped && r == '\\' {
			escaped = true
			continue
		}
		escaped = false
		b.WriteRune(r)
	}
	return b.String()
}

// matches reports whether the lower-case value lv matches t.
func (t term) matches(lv string) bool {
	if t.kind == kindText && t.glob == nil {
		return strings.Contains(lv, t.text)
	}
	if t.kind != kindText {
		return t.matchesKind(lv)
	}
	if t.glob.MatchString(lv) {
		return true
	}
	for _, w := range strings.Fields(lv) {
		if t.glob.MatchString(w) {
			return true
		}
	}
	return false
}

// score scores d against the terms. The mock's score: with no terms, 1;
// otherwise every term must match (case-insensitive) some value of a
// default-query field, or of its own field, and each occurrence of a term
// in the query adds the boost of every field (by name) it matches, doubled
// when the value equals the term. matched holds each such field and its
// first matching value, once per distinct term. ok is false when some term
// matches nothing.
func (ts terms) score(d *searchDoc) (score float64, matched []MatchedField, ok bool) {
	if len(ts.order) == 0 {
		return 1, nil, true
	}
	var names []string
	// weights are, per distinct term, the boost each field it matched adds,
	// in field order, added again for every occurrence of the term.
	weights := make([][]float64, len(ts.distinct))
	for i, t := range ts.distinct {
		fields := []string{t.field}
		if t.field == "" {
			if names == nil {
				names = make([]string, 0, len(d.fields))
				for k := range d.fields {
					if fi, ok := fieldInfoOf(k); ok && fi.Default {
						names = append(names, k)
					}
				}
				slices.Sort(names)
			}
			fields = names
		}
		for _, k := range fields {
			for _, v := range d.fields[k] {
				lv := strings.ToLower(v)
				if !t.matches(lv) {
					continue
				}
				w := 1.0
				if fi, ok := fieldInfoOf(k); ok {
					w = fi.Boost
				}
				if lv == t.text {
					w *= 2
				}
				weights[i] = append(weights[i], w)
				matched = append(matched, MatchedField{Name: k, Value: v})
				break
			}
		}
		if len(weights[i]) == 0 {
			return 0, nil, false
		}
	}
	for _, i := range ts.order {
		for _, w := range weights[i] {
			score += w
		}
	}
	return score, matched, true
}
