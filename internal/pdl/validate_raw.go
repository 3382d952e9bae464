package pdl

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// Conforms is the quick form of ValidateJSON: it walks data, one JSON value,
// against the record recordName without decoding it. True means
// ValidateJSON(recordName, data) returns nil. False means that it may not
// (or that Conforms could not tell cheaply, e.g. for a repeated key); call
// ValidateJSON for the verdict and the error.
func Conforms(recordName string, data []byte) bool {
	return conforms(recordName, data, nil)
}

// ConformsCompact is Conforms that also returns data's compaction, as
// CompactShared does, when it reports true.
func ConformsCompact(recordName string, data []byte) ([]byte, bool) {
	var c compactor
	if !conforms(recordName, data, &c) {
		return nil, false
	}
	if !c.left() {
		return data, true
	}
	return c.finish(data), true
}

// conforms is Conforms collecting data's compaction in c when set.
func conforms(recordName string, data []byte, c *compactor) bool {
	_, ok := conformsHashing(recordName, data, c, false)
	return ok
}

// conformsHashing is conforms that also returns data's Hash when hashing
// is set and the walk could compute it (0 when it could not).
func conformsHashing(recordName string, data []byte, c *compactor, hashing bool) (uint64, bool) {
	return conformsRoot(compiled().records[recordName], data, c, hashing, false)
}

// conformsRoot is conformsHashing given the compiled record (nil: unknown),
// making the URN checks when urns is set.
func conformsRoot(rec *cRecord, data []byte, c *compactor, hashing, urns bool) (uint64, bool) {
	h, _, ok := conformsRootASCII(rec, data, c, hashing, urns)
	return h, ok
}

// conformsRootASCII is conformsRoot that also reports whether data, when
// it conforms, is all ASCII (else it may or may not be valid UTF-8: the
// walk takes a string's bytes as encoding/json does, invalid ones too).
func conformsRootASCII(rec *cRecord, data []byte, c *compactor, hashing, urns bool) (uint64, bool, bool) {
	p := jsonParser{data: data, compact: c, hashing: hashing, urns: urns}
	return p.conformsRootParsed(rec)
}

// conformsRootParsed is conformsRootASCII with the parser p set up.
func (p *jsonParser) conformsRootParsed(rec *cRecord) (uint64, bool, bool) {
	if rec == nil {
		return 0, false, false
	}
	p.ws()
	h, ok := p.conformsRecord(rec, 1)
	if !ok {
		return 0, false, false
	}
	p.ws()
	if p.pos != len(p.data) {
		return 0, false, false
	}
	if p.unhashed {
		h = 0
	}
	return h, p.high&swarHigh == 0, true
}

