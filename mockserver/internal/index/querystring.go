package index

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

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

// word returns the raw text (escapes kept) of the term at p.i without
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

// query reads clauses up to a ")" or the end (Lucene's Query production),
// each on field unless it names its own.
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
