package pdl

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// maxDepth is encoding/json's nesting limit; deeper input is left to it.
const maxDepth = 10000

// DecodeJSON decodes data, one JSON value with optional surrounding white
// space, into the value encoding/json's Decoder with UseNumber gives:
// map[string]any, []any, string, json.Number, bool or nil. It reports false,
// and decodes nothing, when data is not exactly one valid JSON value, so that
// callers can fall back to encoding/json for its error text. It does not use
// reflection and allocates only the values it returns.
func DecodeJSON(data []byte) (any, bool) {
	p := jsonParser{data: data}
	p.ws()
	v, ok := p.value(0, true)
	if !ok {
		return nil, false
	}
	p.ws()
	if p.pos != len(data) {
		return nil, false
	}
	return v, true
}

// Member is one member of a JSON object as written: its key (unescaped) and
// its value's JSON text, a subslice of the object's text.
type Member struct {
	Key   string
	Value []byte
}

// ObjectMembers splits data, one JSON object with optional surrounding white
// space, into its members in order (a repeated key appears each time; with
// encoding/json the last one wins). It reports false when data is not exactly
// one valid JSON value or not an object. The values are validated, not
// decoded.
func ObjectMembers(data []byte) ([]Member, bool) {
	p := jsonParser{data: data}
	p.ws()
	if p.pos >= len(data) || data[p.pos] != '{' {
		return nil, false
	}
	p.pos++
	ms := make([]Member, 0, 8)
	p.ws()
	if p.pos < len(data) && data[p.pos] == '}' {
		p.pos++
	} else {
		for {
			p.ws()
			k, ok := p.str()
			if !ok {
				return nil, false
			}
			p.ws()
			if p.pos >= len(data) || data[p.pos] != ':' {
				return nil, false
			}
			p.pos++
			p.ws()
			start := p.pos
			if _, ok := p.value(1, false); !ok {
				return nil, false
			}
			ms = append(ms, Member{Key: k, Value: data[start:p.pos]})
			p.ws()
			if p.pos >= len(data) {
				return nil, false
			}
			c := data[p.pos]
			p.pos++
			if c == '}' {
				break
			}
			if c != ',' {
				return nil, false
			}
		}
	}
	p.ws()
	if p.pos != len(data) {
		return nil, false
	}
	return ms, true
}

// ObjectMap is ObjectMembers as a map, the last of repeated keys winning, as
// json.Unmarshal into map[string]json.RawMessage gives it (but with values
// that share data's memory).
func ObjectMap(data []byte) (map[string]json.RawMessage, bool) {
	ms, ok := ObjectMembers(data)
	if !ok {
		return nil, false
	}
	m := make(map[string]json.RawMessage, len(ms))
	for _, mb := range ms {
		m[mb.Key] = mb.Value
	}
	return m, true
}

// ArrayElements splits data, one JSON array with optional surrounding white
// space, into the JSON text of its elements (subslices of data). It reports
// false when data is not exactly one valid JSON value or not an array.
func ArrayElements(data []byte) ([][]byte, bool) {
	p := jsonParser{data: data}
	p.ws()
	if p.pos >= len(data) || data[p.pos] != '[' {
		return nil, false
	}
	p.pos++
	out := [][]byte{}
	p.ws()
	if p.pos < len(data) && data[p.pos] == ']' {
		p.pos++
	} else {
		for {
			p.ws()
			start := p.pos
			if _, ok := p.value(1, false); !ok {
				return nil, false
			}
			out = append(out, data[start:p.pos])
			p.ws()
			if p.pos >= len(data) {
				return nil, false
			}
			c := data[p.pos]
			p.pos++
			if c == ']' {
				break
			}
			if c != ',' {
				return nil, false
			}
		}
	}
	p.ws()
	if p.pos != len(data) {
		return nil, false
	}
	return out, true
}

// UnquoteJSON returns the string a JSON string literal (without surrounding
// white space) decodes to with encoding/json; false if lit is not one.
func UnquoteJSON(lit []byte) (string, bool) {
	p := jsonParser{data: lit}
	s, ok := p.str()
	return s, ok && p.pos == len(lit)
}

type jsonParser struct {
	data []byte
	pos  int
}