// conformsRecord checks the object at p.pos against r: known fields only,
// none null, every required one present, each value conforming. With
// p.hashing it returns the object's Hash, as hasher.object computes it;
// depth is the object's nesting, as Hash counts it.
func (p *jsonParser) conformsRecord(r *cRecord, depth int) (uint64, bool) {
	if depth > maxDepth || len(r.fields) > 64 || len(r.index) != len(r.fields) || !p.at('{') {
		return 0, false
	}
	if p.hashing && (depth > MaxHashDepth || r.keyHashClash) {
		p.unhashed = true
	}
	start := p.pos
	p.pos++
	var seen, sum uint64
	required := 0
	p.ws()
	if p.at('}') {
		p.pos++
		if r.mark != 0 {
			p.mark(r.mark, start, mix(hashObject))
		}
		return mix(hashObject), r.required == 0
	}
	next := 0 // the field expected next (see keyLit)
	for {
		p.ws()
		var i int
		if next < len(r.fields) && r.fields[next].lit.at(p.data, p.pos) {
			// The key and its colon, and the one space Python writes
			// after it, in line.
			i = next
			d, j := p.data, p.pos+r.fields[next].lit.n
			if j+1 < len(d) && d[j] == ' ' && !isSpace[d[j+1]] {
				if c := p.compact; c != nil && !c.note(j, j+1) {
					c.gap(d, j, j+1)
				}
				j++
			}
			p.pos = j
			p.ws()
		} else {
			var ok bool
			if i, ok = p.fieldKey(r); !ok || !p.colon() { // unknown field
				return 0, false
			}
		}
		if p.at('n') { // null
			return 0, false
		}
		next = i + 1
		f := &r.fields[i]
		vstart := p.pos
		v, ok := p.conformsValue(f.typ, depth)
		if !ok {
			return 0, false
		}
		if f.mark != 0 {
			p.mark(f.mark, vstart, v)
		}
		if seen&(1<<i) == 0 {
			seen |= 1 << i
			if f.required {
				required++
			}
		} else {
			p.unhashed = true // a repeated key: Hash gives up
		}
		if p.hashing {
			sum += memberHash(f.keyHash, v)
		}
		// sep('}'), its common cases in line.
		if d, j := p.data, p.pos; j+2 < len(d) && d[j] == ',' {
			j++
			if d[j] == ' ' && !isSpace[d[j+1]] {
				if c := p.compact; c != nil && !c.note(j, j+1) {
					c.gap(d, j, j+1)
				}
				j++
			}
			p.pos = j
			continue
		} else if j < len(d) && d[j] == '}' {
			p.pos = j + 1
			if r.mark != 0 {
				p.mark(r.mark, start, mix(hashObject^sum))
			}
			return mix(hashObject ^ sum), required == r.required
		}
		more, ok := p.sep('}')
		if !ok {
			return 0, false
		}
		if !more {
			if r.mark != 0 {
				p.mark(r.mark, start, mix(hashObject^sum))
			}
			return mix(hashObject ^ sum), required == r.required
		}
	}
}

// fieldKey reads the key at p.pos and returns the index of r's field it
// names; false when it is none or no string.
func (p *jsonParser) fieldKey(r *cRecord) (int, bool) {
	body, plain, ok := p.strBody()
	switch {
	case !ok:
		return -1, false
	case plain:
		return r.fieldIndex(body)
	}
	i, ok := r.index[unquote(body)]
	return i, ok
}

