package index

import (
	"strconv"
	"strings"
)

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
