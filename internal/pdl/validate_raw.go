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
	if !c.copied {
		return data, true
	}
	return c.finish(data), true
}

// conforms is Conforms collecting data's compaction in c when set.
func conforms(recordName string, data []byte, c *compactor) bool {
	rec := compiled().records[recordName]
	if rec == nil {
		return false
	}
	p := jsonParser{data: data, compact: c}
	p.ws()
	if !p.conformsRecord(rec, 1) {
		return false
	}
	p.ws()
	return p.pos == len(p.data)
}

// conformsRecord checks the object at p.pos against r: known fields only,
// none null, every required one present, each value conforming.
func (p *jsonParser) conformsRecord(r *cRecord, depth int) bool {
	if depth > maxDepth || len(r.fields) > 64 || len(r.index) != len(r.fields) || !p.at('{') {
		return false
	}
	p.pos++
	var seen uint64
	required := 0
	p.ws()
	if p.at('}') {
		p.pos++
		return r.required == 0
	}
	for {
		p.ws()
		i, ok := -1, false
		if body, plain, ok2 := p.strBody(); !ok2 {
			return false
		} else if plain {
			i, ok = r.fieldIndex(body)
		} else {
			i, ok = r.index[unquote(body)]
		}
		if !ok || !p.colon() || p.at('n') { // unknown field or null
			return false
		}
		f := &r.fields[i]
		if !p.conformsValue(f.typ, depth) {
			return false
		}
		if seen&(1<<i) == 0 {
			seen |= 1 << i
			if f.required {
				required++
			}
		}
		more, ok := p.sep('}')
		if !ok {
			return false
		}
		if !more {
			return required == r.required
		}
	}
}

// conformsValue checks the non-null value at p.pos against t.
func (p *jsonParser) conformsValue(t *cType, depth int) bool {
	if p.pos >= len(p.data) {
		return false
	}
	switch t.kind {
	case KindRecord:
		return t.rec != nil && p.conformsRecord(t.rec, depth+1)
	case KindString:
		return p.at('"') && p.skipStr()
	case KindBoolean:
		return p.lit("true") || p.lit("false")
	case KindInt:
		return p.conformsInteger(-1<<31, 1<<31-1, "int")
	case KindLong:
		return p.conformsInteger(-1<<63, 1<<63-1, "long")
	case KindFloat, KindDouble:
		start := p.pos
		if !p.numStart() || !p.num() {
			return false
		}
		text := p.data[start:p.pos]
		if len(text) <= 15 && !bytes.ContainsAny(text, "eE") {
			return true // no overflow possible
		}
		_, err := strconv.ParseFloat(string(text), 64)
		return err == nil
	case KindBytes, KindFixed:
		body, plain, ok := p.strBody()
		if !ok {
			return false
		}
		s := string(body)
		if !plain {
			s = unquote(body)
		}
		n := 0
		for _, r := range s {
			if r > 0xFF {
				return false
			}
			n++
		}
		return t.kind != KindFixed || n == t.size
	case KindEnum:
		body, plain, ok := p.strBody()
		if !ok {
			return false
		}
		if plain {
			ok = t.hasSymbol(body)
		} else {
			_, ok = t.symbols[unquote(body)]
		}
		return ok
	case KindArray:
		if t.items == nil || depth+1 > maxDepth || !p.at('[') {
			return false
		}
		p.pos++
		p.ws()
		if p.at(']') {
			p.pos++
			return true
		}
		for {
			p.ws()
			if p.at('n') || !p.conformsValue(t.items, depth+1) {
				return false
			}
			more, ok := p.sep(']')
			if !ok {
				return false
			}
			if !more {
				return true
			}
		}
	case KindMap:
		if t.items == nil || depth+1 > maxDepth || !p.at('{') {
			return false
		}
		p.pos++
		p.ws()
		if p.at('}') {
			p.pos++
			return true
		}
		for {
			p.ws()
			if !p.at('"') || !p.skipStr() || !p.colon() || p.at('n') || !p.conformsValue(t.items, depth+1) {
				return false
			}
			more, ok := p.sep('}')
			if !ok {
				return false
			}
			if !more {
				return true
			}
		}
	case KindUnion:
		if depth+1 > maxDepth || !p.at('{') {
			return false
		}
		p.pos++
		p.ws()
		var mt *cType
		if body, plain, ok := p.strBody(); !ok {
			return false
		} else if plain {
			mt = t.members[string(body)]
		} else {
			mt = t.members[unquote(body)]
		}
		if mt == nil || mt.kind == KindNull || !p.colon() || p.at('n') || !p.conformsValue(mt, depth+1) {
			return false
		}
		p.ws()
		if !p.at('}') { // a second key, or bad syntax
			return false
		}
		p.pos++
		return true
	}
	return false
}

// conformsInteger checks a number that must be integral within [lo, hi], as
// checkInteger does for its json.Number.
func (p *jsonParser) conformsInteger(lo, hi int64, kind string) bool {
	start := p.pos
	if !p.numStart() || !p.num() {
		return false
	}
	text := p.data[start:p.pos]
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
		return lo <= n && n <= hi
	}
	return checkInteger(jsonNumber(text), lo, hi, kind) == nil
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
	p.ws()
	if !p.at(':') {
		return false
	}
	p.pos++
	if p.oneSpace() { // as ws, without its call
		p.pos++
	} else {
		p.ws()
	}
	return true
}

// sep moves past white space and a ',' (more) or the closing byte end.
// After a ',' it moves past one space when no other white space follows
// (the rest is the next ws's).
func (p *jsonParser) sep(end byte) (more, ok bool) {
	p.ws()
	switch {
	case p.at(','):
		p.pos++
		if p.oneSpace() {
			p.pos++
		}
		return true, true
	case p.at(end):
		p.pos++
		return false, true
	}
	return false, false
}

// oneSpace reports whether a single space is at p.pos, not followed by more
// white space, and ws would only move past it (nothing is compacted): the
// common case after a separator, as Python's json.dumps writes ": " and
// ", ".
func (p *jsonParser) oneSpace() bool {
	i := p.pos
	return i+1 < len(p.data) && p.data[i] == ' ' && !isSpace[p.data[i+1]] && p.compact == nil
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
