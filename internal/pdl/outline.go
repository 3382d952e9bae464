package pdl

import "math"

// Outline is one valid JSON document together with the members of its
// objects and the elements of its arrays down to a nesting depth, found in
// the one pass that validates it, so that a reader walking those levels
// splits them without scanning their text again. The zero Outline is ready
// for Parse; an Outline can be parsed into again, reusing its memory. It is
// not safe for concurrent use.
type Outline struct {
	data  []byte
	top   []byte // the document's value
	depth int    // the deepest level recorded (1: the document's value)
	// The record, as offsets in data (no pointers, so that recording
	// writes no GC barriers): the containers down to the depth in document
	// order, their members and elements, each container's together, and the
	// members and elements of the open containers.
	spans []span
	items []item
	stack []item
	// What Elements returned since Parse.
	elems [][]byte
	last  int // the span find found last
	names nameCache
}

// span is one container of an Outline: its text data[start:end] and its
// members (an object) or elements (an array), items[first:first+n].
type span struct {
	start, end int
	first, n   int
	array      bool
}

// item is one member or element of an Outline: the key's body (between its
// quotes; plain: its own decoding, ASCII without escapes) and the value's
// text, as offsets in data.
type item struct {
	key, keyEnd, value, valueEnd int32
	plain                        bool
}

// Parse validates data, one JSON value with optional surrounding white
// space, and records the members of its objects and the elements of its
// arrays at nesting levels 1 to depth (1: the value itself). It reports
// whether data is valid JSON, as Valid does; on false o holds no document.
// (A document of 2 GiB or more is validated, not recorded.)
func (o *Outline) Parse(data []byte, depth int) bool {
	if len(data) > math.MaxInt32 {
		depth = 0
	}
	o.data, o.depth = data, min(depth, maxDepth)
	o.spans, o.items, o.stack = o.spans[:0], o.items[:0], o.stack[:0]
	clear(o.elems) // no pointers into the last document stay
	o.elems, o.last = o.elems[:0], -1
	p := jsonParser{data: data}
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

// Reader returns an Outline that reads o's document on another goroutine:
// it shares o's record, which reads never change, and keeps for itself
// what a read remembers (the last container found, the names decoded, the
// elements returned). It is valid until o parses again and must not Parse
// itself. Readers of one Outline may read at the same time.
func (o *Outline) Reader() *Outline {
	return &Outline{data: o.data, top: o.top, depth: o.depth, spans: o.spans[:len(o.spans):len(o.spans)],
		items: o.items[:len(o.items):len(o.items)], last: o.last, names: o.names}
}

// Top returns the text of the document's value, without the white space
// around it.
func (o *Outline) Top() []byte { return o.top }

// AppendMembers appends the members of the object v to dst, in order, as
// the function AppendMembers does: v must be the text of an object of the
// outlined document at a recorded level, a subslice of its data (as Top and
// the members and elements o gives return them); otherwise it returns dst
// as it came and false.
func (o *Outline) AppendMembers(dst []Member, v []byte) ([]Member, bool) {
	s, ok := o.find(v)
	if !ok || s.array {
		return dst, false
	}
	for _, it := range o.items[s.first : s.first+s.n] {
		key := o.data[it.key:it.keyEnd]
		dst = append(dst, Member{Key: o.names.decode(key, it.plain), Value: o.data[it.value:it.valueEnd]})
	}
	return dst, true
}

// Elements returns the text of the elements of the array v, as
// ArrayElements would, on the terms of AppendMembers. They share o's memory
// until the next Parse.
func (o *Outline) Elements(v []byte) ([][]byte, bool) {
	s, ok := o.find(v)
	if !ok || !s.array {
		return nil, false
	}
	if s.n == 0 {
		return [][]byte{}, true
	}
	start := len(o.elems)
	for _, it := range o.items[s.first : s.first+s.n] {
		o.elems = append(o.elems, o.data[it.value:it.valueEnd])
	}
	return o.elems[start:len(o.elems):len(o.elems)], true
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
	// Readers tend to walk the document in order: a container a few after
	// the last one found is looked for first.
	for i := o.last + 1; i < min(o.last+8, len(o.spans)); i++ {
		if o.spans[i].start == off {
			return o.found(i, len(v))
		}
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
	if lo == len(o.spans) || o.spans[lo].start != off {
		return span{}, false
	}
	return o.found(lo, len(v))
}

// found returns spans[i] if its text is n bytes long, remembering i.
func (o *Outline) found(i, n int) (span, bool) {
	s := o.spans[i]
	if s.end-s.start != n {
		return span{}, false
	}
	o.last = i
	return s, true
}

// outlineValue validates the value at p.pos, at nesting level lvl if it is
// an object or an array, and records it when lvl is within o's depth.
func (p *jsonParser) outlineValue(o *Outline, lvl int) bool {
	if lvl <= o.depth && p.pos < len(p.data) {
		switch p.data[p.pos] {
		case '{':
			return p.outlineContainer(o, lvl, false)
		case '[':
			return p.outlineContainer(o, lvl, true)
		}
	}
	_, ok := p.value(lvl-1, false)
	return ok
}

// outlineContainer records the object or array at p.pos.
func (p *jsonParser) outlineContainer(o *Outline, lvl int, array bool) bool {
	si := len(o.spans)
	o.spans = append(o.spans, span{start: p.pos, array: array}) // in document order: before the ones within
	// A failed parse leaves the stack to the next Parse.
	base := len(o.stack)
	end := byte('}')
	if array {
		end = ']'
	}
	p.pos++ // { or [
	p.ws()
	if !p.at(end) {
		for {
			p.ws()
			var it item
			if !array {
				start := p.pos
				e, plain, ok := p.scanStr()
				if !ok {
					return false
				}
				p.pos = e
				it.key, it.keyEnd, it.plain = int32(start+1), int32(e-1), plain
				if !p.colon() {
					return false
				}
			}
			it.value = int32(p.pos)
			if !p.outlineValue(o, lvl+1) {
				return false
			}
			it.valueEnd = int32(p.pos)
			o.stack = append(o.stack, it)
			more, ok := p.sep(end)
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
	its := o.stack[base:]
	o.spans[si].end, o.spans[si].first, o.spans[si].n = p.pos, len(o.items), len(its)
	o.items = append(o.items, its...)
	o.stack = o.stack[:base]
	return true
}
