package pdl

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf8"
)

// Hash returns a hash of JSON text that respects equal data (as EqualJSON
// and the mock's jsonx.Equal compare it): two texts of equal data hash
// alike, so two texts whose hashes are both non-zero and differ are not
// equal, without comparing them. Members are hashed whatever their order,
// strings as they decode, numbers and literals as written, and white space
// is ignored. It returns 0 (which implies nothing) for text it does not
// hash: not valid JSON, an object with a repeated key, or nesting deeper
// than it follows.
//
// Hashes are stored beside the values they hash, so the function must never
// change: a different one needs a new stored format.
func Hash(b []byte) uint64 {
	h := hasher{data: b}
	h.ws()
	v, ok := h.value(0)
	if !ok {
		return 0
	}
	h.ws()
	if h.pos != len(b) || v == 0 {
		return 0
	}
	return v
}

// MaxHashDepth bounds the nesting Hash follows.
const MaxHashDepth = 64

// Tags that keep values of different kinds apart.
const (
	tagString uint64 = iota + 1
	tagNumber
	tagLiteral
	tagArray
	tagObject
)

type hasher struct {
	data []byte
	pos  int
}

func (h *hasher) ws() {
	for h.pos < len(h.data) {
		switch h.data[h.pos] {
		case ' ', '\t', '\n', '\r':
			h.pos++
		default:
			return
		}
	}
}

func (h *hasher) value(depth int) (uint64, bool) {
	if h.pos >= len(h.data) {
		return 0, false
	}
	switch c := h.data[h.pos]; {
	case c == '"':
		body, ok := h.str()
		return hashBytes(tagString, body), ok
	case c == '{':
		return h.object(depth + 1)
	case c == '[':
		return h.array(depth + 1)
	case c == 't':
		return h.lit("true", hashTrue)
	case c == 'f':
		return h.lit("false", hashFalse)
	case c == 'n':
		return h.lit("null", hashNull)
	case c == '-' || '0' <= c && c <= '9':
		start := h.pos
		if !h.num() {
			return 0, false
		}
		return hashBytes(tagNumber, h.data[start:h.pos]), true
	}
	return 0, false
}

// num reads the number at h.pos: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][-+]?[0-9]+)?
func (h *hasher) num() bool {
	if h.at('-') {
		h.pos++
	}
	if h.at('0') {
		h.pos++
	} else if !h.digits() {
		return false
	}
	if h.at('.') {
		h.pos++
		if !h.digits() {
			return false
		}
	}
	if h.at('e') || h.at('E') {
		h.pos++
		if h.at('+') || h.at('-') {
			h.pos++
		}
		return h.digits()
	}
	return true
}

// digits reads one or more digits.
func (h *hasher) digits() bool {
	start := h.pos
	for h.pos < len(h.data) && '0' <= h.data[h.pos] && h.data[h.pos] <= '9' {
		h.pos++
	}
	return h.pos > start
}

func (h *hasher) at(c byte) bool { return h.pos < len(h.data) && h.data[h.pos] == c }

// The hashes of what does not vary: the literals, and the start of every
// array and of every object.
var (
	hashTrue   = hashBytes(tagLiteral, []byte("true"))
	hashFalse  = hashBytes(tagLiteral, []byte("false"))
	hashNull   = hashBytes(tagLiteral, []byte("null"))
	hashArray  = hashBytes(tagArray, nil)
	hashObject = hashBytes(tagObject, nil)
)

// lit reads the literal s, of hash sum.
func (h *hasher) lit(s string, sum uint64) (uint64, bool) {
	if !bytes.HasPrefix(h.data[h.pos:], []byte(s)) {
		return 0, false
	}
	h.pos += len(s)
	return sum, true
}

