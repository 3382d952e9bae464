package index

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
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
// a prefix, "a~1" a fuzzy term (~ alone: 2 edits), "\"a b\"" a phrase
// ("\"a b\"~2": with up to 2 words between), "\x" escapes x. Operators
// apply left to right ("a | b c" is "(a | b) c"). The words AND, OR and NOT
// are not operators there but English stop words, dropped as DataHub's
// analyzers drop every stop word (unless the query has nothing else).
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
// query it cannot parse fails with [ErrQuerySyntax].
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
		i, ok := seen[key]
		if !ok {
			i = len(out.distinct)
			seen[key] = i
			out.distinct = append(out.distinct, t)
		}
		out.order = append(out.order, i)
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

// simpleParser reads a simple_query_string as Lucene's SimpleQueryParser
// does, with every operator enabled and AND as the default operator.
type simpleParser struct {
	s        string
	keepStop bool
	dropped  bool // a stop word was dropped
}

type simpleState struct {
	i, end    int
	top       *node
	cur, prev occur
	not       int
}

func (p *simpleParser) parse() *node {
	st := simpleState{end: len(p.s), cur: occurUnset, prev: occurUnset}
	p.sub(&st)
	return st.top
}

func (p *simpleParser) sub(st *simpleState) {
	for st.i < st.end {
		switch c := p.s[st.i]; c {
		case '(':
			p.subQuery(st)
		case ')':
			st.i++ // extraneous: ignored
		case '"':
			p.phrase(st)
		case '+', '|':
			if st.cur == occurUnset && st.top != nil {
				st.cur = occurMust
				if c == '|' {
					st.cur = occurShould
				}
			}
			st.i++
		case '-':
			st.not++
			st.i++
			continue
		case ' ', '\t', '\n', '\r':
			st.i++
		default:
			p.token(st)
		}
		st.not = 0
	}
}

// build adds branch to the state's tree with the current operator, as
// SimpleQueryParser.buildQueryTree does.
func (p *simpleParser) build(st *simpleState, branch *node) {
	if branch == nil {
		return
	}
	if st.not%2 == 1 {
		branch = &node{clauses: []clause{{occurNot, branch}, {occurShould, allNode}}}
	}
	if st.top == nil {
		st.top = branch
	} else {
		if st.cur == occurUnset {
			st.cur = occurMust
		}
		if st.prev != st.cur {
			st.top = &node{clauses: []clause{{st.cur, st.top}}}
		}
		st.top.clauses = append(st.top.clauses, clause{st.cur, branch})
		st.prev = st.cur
	}
	st.cur = occurUnset
}

