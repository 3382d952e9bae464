package pdl

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"sync"
	"unicode"
	"unicode/utf16"
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
	return AppendMembers(make([]Member, 0, 8), data)
}

// AppendMembers is ObjectMembers appending to dst; on failure it returns
// dst as it came and false.
func AppendMembers(dst []Member, data []byte) ([]Member, bool) {
	p := jsonParser{data: data}
	n := len(dst)
	if !p.members(func(k string, v []byte) { dst = append(dst, Member{Key: k, Value: v}) }) {
		return dst[:n], false
	}
	return dst, true
}

// ObjectMap is ObjectMembers as a map, the last of repeated keys winning, as
// json.Unmarshal into map[string]json.RawMessage gives it (but with values
// that share data's memory).
func ObjectMap(data []byte) (map[string]json.RawMessage, bool) {
	p := jsonParser{data: data}
	m := make(map[string]json.RawMessage, 8)
	ok := p.members(func(k string, v []byte) { m[k] = v })
	if !ok {
		return nil, false
	}
	return m, true
}

// members calls fn for each member of the object that is all of p.data
// (white space aside) and reports whether p.data is one.
func (p *jsonParser) members(fn func(k string, v []byte)) bool {
	data := p.data
	p.ws()
	if p.pos >= len(data) || data[p.pos] != '{' {
		return false
	}
	p.pos++
	p.ws()
	if p.pos < len(data) && data[p.pos] == '}' {
		p.pos++
	} else {
		for {
			p.ws()
			k, ok := p.str()
			if !ok {
				return false
			}
			p.ws()
			if p.pos >= len(data) || data[p.pos] != ':' {
				return false
			}
			p.pos++
			p.ws()
			start := p.pos
			if _, ok := p.value(1, false); !ok {
				return false
			}
			fn(k, data[start:p.pos])
			p.ws()
			if p.pos >= len(data) {
				return false
			}
			c := data[p.pos]
			p.pos++
			if c == '}' {
				break
			}
			if c != ',' {
				return false
			}
		}
	}
	p.ws()
	return p.pos == len(data)
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

// UnquoteJSONBytes is UnquoteJSON returning the string's bytes, in a slice
// of its own. It validates and decodes lit in one pass.
func UnquoteJSONBytes(lit []byte) ([]byte, bool) {
	return AppendUnquoted(make([]byte, 0, len(lit)), lit)
}

// AppendUnquoted is UnquoteJSONBytes appending the string's bytes to dst;
// on false it returns dst as it came.
func AppendUnquoted(dst, lit []byte) ([]byte, bool) {
	b, end, ok := appendUnquoted(dst, lit, 0)
	if !ok || end != len(lit) {
		return dst, false
	}
	return b, true
}

type jsonParser struct {
	data []byte
	pos  int
	// compact, when set, collects data without the white space ws skips.
	compact *compactor
	// names, when set, interns the plain strings str decodes.
	names *nameCache
	// hashing asks the schema walk (conformsRecord) for the Hash of what
	// it walks; unhashed reports that the walk gave it up (as Hash does, or
	// where Hash might).
	hashing, unhashed bool
	// urns asks the schema walk for the URN checks of URN-typed strings
	// (see urncheck.go), which DataHub makes of entities' aspects only.
	urns bool
	// high is the bytes of the string literals scanStr scanned, ORed
	// (escapes aside): without swarHigh bits they were all ASCII.
	high uint64
	// marks, when set, collects the marks of a marked record's walk (see
	// Held.Marking).
	marks *Marks
}

// ws moves past white space.
func (p *jsonParser) ws() {
	if p.pos < len(p.data) && isSpace[p.data[p.pos]] {
		p.skipSpace()
	}
}

// skipSpace is ws past the first byte; out of line, so that ws inlines. An
// indentation's run of spaces goes eight at a time.
//
//go:noinline
func (p *jsonParser) skipSpace() {
	d := p.data
	start := p.pos
	i := start + 1
	for i < len(d) && isSpace[d[i]] {
		if d[i] == ' ' {
			for i+8 <= len(d) {
				w := binary.LittleEndian.Uint64(d[i:]) ^ swarLow*' '
				if w != 0 {
					i += bits.TrailingZeros64(w) / 8
					break
				}
				i += 8
			}
			if i == len(d) || !isSpace[d[i]] {
				break
			}
		}
		i++
	}
	p.pos = i
	if c := p.compact; c != nil && !c.note(start, i) {
		c.gap(d, start, i)
	}
}

// isSpace marks the white space JSON allows between tokens.
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// compactor collects the text of a document without its insignificant white
// space: the text up to from is done, to dst[:n], which is nil while there
// was nothing to leave out. dst is used to its capacity and set once (but
// for a rare growth), so that a gap writes no slice header, and no GC write
// barrier, as it goes. A gap is only noted as it is found (the walk passes
// one at every ", " of Python-style text); the text between the gaps is
// copied when the notes are full and when the walk is done, in one loop.
type compactor struct {
	dst  []byte
	n    int
	from int
	// copied reports that dst holds the text (but for the gaps noted and
	// not applied yet).
	copied bool
	// mem, when set, gives the memory of dst when the gaps are first
	// applied.
	mem Memory
	// gaps are the gaps noted since the last were applied, ng of them.
	gaps [noteGaps]gapSpan
	ng   int
}

// gapSpan is the part [start, end) of a text a compactor leaves out.
type gapSpan struct{ start, end int }

// noteGaps is the number of gaps a compactor notes before it applies them.
const noteGaps = 32

// appendingTo returns a compactor appending to dst.
func appendingTo(dst []byte) compactor {
	return compactor{dst: dst[:cap(dst)], n: len(dst), copied: true}
}

// gap leaves data[start:end] out.
func (c *compactor) gap(data []byte, start, end int) {
	k := c.ng
	if k == len(c.gaps) {
		c.apply(data)
		k = 0
	}
	c.gaps[uint(k)%noteGaps] = gapSpan{start, end}
	c.ng = k + 1
}

// note is gap while there is room for a note: false when there is none
// (then call gap). It does what gap does in line.
func (c *compactor) note(start, end int) bool {
	if k := c.ng; k < noteGaps {
		c.gaps[k] = gapSpan{start, end}
		c.ng = k + 1
		return true
	}
	return false
}

// left reports whether c left anything out (else the text is its own
// compaction).
func (c *compactor) left() bool { return c.copied || c.ng > 0 }

// apply applies the gaps noted (data is the whole text), making dst on
// first use.
func (c *compactor) apply(data []byte) {
	if c.ng == 0 {
		return
	}
	if c.dst == nil {
		if c.mem != nil {
			c.dst = c.mem.Take(len(data))
		} else {
			c.dst = make([]byte, 0, len(data))
		}
		c.dst = c.dst[:cap(c.dst)]
	}
	dst, n, from := c.dst, c.n, c.from
	for _, g := range c.gaps[:c.ng] {
		start, end := g.start, g.end
		if start-from <= 24 && n+24 <= len(dst) && from+24 <= len(data) {
			// A short segment, as between the separators of indented or
			// Python-style text, in three words: the bytes past it are
			// written over later, or past the compaction's end.
			d, s := dst[n:n+24], data[from:from+24]
			binary.LittleEndian.PutUint64(d, binary.LittleEndian.Uint64(s))
			binary.LittleEndian.PutUint64(d[8:], binary.LittleEndian.Uint64(s[8:]))
			binary.LittleEndian.PutUint64(d[16:], binary.LittleEndian.Uint64(s[16:]))
		} else if seg := data[from:start]; len(dst)-n < len(seg) {
			dst = append(dst[:n], seg...)
			dst = dst[:cap(dst)]
		} else {
			copy(dst[n:], seg)
		}
		n, from = n+start-from, end
	}
	c.dst, c.n, c.from, c.ng, c.copied = dst, n, from, 0, true
}

// finish returns the compaction of data, all of which c has seen.
func (c *compactor) finish(data []byte) []byte {
	c.apply(data)
	return append(c.dst[:c.n], data[c.from:]...)
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
	var seen uint64 // the bytes of the runs, ORed: their high bits tell non-ASCII
	escaped := false
	i := p.pos + 1
	for {
		// The run of plain bytes from i, as plainRun finds it, in line:
		// the runs between the escapes of JSON text in a string are short.
		for {
			if i+8 > len(d) {
				for i < len(d) && strPlainByte[d[i]] {
					seen |= uint64(d[i])
					i++
				}
				break
			}
			w := binary.LittleEndian.Uint64(d[i:])
			if m := strStops(w); m != 0 {
				k := int(uint(bits.TrailingZeros64(m)) >> 3)
				seen |= w & (1<<(8*k) - 1)
				i += k
				break
			}
			seen |= w
			i += 8
		}
		if i >= len(d) || d[i] < 0x20 {
			return 0, false, false
		}
		if d[i] == '"' {
			p.high |= seen
			return i + 1, !escaped && seen&swarHigh == 0, true
		}
		escaped = true
		if i+1 < len(d) && unescaped[d[i+1]] != 0 { // the common escapes, in line
			i += 2
		} else if i = escapeEnd(d, i); i < 0 {
			return 0, false, false
		}
	}
}

// escapeEnd returns the position after the escape whose backslash is at
// d[i], or -1 when it is not a valid JSON escape.
func escapeEnd(d []byte, i int) int {
	i++
	if i >= len(d) {
		return -1
	}
	switch d[i] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 1
	case 'u':
		if i+4 >= len(d) || !isHex4(d[i+1:i+5]) {
			return -1
		}
		return i + 5
	}
	return -1
}