// conformsValue checks the non-null value at p.pos against t, in a
// container at depth; with p.hashing it returns the value's Hash.
func (p *jsonParser) conformsValue(t *cType, depth int) (uint64, bool) {
	if p.pos >= len(p.data) {
		return 0, false
	}
	switch t.kind {
	case KindRecord:
		if t.rec == nil {
			return 0, false
		}
		return p.conformsRecord(t.rec, depth+1)
	case KindString:
		if !p.hashing && (t.urn == nil || !p.urns) {
			return 0, p.at('"') && p.skipStr()
		}
		body, plain, ok := p.strBody()
		if !ok {
			return 0, false
		}
		var h uint64 // body's hash, when plain and hashing
		if plain && p.hashing {
			h = hashBytes(tagString, body)
		}
		if t.urn != nil && p.urns && !t.urn.accepts(body, plain, h) {
			return 0, false
		}
		if t.dest != nil && p.urns {
			s := body
			if !plain {
				s = []byte(unquote(body))
			}
			if !t.dest.allows(s) {
				return 0, false
			}
		}
		if !p.hashing {
			return 0, true
		}
		if plain {
			return h, true
		}
		return p.stringHash(body, plain), true
	case KindBoolean:
		switch {
		case p.lit("true"):
			return hashTrue, true
		case p.lit("false"):
			return hashFalse, true
		}
		return 0, false
	case KindInt:
		return p.conformsInteger(-1<<31, 1<<31-1, "int")
	case KindLong:
		return p.conformsInteger(-1<<63, 1<<63-1, "long")
	case KindFloat, KindDouble:
		start := p.pos
		if !p.numStart() || !p.num() {
			return 0, false
		}
		text := p.data[start:p.pos]
		var h uint64
		if p.hashing {
			h = hashBytes(tagNumber, text)
		}
		if len(text) <= 15 && !bytes.ContainsAny(text, "eE") {
			return h, true // no overflow possible
		}
		_, err := strconv.ParseFloat(string(text), 64)
		return h, err == nil
	case KindBytes, KindFixed:
		body, plain, ok := p.strBody()
		if !ok {
			return 0, false
		}
		s := string(body)
		if !plain {
			s = unquote(body)
		}
		n := 0
		for _, r := range s {
			if r > 0xFF {
				return 0, false
			}
			n++
		}
		if t.kind == KindFixed && n != t.size {
			return 0, false
		}
		switch {
		case !p.hashing:
			return 0, true
		case plain:
			return hashBytes(tagString, body), true
		}
		return hashBytes(tagString, []byte(s)), true
	case KindEnum:
		body, plain, ok := p.strBody()
		if !ok {
			return 0, false
		}
		if plain {
			ok = t.hasSymbol(body)
		} else {
			_, ok = t.symbols[unquote(body)]
		}
		if !ok || !p.hashing {
			return 0, ok
		}
		return p.stringHash(body, plain), true
	case KindArray:
		if t.items == nil || depth+1 > maxDepth || !p.at('[') {
			return 0, false
		}
		if p.hashing && depth+1 > MaxHashDepth {
			p.unhashed = true
		}
		p.pos++
		p.ws()
		sum := hashArray
		if p.at(']') {
			p.pos++
			return sum, true
		}
		for {
			p.ws()
			if p.at('n') {
				return 0, false
			}
			v, ok := p.conformsValue(t.items, depth+1)
			if !ok {
				return 0, false
			}
			if p.hashing {
				sum = elementHash(sum, v)
			}
			more, ok := p.sep(']')
			if !ok {
				return 0, false
			}
			if !more {
				return sum, true
			}
		}
	case KindMap:
		if t.items == nil || depth+1 > maxDepth || !p.at('{') {
			return 0, false
		}
		if p.hashing && depth+1 > MaxHashDepth {
			p.unhashed = true
		}
		p.pos++
		p.ws()
		if p.at('}') {
			p.pos++
			return mix(hashObject), true
		}
		var (
			sum  uint64
			keys [16]uint64 // the keys' hashes, while there are at most 16
			n    int
		)
		for {
			p.ws()
			var kh uint64
			if !p.hashing {
				if !p.at('"') || !p.skipStr() {
					return 0, false
				}
			} else {
				body, plain, ok := p.strBody()
				if !ok {
					return 0, false
				}
				kh = p.stringHash(body, plain)
			}
			if !p.colon() || p.at('n') {
				return 0, false
			}
			v, ok := p.conformsValue(t.items, depth+1)
			if !ok {
				return 0, false
			}
			if p.hashing {
				if n < len(keys) {
					keys[n] = kh
				} else {
					p.unhashed = true // past 16 keys, Hash is left to the store
				}
				n++
				sum += memberHash(kh, v)
			}
			more, ok := p.sep('}')
			if !ok {
				return 0, false
			}
			if !more {
				if p.hashing && repeated(keys[:min(n, len(keys))]) {
					p.unhashed = true
				}
				return mix(hashObject ^ sum), true
			}
		}
	case KindUnion:
		if depth+1 > maxDepth || !p.at('{') {
			return 0, false
		}
		if p.hashing && depth+1 > MaxHashDepth {
			p.unhashed = true
		}
		p.pos++
		p.ws()
		var mt *cType
		body, plain, ok := p.strBody()
		if !ok {
			return 0, false
		} else if plain {
			mt = t.member(body)
		} else {
			mt = t.members[unquote(body)]
		}
		if mt == nil || mt.kind == KindNull || !p.colon() || p.at('n') {
			return 0, false
		}
		v, ok := p.conformsValue(mt, depth+1)
		if !ok {
			return 0, false
		}
		p.ws()
		if !p.at('}') { // a second key, or bad syntax
			return 0, false
		}
		p.pos++
		if !p.hashing {
			return 0, true
		}
		return mix(hashObject ^ memberHash(p.stringHash(body, plain), v)), true
	}
	return 0, false
}

// stringHash is the Hash of the string literal whose body is body (plain:
// its own decoding, as strBody says).
func (p *jsonParser) stringHash(body []byte, plain bool) uint64 {
	if plain {
		return hashBytes(tagString, body)
	}
	var buf [64]byte
	return hashBytes(tagString, unquoteAppend(buf[:0], body))
}

