package pdl

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"
	"unicode/utf8"
)

// EqualJSON reports whether a and b, each exactly one JSON value with
// optional surrounding white space, hold the same data as DecodeJSON decodes
// it: object key order aside, numbers compared as written. ok is false when
// either is not valid JSON. Comparing the canonical re-encodings (sorted
// keys) of the two decoded values gives the same answer; EqualJSON mostly
// compares the texts in place without decoding them.
func EqualJSON(a, b []byte) (equal, ok bool) {
	// Only space, tab, LF and CR surround JSON (bytes.TrimSpace would take \v too).
	a, b = bytes.Trim(a, " \t\r\n"), bytes.Trim(b, " \t\r\n")
	if !validJSON(a) || !validJSON(b) {
		return false, false
	}
	st := eqStates.Get().(*eqState)
	eq, undecided := st.equal(a, b), st.undecided
	clear(st.members[:cap(st.members)]) // drop references to a and b
	st.members, st.undecided = st.members[:0], false
	eqStates.Put(st)
	if !undecided {
		return eq, true
	}
	av, _ := DecodeJSON(a)
	bv, _ := DecodeJSON(b)
	return equalDecoded(av, bv), true
}

// Valid is json.Valid: whether data is exactly one JSON value with optional
// surrounding white space (nested at most as deep as encoding/json allows).
func Valid(data []byte) bool {
	p := jsonParser{data: data}
	p.ws()
	if _, ok := p.value(0, false); !ok {
		return false
	}
	p.ws()
	return p.pos == len(data)
}

// ValueEnd returns the index just past the valid JSON value that starts at
// data[i] (no white space before it is skipped), or -1 when none starts
// there (nested at most as deep as encoding/json allows).
func ValueEnd(data []byte, i int) int {
	if i < 0 || i >= len(data) {
		return -1
	}
	p := jsonParser{data: data, pos: i}
	if _, ok := p.value(0, false); !ok {
		return -1
	}
	return p.pos
}

func validJSON(data []byte) bool {
	p := jsonParser{data: data}
	if _, ok := p.value(0, false); !ok {
		return false
	}
	p.ws()
	return p.pos == len(data)
}

// eqState compares valid JSON texts in place. It gives up (undecided) on what
// only decoding settles: strings with escapes or invalid UTF-8, and objects
// with a repeated key.
type eqState struct {
	members   []memberSpan // stack of the objects being compared
	undecided bool
	depth     int // arrays and objects entered
}

// maxEqualDepth bounds the nesting EqualJSON compares in place: each level
// rescans the values below it, so deeper texts are left to decoding, whose
// cost does not grow with the depth.
const maxEqualDepth = 32

type memberSpan struct{ key, val []byte }

var eqStates = sync.Pool{New: func() any { return &eqState{members: make([]memberSpan, 0, 32)} }}

// equal compares two valid values without surrounding white space.
func (st *eqState) equal(a, b []byte) bool {
	if st.undecided {
		return false
	}
	if bytes.Equal(a, b) {
		return true
	}
	if a[0] == '[' || a[0] == '{' {
		if st.depth == maxEqualDepth {
			st.undecided = true
			return false
		}
		st.depth++
		defer func() { st.depth-- }()
	}
	switch a[0] {
	case '"':
		if b[0] != '"' {
			return false
		}
		ab, bb := a[1:len(a)-1], b[1:len(b)-1]
		if !plainString(ab) || !plainString(bb) {
			st.undecided = true
		}
		return false // equal plain strings are equal bytes
	case '[':
		if b[0] != '[' {
			return false
		}
		pa, pb := jsonParser{data: a, pos: 1}, jsonParser{data: b, pos: 1}
		for {
			ea, aok := pa.next(']')
			eb, bok := pb.next(']')
			if aok != bok {
				return false
			}
			if !aok {
				return true
			}
			if !st.equal(ea, eb) {
				return false
			}
		}
	case '{':
		if b[0] != '{' {
			return false
		}
		base := len(st.members)
		na := st.collect(a)
		nb := st.collect(b)
		defer func() { st.members = st.members[:base] }()
		if st.undecided || na != nb {
			return false
		}
		for i := range na {
			ma, mb := st.members[base+i], st.members[base+na+i]
			if !bytes.Equal(ma.key, mb.key) {
				return false
			}
		}
		for i := range na {
			if !st.equal(st.members[base+i].val, st.members[base+na+i].val) {
				return false
			}
		}
		return true
	}
	return false // numbers and literals: equal only as the same text
}

// collect pushes the members of object text obj, sorted by key, and returns
// how many there are; a repeated or escaped key makes st undecided.
func (st *eqState) collect(obj []byte) int {
	base := len(st.members)
	p := jsonParser{data: obj, pos: 1}
	for {
		p.ws()
		if p.data[p.pos] == '}' {
			break
		}
		if p.data[p.pos] == ',' {
			p.pos++
			p.ws()
		}
		start := p.pos
		p.skipStr()
		key := obj[start+1 : p.pos-1]
		if !plainString(key) {
			st.undecided = true
		}
		p.ws()
		p.pos++ // :
		p.ws()
		vs := p.pos
		p.value(1, false)
		st.members = append(st.members, memberSpan{key: key, val: obj[vs:p.pos]})
	}
	ms := st.members[base:]
	slices.SortFunc(ms, func(x, y memberSpan) int { return bytes.Compare(x.key, y.key) })
	for i := 1; i < len(ms); i++ {
		if bytes.Equal(ms[i-1].key, ms[i].key) {
			st.undecided = true
		}
	}
	return len(ms)
}

// next returns the next element of the array whose '[' p has passed, or
// false at its end.
func (p *jsonParser) next(end byte) ([]byte, bool) {
	p.ws()
	if p.data[p.pos] == end {
		return nil, false
	}
	if p.data[p.pos] == ',' {
		p.pos++
		p.ws()
	}
	start := p.pos
	p.value(1, false)
	return p.data[start:p.pos], true
}

// plainString reports a string literal body that is its own decoding.
func plainString(body []byte) bool {
	return bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body)
}

// equalDecoded reports whether two values decoded by DecodeJSON are the same
// data.
func equalDecoded(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equalDecoded(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalDecoded(x[i], y[i]) {
				return false
			}
		}
		return true
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	return false
}