// isHex4 reports whether h holds four hex digits.
func isHex4(h []byte) bool {
	for _, c := range h[:4] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// The constants of the scans eight bytes at a time: one in each byte's low
// bit, and in each byte's high bit.
const swarLow, swarHigh = 0x0101010101010101, 0x8080808080808080

// strStops marks, in the high bit of its byte, the first byte of w (in
// little-endian order) that ends a run of a string literal's plain bytes: a
// quote, a backslash or a control character. A mark on a later byte may be
// wrong (a borrow), so only the lowest counts; 0 means no such byte.
func strStops(w uint64) uint64 {
	q := w ^ swarLow*'"'
	b := w ^ swarLow*'\\'
	return ((q-swarLow)&^q | (b-swarLow)&^b | (w-swarLow*0x20)&^w) & swarHigh
}

// plainRun returns the position of the first byte of d at or after i that
// a string literal does not hold as it is (len(d) if none), eight bytes at a
// time, and the bytes before it ORed together.
func plainRun(d []byte, i int) (int, uint64) {
	var seen uint64
	for ; i+8 <= len(d); i += 8 {
		w := binary.LittleEndian.Uint64(d[i:])
		if m := strStops(w); m != 0 {
			k := bits.TrailingZeros64(m) / 8
			return i + k, seen | w&(1<<(8*k)-1)
		}
		seen |= w
	}
	for ; i < len(d) && strPlainByte[d[i]]; i++ {
		seen |= uint64(d[i])
	}
	return i, seen
}

// strPlainByte marks the bytes a string literal holds as they are: all but
// the quote, the backslash and control characters.
var strPlainByte = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

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
	return p.names.decode(p.data[start+1:end-1], plain), true
}

