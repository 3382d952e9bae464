package pdl

// Outline is one valid JSON document together with the members of its
// objects and the elements of its arrays down to a nesting depth, found in
// the one pass that validates it, so that a reader walking those levels
// splits them without scanning their text again. The zero Outline is ready
// for Parse; an Outline can be parsed into again, reusing its memory.
type Outline struct {
	data    []byte
	top     []byte   // the document's value
	spans   []span   // the containers down to the depth, in document order
	members []Member // the objects' members, each object's together
	elems   [][]byte // the arrays' elements, each array's together
	mstack  []Member // the members of the open objects
	estack  [][]byte // the elements of the open arrays
	depth   int      // the deepest level recorded (1: the document's value)
	names   nameCache
}

// span is one container of an Outline: its text data[start:end] and its
// members (an object) or elements (an array) from first, n of them.
type span struct {
	start, end int
	first, n   int
	array      bool
}

// Parse validates data, one JSON value with optional surrounding white
// space, and records the members of its objects and the elements of its
// arrays at nesting levels 1 to depth (1: the value itself). It reports
// whether data is valid JSON, as Valid does; on false o holds no document.
func (o *Outline) Parse(data []byte, depth int) bool {
	o.data, o.depth = data, min(depth, maxDepth)
	o.spans, o.members, o.elems = o.spans[:0], o.members[:0], o.elems[:0]
	o.mstack, o.estack = o.mstack[:0], o.estack[:0]
	p := jsonParser{data: data, names: &o.names}
	p.ws()
	start := p.pos
	ok := p.outlineValue(o, 1)
	o.top = data[start:p.pos]
	if p.ws(); !ok || p.pos != len(data) {
		o.data, o.top = nil, nil
		return false
	}
	return true
}

// Top returns the text of the document's value, without the white space
// around it.
func (o *Outline) Top() []byte { return o.top }

// Members returns the members of the object v, in order, as
// ObjectMembers would: v must be the text of an object of the outlined
// document at a recorded level, a subslice of its data (as Top, Members and
// Elements return them); otherwise Members reports false. The members share
// o's memory until the next Parse.
func (o *Outline) Members(v []byte) ([]Member, bool) {
	s, ok := o.find(v)
	if !ok || s.array {
		return nil, false
	}
	if s.n == 0 {
		return []Member{}, true // not nil, as ObjectMembers
	}
	return o.members[s.first : s.first+s.n : s.first+s.n], true
}

// Elements returns the text of the elements of the array v, as
// ArrayElements would, on the terms of Members.
func (o *Outline) Elements(v []byte) ([][]byte, bool) {
	s, ok := o.find(v)
	if !ok || !s.array {
		return nil, false
	}
	if s.n == 0 {
		return [][]byte{}, true
	}
	return o.elems[s.first : s.first+s.n : s.first+s.n], true
}

// Unquote is UnquoteJSON for lit, a string of the document (or any other),
// sharing the strings that repeat through the documents o parses.
func (o *Outline) Unquote(lit []byte) (string, bool) {
	p := jsonParser{data: lit, names: &o.names}
	s, ok := p.str()
	return s, ok && p.pos == len(lit)
}

// find returns the recorded container whose text is exactly v.
func (o *Outline) find(v []byte) (span, bool) {
	if len(v) == 0 || len(o.data) == 0 {
		return span{}, false
	}
	// v's offset in data, if it is a subslice of it: both end at the end
	// of the same array; the address comparison settles it.
	off := cap(o.data) - cap(v)
	if off < 0 || off >= len(o.data) || &o.data[off] != &v[0] {
		return span{}, false
	}
	lo, hi := 0, len(o.spans)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if o.spans[m].start < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(o.spans) || o.spans[lo].start != off || o.spans[lo].end != off+len(v) {
		return span{}, false
	}
	return o.spans[lo], true
}

// outlineValue validates the value at p.pos, at nesting level lvl if it is
// an object or an array, and records it when lvl is within o's depth.
func (p *jsonParser) outlineValue(o *Outline, lvl int) bool {
	if lvl <= o.depth && p.pos < len(p.data) {
		switch p.data[p.pos] {
		case '{':
			return p.outlineObject(o, lvl)
		case '[':
			return p.outlineArray(o, lvl)
		}
	}
	_, ok := p.value(lvl-1, false)
	return ok
}

func (p *jsonParser) outlineObject(o *Outline, lvl int) bool {
	si := len(o.spans)
	o.spans = append(o.spans, span{start: p.pos}) // in document order: before the containers within
	// A failed parse leaves the stacks to the next Parse.
	base := len(o.mstack)
	p.pos++ // {
	p.ws()
	if !p.at('}') {
		for {
			p.ws()
			k, ok := p.str()
			if !ok || !p.colon() {
				return false
			}
			start := p.pos
			if !p.outlineValue(o, lvl+1) {
				return false
			}
			o.mstack = append(o.mstack, Member{Key: k, Value: p.data[start:p.pos]})
			more, ok := p.sep('}')
			if !ok {
				return false
			}
			if !more {
				break
			}
		}
	} else {
		p.pos++
	}
	ms := o.mstack[base:]
	o.spans[si].end, o.spans[si].first, o.spans[si].n = p.pos, len(o.members), len(ms)
	o.members = append(o.members, ms...)
	o.mstack = o.mstack[:base]
	return true
}

func (p *jsonParser) outlineArray(o *Outline, lvl int) bool {
	si := len(o.spans)
	o.spans = append(o.spans, span{start: p.pos, array: true})
	base := len(o.estack)
	p.pos++ // [
	p.ws()
	if !p.at(']') {
		for {
			p.ws()
			start := p.pos
			if !p.outlineValue(o, lvl+1) {
				return false
			}
			o.estack = append(o.estack, p.data[start:p.pos])
			more, ok := p.sep(']')
			if !ok {
				return false
			}
			if !more {
				break
			}
		}
	} else {
		p.pos++
	}
	es := o.estack[base:]
	o.spans[si].end, o.spans[si].first, o.spans[si].n = p.pos, len(o.elems), len(es)
	o.elems = append(o.elems, es...)
	o.estack = o.estack[:base]
	return true
}
