package index

import (
	"errors"
	"strings"
)

// ErrQuerySyntax is a structured query that Elasticsearch's query_string
// cannot parse (an operator with no clause after it, an unclosed
// parenthesis, quote, range or regular expression, a trailing escape).
// DataHub does not check the syntax itself: Elasticsearch refuses the
// search and DataHub fails it as a server error ("Search query failed"),
// not a bad request, so it is not an [ErrBadQuery]. A free-text query
// never fails: simple_query_string ignores what it cannot read.
var ErrQuerySyntax = errors.New("search query failed")

// occur is how a clause of a boolean query counts (Lucene's Occur).
type occur uint8

const (
	occurMust occur = iota
	occurShould
	occurNot
	occurUnset // no operator yet (simple query parser state)
)

type clause struct {
	occur occur
	q     *node
}

// node is a parsed query: a term (leaf), everything (all), or a boolean
// query of clauses. A boolean query matches a document when every must
// clause does, no not clause does and, with no must clause, some should
// clause does; with only not clauses it matches every other document (as
// Elasticsearch completes a purely negative query). Its score is the sum of
// its matching must and should clauses' scores (1 when none adds any),
// times boost.
type node struct {
	leaf    *term
	all     bool
	clauses []clause
	boost   float64 // 0: 1
}

var allNode = &node{all: true}

// query is a parsed search text: flat terms that all must match (the
// common case, and the fast path), or a boolean tree.
type query struct {
	flat terms
	tree *node
}

// parseQuery reads a search text as DataHub has Elasticsearch read it.
//
// A free-text query (structured false: DataHub's fulltext flag) is a
// simple_query_string with AND as the default operator: "a b" needs both,
// "a | b" either, "-a" excludes a, "+" is AND, parentheses group, "a*" is
// a prefix, "a~1" a fuzzy term (~ alone: 2 edits), a quoted text a phrase
// (followed by "~2": with up to 2 words between), "\x" escapes x.
// Operators apply left to right ("a | b c" is "(a | b) c"). The words AND,
// OR and NOT are not operators there but English stop words, dropped as
// DataHub's analyzers drop every stop word (unless the query has nothing
// else).
// Nothing is a syntax error: a stray ")" or an unclosed "(" is ignored.
//
// A structured query (structured true, or a text starting with "\/q ") is
// a query_string with AND as the default operator: AND/&&, OR/||, NOT/!,
// "+" and "-" prefixes, parentheses (also after a field: "name:(a OR b)"),
// field:value on any index field, "_exists_:field", ranges
// ("field:[a TO b]", "{a TO b}", mixed, "*" open; ">", ">=", "<", "<="
// before a value), wildcards "*" and "?" anywhere in a term, regular
// expressions ("/ord.*/"), fuzzy terms "~N", phrases with slop, boosts
// "^N" and backslash escapes. Clauses combine as Lucene's classic parser
// combines them: "a AND b OR c" requires a, b and c become optional. A
// query it cannot parse fails with [ErrQuerySyntax]. Either way a text of
// "" or "*" matches everything.
func parseQuery(text string, structured bool) (query, error) {
	text = strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(text, structuredPrefix); ok {
		text, structured = rest, true
	}
	text = strings.TrimLeft(text, ":")
	if text == "" || text == "*" {
		return query{}, nil
	}
	if !structured && plainText(text) {
		return query{flat: queryTerms(text)}, nil
	}
	var n *node
	if structured {
		if strings.TrimSpace(text) == "" {
			return query{}, nil
		}
		p := qsParser{s: text}
		var err error
		if n, err = p.parse(); err != nil {
			return query{}, err
		}
	} else {
		p := simpleParser{s: text}
		n = p.parse()
		if n == nil && p.dropped {
			p = simpleParser{s: text, keepStop: true}
			n = p.parse()
		}
	}
	if n == nil || n.all {
		return query{}, nil
	}
	var flat terms
	if flatten(n, &flat, map[string]int{}) {
		return query{flat: flat}, nil
	}
	return query{tree: n}, nil
}

// plainText reports whether a free-text query has none of the operator
// characters of simple_query_string, nor a stop word: it then reads as
// before the parser existed, term by term.
func plainText(s string) bool {
	if strings.ContainsAny(s, `+|-"()~\`) {
		return false
	}
	for w := range strings.FieldsSeq(s) {
		w = strings.Trim(w, "*")
		if len(w) <= maxStopWord && stopWords[strings.ToLower(w)] {
			return false
		}
		if strings.Contains(w, "*") {
			return false
		}
	}
	return true
}

// flatten adds n's terms to out when n is a conjunction of plain terms
// (what the flat path scores the same way), and reports whether it was.
func flatten(n *node, out *terms, seen map[string]int) bool {
	if n.boost != 0 && n.boost != 1 {
		return false
	}
	if n.leaf != nil {
		t := *n.leaf
		if t.kind != kindText {
			return false
		}
		key := t.field + "\x00" + t.text
		if t.glob != nil {
			key += "\x00glob"
		}
		out.add(seen, key, t)
		return true
	}
	if n.all || len(n.clauses) == 0 {
		return false
	}
	for _, c := range n.clauses {
		if c.occur != occurMust || !flatten(c.q, out, seen) {
			return false
		}
	}
	return true
}

// maxStopWord is the length of the longest stop word.
const maxStopWord = 5

// stopWords are Lucene's English stop words, which DataHub's search
// analyzers (their "stop" filter) remove from a free-text query.
var stopWords = map[string]bool{"a": true, "an": true, "and": true, "are": true, "as": true, "at": true,
	"be": true, "but": true, "by": true, "for": true, "if": true, "in": true, "into": true, "is": true,
	"it": true, "no": true, "not": true, "of": true, "on": true, "or": true, "such": true, "that": true,
	"the": true, "their": true, "then": true, "there": true, "these": true, "they": true, "this": true,
	"to": true, "was": true, "will": true, "with": true}