// fieldNameTable holds the names of the schemas, so that decoding a known
// object key or name does not allocate its string: every record field name
// and union member key, every enum symbol, entity type and aspect name.
var fieldNameTable struct {
	once sync.Once
	m    map[string]string
}

func fieldNames() map[string]string {
	fieldNameTable.once.Do(func() { fieldNameTable.m = collectFieldNames() })
	return fieldNameTable.m
}

func collectFieldNames() map[string]string {
	m := map[string]string{}
	var walk func(t Type)
	walk = func(t Type) {
		for _, s := range t.Symbols {
			m[s] = s
		}
		if t.Items != nil {
			walk(*t.Items)
		}
		for _, u := range t.Members {
			k := u.Key()
			m[k] = k
			walk(u.Type)
		}
	}
	for _, r := range records() {
		for _, f := range r.Fields {
			m[f.Name] = f.Name
			walk(f.Type)
		}
	}
	for _, e := range entities {
		m[e.Name] = e.Name
	}
	for name := range aspectInfos {
		m[name] = name
	}
	return m
}

// nameCache remembers the last short strings a parser decoded, by a hash of
// a few of their bytes, so that the keys and names that repeat through a
// document are decoded without allocating or hashing them all; a miss goes
// to intern.
type nameCache [128]string

// decode returns the decoding of a string literal's body that scanStr
// accepted (plain as it reported), as str does.
func (c *nameCache) decode(body []byte, plain bool) string {
	if plain {
		return c.intern(body)
	}
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body)
	}
	return unquote(body)
}

