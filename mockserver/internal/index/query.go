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
// set), in the default-query fields or, with field set, in that field.
type term struct {
	text  string
	field string
	glob  *regexp.Regexp
}

type terms struct {
	distinct []term
	order    []int
}

// queryTerms splits a query into lower-case terms, every one of which must
// match. Leading colons are dropped, as DataHub's query builder does.
//
// A free-text query (structured false) is split on white space; "\/" reads
// as "/" and the '*' at a term's ends are dropped, as DataHub's resolvers
// and its simple query leave them.
//
// A structured query (structured true, or a text starting with "\/q ") is
// read as the Elasticsearch query_string DataHub sends for it, with AND as
// the default operator:
//   - field:value restricts a term to one index field (any field, not only
//     the default-query ones);
//   - a backslash escapes the next character ("entities\.x" is the text
//     "entities.x"; "\*" a literal star);
//   - an unescaped '*' (any run of characters) or '?' (one character) makes
//     the term a wildcard pattern, matched against a whole value or one of
//     its words;
//   - "quoted text" is one term, spaces included;
//   - the operator AND (or &&) between terms is the default and is skipped.
func queryTerms(text string, structured bool) terms {
	text = strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(text, structuredPrefix); ok {
		text, structured = rest, true
	}
	text = strings.TrimLeft(text, ":")
	var out terms
	seen := map[string]int{}
	add := func(t term) {
		key := t.field + "\x00" + t.text
		if t.glob != nil {
			key += "\x00glob"
		}
		i, ok := seen[key]
		if !ok {
			i = len(out.distinct)
			seen[key] = i
			out.distinct = append(out.distinct, t)
		}
		out.order = append(out.order, i)
	}
	if !structured {
		text = strings.ReplaceAll(text, `\/`, "/")
		for _, t := range strings.Fields(strings.ToLower(text)) {
			if t = strings.Trim(t, "*"); t != "" {
				add(term{text: t})
			}
		}
		return out
	}
	for _, tok := range splitStructured(text) {
		if tok == "AND" || tok == "&&" {
			continue
		}
		if t, ok := structuredTerm(tok); ok {
			add(t)
		}
	}
	return out
}

// splitStructured splits a query_string on white space outside quotes and
// escapes, keeping quotes and backslashes in the tokens.
func splitStructured(s string) []string {
	var toks []string
	var b strings.Builder
	quoted, escaped := false, false
	flush := func() {
		if b.Len() > 0 {
			toks = append(toks, b.String())
			b.Reset()
		}
	}
	for _, r := range s {
		switch {
		case escaped:
			escaped = false
		case r == '\\':
			escaped = true
		case r == '"':
			quoted = !quoted
		case !quoted && (r == ' ' || r == '\t' || r == '\n' || r == '\r'):
			flush()
			continue
		}
		b.WriteRune(r)
	}
	flush()
	return toks
}

// fieldName is the form of a query_string field name the mock reads.
var fieldName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)

// structuredTerm reads one query_string token: an optional field, then a
// quoted phrase or a value with escapes and wildcards.
func structuredTerm(tok string) (term, bool) {
	var t term
	if i := strings.IndexByte(tok, ':'); i > 0 && fieldName.MatchString(tok[:i]) {
		t.field, tok = tok[:i], tok[i+1:]
	}
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
	if t.glob == nil {
		return strings.Contains(lv, t.text)
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