// conformsInteger checks a number that must be integral within [lo, hi], as
// checkInteger does for its json.Number.
func (p *jsonParser) conformsInteger(lo, hi int64, kind string) (uint64, bool) {
	start := p.pos
	if !p.numStart() || !p.num() {
		return 0, false
	}
	text := p.data[start:p.pos]
	var h uint64
	if p.hashing {
		h = hashBytes(tagNumber, text)
	}
	digits := text
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) <= 18 && isDigits(digits) {
		var n int64
		for _, c := range digits {
			n = n*10 + int64(c-'0')
		}
		if text[0] == '-' {
			n = -n
		}
		return h, lo <= n && n <= hi
	}
	return h, checkInteger(jsonNumber(text), lo, hi, kind) == nil
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// at reports whether the byte at p.pos is c.
func (p *jsonParser) at(c byte) bool { return p.pos < len(p.data) && p.data[p.pos] == c }

func (p *jsonParser) numStart() bool {
	return p.pos < len(p.data) && (p.data[p.pos] == '-' || '0' <= p.data[p.pos] && p.data[p.pos] <= '9')
}

// colon moves past white space, a colon and white space.
func (p *jsonParser) colon() bool {
	if d, i := p.data, p.pos; i+2 < len(d) && d[i] == ':' && !isSpace[d[i+2]] {
		// ":" and ": " before a value, in line.
		switch {
		case !isSpace[d[i+1]]:
			p.pos = i + 1
			return true
		case d[i+1] == ' ':
			p.pos = i + 2
			if c := p.compact; c != nil && !c.note(i+1, i+2) {
				c.gap(d, i+1, i+2)
			}
			return true
		}
	}
	return p.colonRest()
}

// colonRest is colon past its common cases.
func (p *jsonParser) colonRest() bool {
	p.ws()
	if !p.at(':') {
		return false
	}
	p.pos++
	if p.oneSpace() { // as ws, without its call
		p.oneSpaceGap()
	} else {
		p.ws()
	}
	return true
}

// sep moves past white space and a ',' (more) or the closing byte end.
// After a ',' it moves past one space when no other white space follows
// (the rest is the next ws's).
func (p *jsonParser) sep(end byte) (more, ok bool) {
	if d, i := p.data, p.pos; i+2 < len(d) {
		// "," ", " and the end, in line.
		switch d[i] {
		case ',':
			p.pos = i + 1
			if d[i+1] == ' ' && !isSpace[d[i+2]] {
				p.pos = i + 2
				if c := p.compact; c != nil && !c.note(i+1, i+2) {
					c.gap(d, i+1, i+2)
				}
			}
			return true, true
		case end:
			p.pos = i + 1
			return false, true
		}
	}
	return p.sepRest(end)
}

// sepRest is sep past its common cases.
func (p *jsonParser) sepRest(end byte) (more, ok bool) {
	p.ws()
	switch {
	case p.at(','):
		p.pos++
		if p.oneSpace() {
			p.oneSpaceGap()
		}
		return true, true
	case p.at(end):
		p.pos++
		return false, true
	}
	return false, false
}

// oneSpace reports whether a single space is at p.pos, not followed by more
// white space: the common case after a separator, as Python's json.dumps
// writes ": " and ", ".
func (p *jsonParser) oneSpace() bool {
	i := p.pos
	return i+1 < len(p.data) && p.data[i] == ' ' && !isSpace[p.data[i+1]]
}

// oneSpaceGap moves past the space oneSpace found, leaving it out of the
// compaction as ws would, without ws's call.
func (p *jsonParser) oneSpaceGap() {
	if c := p.compact; c != nil && !c.note(p.pos, p.pos+1) {
		c.gap(p.data, p.pos, p.pos+1)
	}
	p.pos++
}

// strBody scans the string literal at p.pos and returns its body (between
// the quotes); plain means it is its own decoding.
func (p *jsonParser) strBody() (body []byte, plain, ok bool) {
	start := p.pos
	end, plainASCII, ok := p.scanStr()
	if !ok {
		return nil, false, false
	}
	p.pos = end
	body = p.data[start+1 : end-1]
	return body, plainASCII || (bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body)), true
}