// str reads the string literal at h.pos and returns what it decodes to
// (UnquoteJSON's decoding), sharing h.data when that is the literal's body.
func (h *hasher) str() ([]byte, bool) {
	start := h.pos + 1
	end, c, ascii := scanString(h.data, start)
	if c == '"' {
		body := h.data[start:end]
		h.pos = end + 1
		if ascii || utf8.Valid(body) {
			return body, true
		}
		s, ok := UnquoteJSON(h.data[start-1 : h.pos])
		return []byte(s), ok
	}
	if c != '\\' {
		return nil, false
	}
	// Escapes: find the closing quote past them, then decode.
	i := start
	for i < len(h.data) && h.data[i] != '"' {
		if h.data[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(h.data) {
		return nil, false
	}
	h.pos = i + 1
	s, ok := UnquoteJSON(h.data[start-1 : h.pos])
	return []byte(s), ok
}

// Masks of every byte of a word: its low bit, its high bit, a quote, a
// backslash.
const (
	lows       = 0x0101010101010101
	highs      = 0x8080808080808080
	quotes     = '"' * lows
	backslashs = '\\' * lows
)

// scanString returns the index of the first quote or backslash in data from
// start, that byte (0 if there is none) and whether every byte before it is
// ASCII. It reads eight bytes at a time.
func scanString(data []byte, start int) (end int, c byte, ascii bool) {
	var high uint64
	i := start
	for ; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		// A byte of q or b has its high bit set when w has a quote or a
		// backslash there, and the lowest such bit is exact (a false one only
		// follows a true one).
		q, b := w^quotes, w^backslashs
		if m := ((q-lows)&^q | (b-lows)&^b) & highs; m != 0 {
			n := bits.TrailingZeros64(m) / 8
			high |= w & (1<<(8*n) - 1)
			return i + n, data[i+n], high&highs == 0
		}
		high |= w
	}
	for ; i < len(data); i++ {
		switch d := data[i]; d {
		case '"', '\\':
			return i, d, high&highs == 0
		default:
			high |= uint64(d)
		}
	}
	return i, 0, high&highs == 0
}

func (h *hasher) array(depth int) (uint64, bool) {
	if depth > MaxHashDepth {
		return 0, false
	}
	h.pos++ // [
	sum := hashArray
	h.ws()
	if h.pos < len(h.data) && h.data[h.pos] == ']' {
		h.pos++
		return sum, true
	}
	for {
		h.ws()
		v, ok := h.value(depth)
		if !ok {
			return 0, false
		}
		sum = elementHash(sum, v)
		h.ws()
		if h.pos >= len(h.data) {
			return 0, false
		}
		c := h.data[h.pos]
		h.pos++
		switch c {
		case ']':
			return sum, true
		case ',':
		default:
			return 0, false
		}
	}
}

// object combines its members' hashes by addition, which no order changes.
// A repeated key (or two keys of one hash) gives up: decoding keeps the last
// value, which the sum cannot tell.
func (h *hasher) object(depth int) (uint64, bool) {
	if depth > MaxHashDepth {
		return 0, false
	}
	h.pos++ // {
	sum, ok := h.members(depth)
	if !ok {
		return 0, false
	}
	return mix(hashObject ^ sum), true
}

// members reads the members of the object whose '{' h has passed and
// returns the sum of their hashes; false for a repeated key too.
func (h *hasher) members(depth int) (uint64, bool) {
	var (
		sum   uint64
		keys  [16]uint64 // the keys' hashes, the first 16
		n     int
		spill []uint64 // all of them, past 16
	)
	h.ws()
	if h.pos < len(h.data) && h.data[h.pos] == '}' {
		h.pos++
		return 0, true
	}
	for {
		h.ws()
		if h.pos >= len(h.data) || h.data[h.pos] != '"' {
			return 0, false
		}
		key, ok := h.str()
		if !ok {
			return 0, false
		}
		kh := hashBytes(tagString, key)
		h.ws()
		if h.pos >= len(h.data) || h.data[h.pos] != ':' {
			return 0, false
		}
		h.pos++
		h.ws()
		v, ok := h.value(depth)
		if !ok {
			return 0, false
		}
		switch {
		case n < len(keys):
			keys[n] = kh
		case spill == nil:
			spill = append(append(make([]uint64, 0, 2*len(keys)), keys[:]...), kh)
		default:
			spill = append(spill, kh)
		}
		n++
		sum += memberHash(kh, v)
		h.ws()
		if h.pos >= len(h.data) {
			return 0, false
		}
		c := h.data[h.pos]
		h.pos++
		if c == '}' {
			break
		}
		if c != ',' {
			return 0, false
		}
	}
	if spill != nil {
		return sum, !repeated(spill)
	}
	return sum, !repeated(keys[:n])
}

// elementHash adds the element of hash v to the hash sum of an array's
// elements before it.
func elementHash(sum, v uint64) uint64 { return mix(sum*0x9e3779b97f4a7c15 + v) }

// memberHash is the hash of an object member whose key hashes to kh and
// whose value to v; an object sums its members' hashes.
func memberHash(kh, v uint64) uint64 { return mix(kh + bits.RotateLeft64(v, 29)*0x9e3779b97f4a7c15) }

// repeated reports whether keys holds a value twice; it may reorder keys.
func repeated(keys []uint64) bool {
	if len(keys) <= 16 {
		for i := 1; i < len(keys); i++ {
			if slices.Contains(keys[:i], keys[i]) {
				return true
			}
		}
		return false
	}
	slices.Sort(keys)
	for i := 1; i < len(keys); i++ {
		if keys[i] == keys[i-1] {
			return true
		}
	}
	return false
}

// hashBytes hashes b, eight bytes at a time, after a tag.
func hashBytes(tag uint64, b []byte) uint64 {
	h := tag*0x9e3779b97f4a7c15 ^ uint64(len(b))*0xc2b2ae3d27d4eb4f
	for len(b) >= 8 {
		h = bits.RotateLeft64((h^binary.LittleEndian.Uint64(b))*0x87c37b91114253d5, 31)
		b = b[8:]
	}
	if len(b) > 0 {
		var tail uint64
		if cap(b) >= 8 {
			// One load of the bytes up to b's capacity, those past b masked.
			tail = binary.LittleEndian.Uint64(b[:8]) & (1<<(8*len(b)) - 1)
		} else {
			for i, c := range b {
				tail |= uint64(c) << (8 * i)
			}
		}
		h = bits.RotateLeft64((h^tail)*0x87c37b91114253d5, 31)
	}
	return mix(h)
}

// mix is the finaliser of SplitMix64: every input bit affects every output
// bit.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= mixMul1
	x ^= x >> 27
	x *= mixMul2
	x ^= x >> 31
	return x
}

// mix's multipliers (unmix undoes them).
const (
	mixMul1 = 0xbf58476d1ce4e5b9
	mixMul2 = 0x94d049bb133111eb
)