func (p *simpleParser) subQuery(st *simpleState) {
	st.i++
	start := st.i
	depth := 1
	escaped := false
	for ; st.i < st.end; st.i++ {
		if escaped {
			escaped = false
			continue
		}
		switch p.s[st.i] {
		case '\\':
			escaped = true
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	switch {
	case st.i >= st.end: // never closed: the "(" is ignored
		st.i = start
	case st.i == start: // "()"
		st.cur = occurUnset
		st.i++
	default:
		sub := simpleState{i: start, end: st.i, cur: occurUnset, prev: occurUnset}
		p.sub(&sub)
		p.build(st, sub.top)
		st.i++
	}
}

func (p *simpleParser) phrase(st *simpleState) {
	st.i++
	var b strings.Builder
	escaped := false
	slop := 0
	for st.i < st.end {
		c := p.s[st.i]
		if !escaped && c == '\\' {
			escaped = true
			st.i++
			continue
		}
		if !escaped && c == '"' {
			st.i++
			if st.i < st.end && p.s[st.i] == '~' {
				slop = p.fuzziness(st)
			}
			break
		}
		escaped = false
		b.WriteByte(c)
		st.i++
	}
	p.build(st, phraseNode(b.String(), "", slop))
}

// tokenEnd reports whether c ends a simple_query_string token.
func tokenEnd(c byte) bool {
	switch c {
	case '"', '|', '+', '(', ')', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// fuzziness reads "~N" at st.i (SimpleQueryParser.parseFuzziness): no N is
// 2, an N that is not a number 0.
func (p *simpleParser) fuzziness(st *simpleState) int {
	st.i++ // the '~'
	start := st.i
	for st.i < st.end && !tokenEnd(p.s[st.i]) {
		st.i++
	}
	s := p.s[start:st.i]
	if s == "" {
		return 2
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

func (p *simpleParser) token(st *simpleState) {
	var b strings.Builder
	escaped := false
	fuzzy := 0
	for st.i < st.end {
		c := p.s[st.i]
		if !escaped {
			if c == '\\' {
				escaped = true
				st.i++
				continue
			}
			if tokenEnd(c) {
				break
			}
			if b.Len() > 0 && c == '~' {
				fuzzy = p.fuzziness(st)
				break
			}
		}
		escaped = false
		b.WriteByte(c)
		st.i++
	}
	if b.Len() == 0 {
		return
	}
	text := strings.ToLower(b.String())
	if fuzzy > 0 {
		p.build(st, &node{leaf: &term{kind: kindFuzzy, text: text, edits: min(fuzzy, 2)}})
		return
	}
	// A prefix ("a*") and a default term both match as a substring.
	if !p.keepStop && stopWords[text] {
		p.dropped = true
		return
	}
	p.build(st, wordsNode(text))
}

// wordsNode is a free-text token: the text between its stars, each part a
// term (an analyzer drops the stars), or everything for stars alone.
func wordsNode(text string) *node {
	var parts []*node
	for part := range strings.SplitSeq(text, "*") {
		if part != "" {
			parts = append(parts, &node{leaf: &term{text: part}})
		}
	}
	switch len(parts) {
	case 0:
		return allNode
	case 1:
		return parts[0]
	}
	n := &node{}
	for _, q := range parts {
		n.clauses = append(n.clauses, clause{occurMust, q})
	}
	return n
}

// phraseNode is a quoted phrase: a substring, or with slop the phrase's
// words in order with at most slop other words between them.
func phraseNode(text, field string, slop int) *node {
	text = strings.ToLower(text)
	if strings.TrimSpace(text) == "" {
		return nil
	}
	t := &term{text: text, field: field}
	if slop > 0 {
		t.kind, t.words, t.slop = kindPhrase, strings.Fields(text), slop
	}
	return &node{leaf: t}
}

// qsParser reads an Elasticsearch query_string as Lucene's classic query
// parser does, with AND as the default operator.
type qsParser struct {
	s string
	i int
}

const (
	conjNone = iota
	conjAnd
	conjOr
)

const (
	modNone = iota
	modReq
	modNot
)

func (p *qsParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: Failed to parse query [%s]: "+format, append([]any{ErrQuerySyntax, p.s}, args...)...)
}

// encountered names what is at p.i, for an error.
func (p *qsParser) encountered() string {
	if p.i >= len(p.s) {
		return "<EOF>"
	}
	if w := p.word(); w != "" {
		return strconv.Quote(w)
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.i:])
	return strconv.Quote(string(r))
}

func (p *qsParser) parse() (*node, error) {
	n, err := p.query("", 0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.s) {
		return nil, p.errorf("Encountered %s at column %d", p.encountered(), p.i+1)
	}
	return n, nil
}

func (p *qsParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// stop reports whether c cannot be part of a term (Lucene's term
// characters, escapes aside).
func stop(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '(', ')', ':', '^', '[', ']', '"', '{', '}', '~', '/':
		return true
	}
	return false
}

// word returns the unescaped-agnostic raw text of the term at p.i without
// moving ("" when none starts there).
func (p *qsParser) word() string {
	j := p.i
	if j < len(p.s) && (p.s[j] == '+' || p.s[j] == '-' || p.s[j] == '!') {
		return ""
	}
	for j < len(p.s) {
		if p.s[j] == '\\' {
			j += 2
			continue
		}
		if stop(p.s[j]) {
			break
		}
		j++
	}
	return p.s[p.i:min(j, len(p.s))]
}

func (p *qsParser) query(field string, depth int) (*node, error) {
	var clauses []clause
	var first *node
	n := 0
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] == ')' {
			break
		}
		conj := conjNone
		if n > 0 {
			switch w := p.word(); w {
			case "AND", "&&":
				conj = conjAnd
				p.i += len(w)
			case "OR", "||":
				conj = conjOr
				p.i += len(w)
			}
		}
		mods := p.modifiers()
		q, err := p.clause(field, depth)
		if err != nil {
			return nil, err
		}
		clauses = addClause(clauses, conj, mods, q)
		if n == 0 && mods == modNone {
			first = q
		}
		n++
	}
	if n == 0 {
		return nil, p.errorf("Encountered %s at column %d", p.encountered(), p.i+1)
	}
	if n == 1 && first != nil {
		return first, nil
	}
	return &node{clauses: clauses}, nil
}

// addClause is QueryParserBase.addClause with AND as the default
// operator: AND makes the clause before required, OR makes it optional.
func addClause(clauses []clause, conj, mods int, q *node) []clause {
	if k := len(clauses) - 1; k >= 0 && clauses[k].occur != occurNot {
		switch conj {
		case conjAnd:
			clauses[k].occur = occurMust
		case conjOr:
			clauses[k].occur = occurShould
		}
	}
	if q == nil {
		return clauses
	}
	switch {
	case mods == modNot:
		return append(clauses, clause{occurNot, q})
	case conj == conjOr:
		return append(clauses, clause{occurShould, q})
	}
	return append(clauses, clause{occurMust, q})
}

func (p *qsParser) modifiers() int {
	p.space()
	if p.i >= len(p.s) {
		return modNone
	}
	switch p.s[p.i] {
	case '+':
		p.i++
		return modReq
	case '-', '!':
		p.i++
		return modNot
	}
	if p.word() == "NOT" {
		p.i += 3
		return modNot
	}
	return modNone
}

func (p *qsParser) clause(field string, depth int) (*node, error) {
	p.space()
	if w := p.word(); w != "" {
		save := p.i
		p.i += len(w)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ':' && w != "AND" && w != "OR" && w != "NOT" && w != "&&" && w != "||" {
			p.i++
			field = unescape(w)
			if field == "*" {
				field = ""
			}
			p.space()
		} else {
			p.i = save
		}
	}
	if p.i < len(p.s) && p.s[p.i] == '(' {
		p.i++
		q, err := p.query(field, depth+1)
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			return nil, p.errorf("Encountered %s at column %d, expected \")\"", p.encountered(), p.i+1)
		}
		p.i++
		return p.boost(q)
	}
	return p.term(field)
}

// boost reads an optional "^N" after a clause.
func (p *qsParser) boost(n *node) (*node, error) {
	if p.i >= len(p.s) || p.s[p.i] != '^' {
		return n, nil
	}
	p.i++
	v, ok := p.number()
	if !ok {
		return nil, p.errorf("Encountered %s at column %d, expected a boost", p.encountered(), p.i+1)
	}
	if n == nil || n.all {
		return n, nil
	}
	if n.leaf == nil && n.boost == 0 {
		return &node{clauses: n.clauses, boost: v}, nil
	}
	return &node{clauses: []clause{{occurMust, n}}, boost: v}, nil
}

// number reads an unsigned decimal number at p.i.
func (p *qsParser) number() (float64, bool) {
	j := p.i
	for j < len(p.s) && (p.s[j] >= '0' && p.s[j] <= '9' || p.s[j] == '.') {
		j++
	}
	v, err := strconv.ParseFloat(p.s[p.i:j], 64)
	if err != nil {
		return 0, false
	}
	p.i = j
	return v, true
}

// tilde reads an optional "~N" (fuzzy edits or phrase slop): ok false when
// there is none, n -1 for "~" alone.
func (p *qsParser) tilde() (n int, ok bool) {
	if p.i >= len(p.s) || p.s[p.i] != '~' {
		return 0, false
	}
	p.i++
	v, has := p.number()
	if !has {
		return -1, true
	}
	return int(v), true
}

func (p *qsParser) term(field string) (*node, error) {
	if p.i >= len(p.s) {
		return nil, p.errorf("Encountered <EOF> at column %d", p.i+1)
	}
	switch c := p.s[p.i]; c {
	case '"':
		text, err := p.quoted()
		if err != nil {
			return nil, err
		}
		slop, _ := p.tilde()
		return p.boost(phraseNode(text, field, max(slop, 0)))
	case '[', '{':
		return p.rangeTerm(field)
	case '/':
		end := p.i + 1
		for end < len(p.s) && p.s[end] != '/' {
			if p.s[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(p.s) {
			return nil, p.errorf("Lexical error at column %d: unterminated regular expression", len(p.s)+1)
		}
		src := p.s[p.i+1 : end]
		p.i = end + 1
		re, err := regexp.Compile("^(?s:" + strings.ToLower(src) + ")$")
		if err != nil {
			return nil, p.errorf("invalid regular expression /%s/", src)
		}
		return p.boost(&node{leaf: &term{field: field, glob: re}})
	}
	w := p.word()
	if field != "" { // a value may hold colons (the mock's leniency)
		j := p.i + len(w)
		for j < len(p.s) && p.s[j] == ':' {
			p2 := qsParser{s: p.s, i: j + 1}
			j = p2.i + len(p2.word())
		}
		w = p.s[p.i:j]
	}
	switch w {
	case "", "AND", "OR", "NOT", "&&", "||":
		return nil, p.errorf("Encountered %s at column %d", p.encountered(), p.i+1)
	}
	if strings.HasSuffix(w, `\`) && !strings.HasSuffix(w, `\\`) {
		return nil, p.errorf("Term can not end with escape character")
	}
	p.i += len(w)
	if edits, ok := p.tilde(); ok {
		if edits < 0 || edits > 2 {
			edits = 2
		}
		return p.boost(&node{leaf: &term{kind: kindFuzzy, field: field, text: strings.ToLower(unescape(w)), edits: edits}})
	}
	return p.boost(valueNode(field, w))
}

// quoted reads a quoted phrase at p.i, its escapes undone.
func (p *qsParser) quoted() (string, error) {
	var b strings.Builder
	for j := p.i + 1; j < len(p.s); j++ {
		switch p.s[j] {
		case '\\':
			if j+1 < len(p.s) {
				j++
				b.WriteByte(p.s[j])
			}
		case '"':
			p.i = j + 1
			return b.String(), nil
		default:
			b.WriteByte(p.s[j])
		}
	}
	return "", p.errorf("Lexical error at column %d: unterminated quoted phrase", len(p.s)+1)
}

func (p *qsParser) rangeTerm(field string) (*node, error) {
	r := &valueRange{loIncl: p.s[p.i] == '['}
	p.i++
	bound := func() (string, error) {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '"' {
			return p.quoted()
		}
		j := p.i
		for j < len(p.s) && !strings.ContainsRune(" \t\n\r]}", rune(p.s[j])) {
			j++
		}
		s := p.s[p.i:j]
		p.i = j
		if s == "" {
			return "", p.errorf("Encountered %s at column %d in a range", p.encountered(), p.i+1)
		}
		return unescape(s), nil
	}
	var err error
	if r.lo, err = bound(); err != nil {
		return nil, err
	}
	p.space()
	if !strings.HasPrefix(p.s[p.i:], "TO") {
		return nil, p.errorf("Encountered %s at column %d, expected \"TO\"", p.encountered(), p.i+1)
	}
	p.i += 2
	if r.hi, err = bound(); err != nil {
		return nil, err
	}
	p.space()
	if p.i >= len(p.s) || (p.s[p.i] != ']' && p.s[p.i] != '}') {
		return nil, p.errorf("Encountered %s at column %d, expected \"]\" or \"}\"", p.encountered(), p.i+1)
	}
	r.hiIncl = p.s[p.i] == ']'
	p.i++
	r.lo, r.hi = strings.ToLower(r.lo), strings.ToLower(r.hi)
	return p.boost(&node{leaf: &term{kind: kindRange, field: field, rng: r}})
}

// valueNode is one query_string term on field ("" the default fields):
// everything or a field's existence for "*", an existence query for
// "_exists_:f", a range for ">v", ">=v", "<v", "<=v", else a substring or
// wildcard term.
func valueNode(field, raw string) *node {
	if raw == "*" {
		if field == "" {
			return allNode
		}
		return &node{leaf: &term{kind: kindExists, field: field}}
	}
	if field == "_exists_" {
		return &node{leaf: &term{kind: kindExists, field: unescape(raw)}}
	}
	for _, op := range []string{">=", "<=", ">", "<"} {
		if v, ok := strings.CutPrefix(raw, op); ok && v != "" {
			r := &valueRange{lo: "*", hi: "*"}
			v = strings.ToLower(unescape(v))
			switch op {
			case ">=":
				r.lo, r.loIncl = v, true
			case ">":
				r.lo = v
			case "<=":
				r.hi, r.hiIncl = v, true
			case "<":
				r.hi = v
			}
			return &node{leaf: &term{kind: kindRange, field: field, rng: r}}
		}
	}
	t, ok := valueTerm(field, raw)
	if !ok {
		return allNode
	}
	return &node{leaf: &t}
}
