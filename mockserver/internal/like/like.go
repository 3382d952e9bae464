// Package like matches strings against SQL LIKE patterns (MySQL's: % any
// run of characters, _ exactly one character, \ escapes the next one)
// without compiling a regular expression, so that a pattern of any size
// costs time proportional to its length times the subject's, never a
// panic or an exponential blow-up. Runs of % are collapsed.
package like

import "strings"

// Pattern is a parsed SQL LIKE pattern.
type Pattern struct {
	// segs are the literal-and-underscore pieces between % wildcards.
	segs [][]token
	// anchoredStart and anchoredEnd report whether the pattern does not
	// begin or end with %.
	anchoredStart, anchoredEnd bool
	prefix                     string
}

// token is one character of a segment: a literal rune, or any rune (_).
type token struct {
	r   rune
	any bool
}

// Compile parses p.
func Compile(p string) *Pattern {
	pat := &Pattern{anchoredStart: true, anchoredEnd: true}
	var seg []token
	esc, wild, inPrefix := false, false, true
	var prefix strings.Builder
	for i, r := range p {
		wild = false
		switch {
		case esc:
			seg = append(seg, token{r: r})
			esc = false
		case r == '\\':
			esc, inPrefix = true, false
		case r == '%':
			wild, inPrefix = true, false
			if i == 0 {
				pat.anchoredStart = false
			}
			if len(seg) > 0 || len(pat.segs) == 0 {
				pat.segs = append(pat.segs, seg)
			}
			seg = nil
		case r == '_':
			inPrefix = false
			seg = append(seg, token{any: true})
		default:
			seg = append(seg, token{r: r})
		}
		if inPrefix {
			prefix.WriteRune(r)
		}
	}
	if esc { // a trailing backslash stands for itself
		seg = append(seg, token{r: '\\'})
	}
	pat.anchoredEnd = !wild
	pat.segs = append(pat.segs, seg)
	pat.prefix = prefix.String()
	return pat
}

// Prefix is the literal start of the pattern (before its first wildcard
// or escape): every matching string begins with it.
func (p *Pattern) Prefix() string { return p.prefix }

// Match reports whether s matches the whole pattern.
func (p *Pattern) Match(s string) bool {
	rs := []rune(s)
	segs := p.segs
	// A pattern without %: one segment that must cover s exactly.
	if len(segs) == 1 && p.anchoredStart && p.anchoredEnd {
		return len(rs) == len(segs[0]) && matchAt(segs[0], rs, 0)
	}
	pos := 0
	if p.anchoredStart {
		first := segs[0]
		if !matchAt(first, rs, 0) {
			return false
		}
		pos = len(first)
		segs = segs[1:]
	}
	var last []token
	if p.anchoredEnd && len(segs) > 0 {
		last, segs = segs[len(segs)-1], segs[:len(segs)-1]
	}
	// Every middle segment is found at its leftmost place: taking the
	// earliest match leaves the most room for the rest.
	for _, seg := range segs {
		found := false
		for ; pos+len(seg) <= len(rs); pos++ {
			if matchAt(seg, rs, pos) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
		pos += len(seg)
	}
	if p.anchoredEnd {
		start := len(rs) - len(last)
		return start >= pos && matchAt(last, rs, start)
	}
	return true
}

// matchAt reports whether seg matches rs at offset i.
func matchAt(seg []token, rs []rune, i int) bool {
	if i+len(seg) > len(rs) {
		return false
	}
	for j, t := range seg {
		if !t.any && rs[i+j] != t.r {
			return false
		}
	}
	return true
}