func (p *jsonParser) ws() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value parses (build) or validates one value at p.pos.
func (p *jsonParser) value(depth int, build bool) (any, bool) {
	if p.pos >= len(p.data) {
		return nil, false
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth+1, build)
	case c == '[':
		return p.array(depth+1, build)
	case c == '"':
		if !build {
			return nil, p.skipStr()
		}
		s, ok := p.str()
		return s, ok
	case c == 't':
		return true, p.lit("true")
	case c == 'f':
		return false, p.lit("false")
	case c == 'n':
		return nil, p.lit("null")
	case c == '-' || ('0' <= c && c <= '9'):
		start := p.pos
		if !p.num() {
			return nil, false
		}
		if !build {
			return nil, true
		}
		return json.Number(p.data[start:p.pos]), true
	}
	return nil, false
}

func (p *jsonParser) lit(s string) bool {
	if len(p.data)-p.pos < len(s) || string(p.data[p.pos:p.pos+len(s)]) != s {
		return false
	}
	p.pos += len(s)
	return true
}

func (p *jsonParser) object(depth int, build bool) (any, bool) {
	if depth > maxDepth {
		return nil, false
	}
	p.pos++ // {
	var m map[string]any
	if build {
		m = make(map[string]any)
	}
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return m, true
	}
	for {
		p.ws()
		var k string
		if build {
			var ok bool
			if k, ok = p.str(); !ok {
				return nil, false
			}
		} else if p.pos >= len(p.data) || p.data[p.pos] != '"' || !p.skipStr() {
			return nil, false
		}
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, false
		}
		p.pos++
		p.ws()
		v, ok := p.value(depth, build)
		if !ok {
			return nil, false
		}
		if build {
			m[k] = v
		}
		p.ws()
		if p.pos >= len(p.data) {
			return nil, false
		}
		c := p.data[p.pos]
		p.pos++
		if c == '}' {
			return m, true
		}
		if c != ',' {
			return nil, false
		}
	}
}

func (p *jsonParser) array(depth int, build bool) (any, bool) {
	if depth > maxDepth {
		return nil, false
	}
	p.pos++ // [
	var a []any
	if build {
		a = []any{}
	}
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return a, true
	}
	for {
		p.ws()
		v, ok := p.value(depth, build)
		if !ok {
			return nil, false
		}
		if build {
			a = append(a, v)
		}
		p.ws()
		if p.pos >= len(p.data) {
			return nil, false
		}
		c := p.data[p.pos]
		p.pos++
		if c == ']' {
			return a, true
		}
		if c != ',' {
			return nil, false
		}
	}
}

// num scans a number as the JSON grammar has it.
func (p *jsonParser) num() bool {
	d := p.data
	i := p.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return false
		}
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return false
		}
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
	}
	p.pos = i
	return true
}

// scanStr validates the string literal at p.pos and returns the position
// after it; plain reports a literal without escapes and only ASCII.
func (p *jsonParser) scanStr() (end int, plain, ok bool) {
	d := p.data
	if p.pos >= len(d) || d[p.pos] != '"' {
		return 0, false, false
	}
	plain = true
	for i := p.pos + 1; i < len(d); i++ {
		c := d[i]
		switch {
		case c == '"':
			return i + 1, plain, true
		case c < 0x20:
			return 0, false, false
		case c == '\\':
			plain = false
			i++
			if i >= len(d) {
				return 0, false, false
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d) {
					return 0, false, false
				}
				for _, h := range d[i+1 : i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return 0, false, false
					}
				}
				i += 4
			default:
				return 0, false, false
			}
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	return 0, false, false
}

func (p *jsonParser) skipStr() bool {
	end, _, ok := p.scanStr()
	if ok {
		p.pos = end
	}
	return ok
}

// str decodes a string literal at p.pos as encoding/json does.
func (p *jsonParser) str() (string, bool) {
	start := p.pos
	end, plain, ok := p.scanStr()
	if !ok {
		return "", false
	}
	p.pos = end
	body := p.data[start+1 : end-1]
	if plain {
		return string(body), true
	}
	if utf8.Valid(body) && bytes.IndexByte(body, '\\') < 0 {
		return string(body), true
	}
	// Escapes or invalid UTF-8: encoding/json's own unquoting (its handling
	// of bad surrogates and bytes is what callers compare against).
	var s string
	if err := json.Unmarshal(p.data[start:end], &s); err != nil {
		return "", false
	}
	return s, true
}