// intern is intern(b) for the plain body b of a string literal (a nil
// cache: intern itself).
func (c *nameCache) intern(b []byte) string {
	if c == nil || len(b) == 0 || len(b) > 32 {
		return intern(b)
	}
	h := (uint(len(b))*31 + uint(b[0])*7 + uint(b[len(b)/2])*3 + uint(b[len(b)-1])) % uint(len(c))
	if s := c[h]; s == string(b) {
		return s
	}
	s := intern(b)
	c[h] = s
	return s
}

// intern returns string(b), shared when b is a known name.
func intern(b []byte) string {
	if len(b) <= 32 {
		if s, ok := fieldNames()[string(b)]; ok {
			return s
		}
	}
	return string(b)
}

// EachMember calls fn with each member of the JSON object data (white space
// around it allowed) in order: the key's text between its quotes (plain
// reports that the text is its own decoding: no escapes, valid UTF-8) and the
// value's text, until fn returns false. It reports whether data is one valid
// JSON object (as far as it read). It allocates nothing.
func EachMember(data []byte, fn func(key []byte, plain bool, value []byte) bool) bool {
	p := jsonParser{data: data}
	p.ws()
	if !p.at('{') {
		return false
	}
	p.pos++
	p.ws()
	if p.at('}') {
		p.pos++
		p.ws()
		return p.pos == len(data)
	}
	for {
		p.ws()
		key, plain, ok := p.strBody()
		if !ok || !p.colon() {
			return false
		}
		start := p.pos
		if _, ok := p.value(1, false); !ok {
			return false
		}
		if !fn(key, plain, data[start:p.pos]) {
			return true
		}
		more, ok := p.sep('}')
		if !ok {
			return false
		}
		if !more {
			p.ws()
			return p.pos == len(data)
		}
	}
}

// unquote decodes the body of a string literal scanStr accepted, as
// encoding/json does: escapes resolved, a \u escape of a lone or badly
// paired surrogate and every invalid UTF-8 byte becoming U+FFFD.
func unquote(body []byte) string {
	return string(unquoteAppend(make([]byte, 0, len(body)+8), body))
}

