package index

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// score scores d against q: the flat terms' score (see terms.score) or the
// tree's (see node). ok is false when d does not match.
func (q query) score(d *searchDoc) (score float64, matched []MatchedField, ok bool) {
	if q.tree == nil {
		return q.flat.score(d)
	}
	e := evalDoc{d: d}
	score, ok = e.node(q.tree)
	if !ok {
		return 0, nil, false
	}
	return score, e.matched, true
}

// evalDoc evaluates a query tree on one document, collecting the fields
// its matching terms matched (not those of excluded or failed clauses).
type evalDoc struct {
	d       *searchDoc
	names   []string // the document's default-query fields, by name
	named   bool
	matched []MatchedField
}

func (e *evalDoc) node(n *node) (float64, bool) {
	mark := len(e.matched)
	s, ok := e.eval(n)
	if !ok {
		e.matched = e.matched[:mark]
		return 0, false
	}
	if n.boost != 0 {
		s *= n.boost
	}
	return s, true
}

func (e *evalDoc) eval(n *node) (float64, bool) {
	switch {
	case n.all:
		return 1, true
	case n.leaf != nil:
		return e.leaf(n.leaf)
	case len(n.clauses) == 0: // every term analyzed away (`""`): nothing
		return 0, false
	}
	score := 0.0
	for _, c := range n.clauses {
		if c.occur == occurMust {
			s, ok := e.node(c.q)
			if !ok {
				return 0, false
			}
			score += s
		}
	}
	for _, c := range n.clauses {
		if c.occur == occurNot {
			mark := len(e.matched)
			_, ok := e.node(c.q)
			e.matched = e.matched[:mark]
			if ok {
				return 0, false
			}
		}
	}
	must, should, anyShould := false, false, false
	for _, c := range n.clauses {
		switch c.occur {
		case occurMust:
			must = true
		case occurShould:
			should = true
			if s, ok := e.node(c.q); ok {
				anyShould = true
				score += s
			}
		}
	}
	if !must && should && !anyShould {
		return 0, false
	}
	if score == 0 {
		score = 1
	}
	return score, true
}

// leaf scores one term as terms.score scores a distinct term: the boost of
// every field it matches, doubled when the value equals the term.
func (e *evalDoc) leaf(t *term) (float64, bool) {
	var one [1]string
	fields := one[:]
	one[0] = t.field
	if t.field == "" {
		if !e.named {
			e.named = true
			for k := range e.d.fields {
				if fi, ok := fieldInfoOf(k); ok && fi.Default {
					e.names = append(e.names, k)
				}
			}
			slices.Sort(e.names)
		}
		fields = e.names
	}
	score, found := 0.0, false
	for _, k := range fields {
		w := 1.0
		if fi, ok := fieldInfoOf(k); ok {
			w = fi.Boost
		}
		for _, v := range e.d.fields[k] {
			lv := strings.ToLower(v)
			if !t.matches(lv) {
				continue
			}
			if t.kind == kindText && lv == t.text {
				w *= 2
			}
			score += w
			found = true
			e.matched = append(e.matched, MatchedField{Name: k, Value: v})
			break
		}
	}
	return score, found
}

// matchesKind matches the lower-case value lv against a term that is not
// a text term.
func (t term) matchesKind(lv string) bool {
	switch t.kind {
	case kindExists:
		return true
	case kindRange:
		return t.rng.contains(lv)
	case kindFuzzy:
		if withinEdits(lv, t.text, t.edits) {
			return true
		}
		for _, w := range strings.Fields(lv) {
			if withinEdits(w, t.text, t.edits) {
				return true
			}
		}
		return false
	case kindPhrase:
		return strings.Contains(lv, t.text) || nearWords(strings.Fields(lv), t.words, t.slop)
	}
	return false
}

// nearWords reports whether words occur in ws in order with at most slop
// other words between them in all.
func nearWords(ws, words []string, slop int) bool {
	if len(words) == 0 {
		return false
	}
	for i, w := range ws {
		if w != words[0] {
			continue
		}
		gaps, j := 0, i+1
		k := 1
		for ; k < len(words) && j < len(ws); j++ {
			if ws[j] == words[k] {
				k++
			} else if gaps++; gaps > slop {
				break
			}
		}
		if k == len(words) {
			return true
		}
	}
	return false
}

// withinEdits reports whether a and b are at most n edits apart (Damerau's
// distance: insertions, deletions, substitutions and transpositions of
// adjacent characters, as Lucene's fuzzy query counts them).
func withinEdits(a, b string, n int) bool {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > n || -d > n {
		return false
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			best = min(best, cur[j])
		}
		if best > n {
			return false
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)] <= n
}

// valueRange is a range of values: lo and hi ("*" open), each included or
// not. Values compare as numbers when both are numbers, else as text.
type valueRange struct {
	lo, hi         string
	loIncl, hiIncl bool
}

func (r *valueRange) contains(v string) bool {
	if r.lo != "*" {
		if c := compareValues(v, r.lo); c < 0 || (c == 0 && !r.loIncl) {
			return false
		}
	}
	if r.hi != "*" {
		if c := compareValues(v, r.hi); c > 0 || (c == 0 && !r.hiIncl) {
			return false
		}
	}
	return true
}

func compareValues(a, b string) int {
	if fa, err := strconv.ParseFloat(a, 64); err == nil {
		if fb, err := strconv.ParseFloat(b, 64); err == nil {
			return cmp.Compare(fa, fb)
		}
	}
	return strings.Compare(a, b)
}