// unquoteAppend appends the decoding of body (see unquote) to b.
func unquoteAppend(b, body []byte) []byte {
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			e := body[i+1]
			i += 2
			switch e {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(body[i:])
				i += 4
				if utf16.IsSurrogate(r) {
					if i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
						if d := utf16.DecodeRune(r, hex4(body[i+2:])); d != unicode.ReplacementChar {
							b = utf8.AppendRune(b, d)
							i += 6
							continue
						}
					}
					r = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, r)
			default: // " \\ /
				b = append(b, e)
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, n := utf8.DecodeRune(body[i:])
			i += n
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

// appendUnquoted appends the decoding (see unquote) of the string literal
// at d[i] to b, validating it as scanStr does in the same pass, and returns
// the position after the literal; ok false when there is none. Plain ASCII
// bytes are copied a word at a time while b has room for a word, which
// makes the short runs between the escapes of JSON text in a string cheap.
func appendUnquoted(b, d []byte, i int) (_ []byte, end int, ok bool) {
	return appendUnquotedOf(b, d, i, false)
}

// appendUnquotedOf is appendUnquoted that, with ascii set, also fails
// (ok false) on a literal whose decoding is not all ASCII, in the same
// pass.
func appendUnquotedOf(b, d []byte, i int, ascii bool) (_ []byte, end int, ok bool) {
	if i >= len(d) || d[i] != '"' {
		return b, 0, false
	}
	i++
	for {
		// Each word is stored whole; only its bytes before the first that
		// is not plain ASCII count.
		for i+8 <= len(d) && cap(b)-len(b) >= 8 {
			w := binary.LittleEndian.Uint64(d[i:])
			n := len(b)
			binary.LittleEndian.PutUint64(b[n:n+8], w)
			if m := strStops(w) | w&swarHigh; m != 0 {
				k := int(uint(bits.TrailingZeros64(m)) >> 3)
				b, i = b[:n+k], i+k
				break
			}
			b, i = b[:n+8], i+8
		}
		if i >= len(d) {
			return b, 0, false
		}
		c := d[i]
		// The common escapes first: JSON text in a string is dense with
		// them.
		if c == '\\' && i+1 < len(d) && unescaped[d[i+1]] != 0 {
			b = append(b, unescaped[d[i+1]])
			i += 2
			continue
		}
		switch {
		case c == '"':
			return b, i + 1, true
		case c < 0x20:
			return b, 0, false
		case c >= utf8.RuneSelf: // the run from here, its invalid UTF-8 replaced
			if ascii {
				return b, 0, false
			}
			j, _ := plainRun(d, i)
			b = appendUTF8(b, d[i:j])
			i = j
			continue
		case c != '\\': // plain ASCII the word loop left
			b = append(b, c)
			i++
			continue
		}
		next := escapeEnd(d, i) // a \u escape or none
		if next < 0 {
			return b, 0, false
		}
		r := hex4(d[i+2:])
		if ascii && r >= utf8.RuneSelf {
			return b, 0, false
		}
		if utf16.IsSurrogate(r) {
			// A pair is two \u escapes; anything else is U+FFFD (and an
			// invalid second escape fails on the next turn).
			if next+1 < len(d) && d[next] == '\\' && d[next+1] == 'u' && escapeEnd(d, next) > 0 {
				if p := utf16.DecodeRune(r, hex4(d[next+2:])); p != unicode.ReplacementChar {
					b = utf8.AppendRune(b, p)
					i = next + 6
					continue
				}
			}
			r = unicode.ReplacementChar
		}
		b = utf8.AppendRune(b, r)
		i = next
	}
}

// unescaped maps the letter of a one-letter escape to its byte (0: no
// such escape).
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// appendUTF8 appends text to b with each invalid UTF-8 byte replaced by
// U+FFFD, as encoding/json decodes a string.
func appendUTF8(b, text []byte) []byte {
	if utf8.Valid(text) {
		return append(b, text...)
	}
	for len(text) > 0 {
		r, n := utf8.DecodeRune(text)
		b = utf8.AppendRune(b, r)
		text = text[n:]
	}
	return b
}

// hex4 is the value of four hex digits scanStr checked.
func hex4(h []byte) rune {
	var r rune
	for _, c := range h[:4] {
		switch {
		case c <= '9':
			c -= '0'
		case c <= 'F':
			c -= 'A' - 10
		default:
			c -= 'a' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// AppendCompact appends valid JSON text src to dst without insignificant
// white space, as json.Compact does (dst's memory must not overlap src's).
// It reports false, and returns dst as it came, when src is not valid JSON.
// It validates and compacts in one pass.
func AppendCompact(dst, src []byte) ([]byte, bool) {
	c := appendingTo(dst)
	if !validCompacting(src, &c) {
		return dst, false
	}
	return c.finish(src), true
}

// CompactShared is AppendCompact to a slice of its own, or src itself when
// src has no insignificant white space (as src then is its own compaction).
func CompactShared(src []byte) ([]byte, bool) {
	var c compactor
	if !validCompacting(src, &c) {
		return nil, false
	}
	if !c.left() {
		return src, true
	}
	return c.finish(src), true
}

// validCompacting is Valid collecting src's compaction in c.
func validCompacting(src []byte, c *compactor) bool {
	p := jsonParser{data: src, compact: c}
	p.ws()
	if _, ok := p.value(0, false); !ok {
		return false
	}
	p.ws()
	return p.pos == len(src)
}
