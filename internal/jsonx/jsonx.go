package jsonx

import (
	"bytes"
	"encoding/json"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// Space is the white space JSON allows around a value (bytes.TrimSpace
// would take \v, \f, U+0085 and U+00A0 too).
const Space = " \t\r\n"

// IsObject reports whether b is a valid JSON object (white space around it
// allowed).
func IsObject(b []byte) bool {
	b = bytes.TrimLeft(b, Space) // pdl.Valid checks the rest
	return len(b) > 0 && b[0] == '{' && pdl.Valid(b)
}

// Compact returns a private copy of b without insignificant white space,
// or a copy of b as it is when b is not valid JSON.
func Compact(b []byte) []byte {
	if !bytes.ContainsAny(b, Space) && pdl.Valid(b) {
		return bytes.Clone(b) // already compact
	}
	if c, ok := pdl.AppendCompact(make([]byte, 0, len(b)), b); ok {
		return c // as json.Compact
	}
	return bytes.Clone(b)
}

// CompactShared is Compact for valid JSON text that nobody modifies: b
// itself when it has no white space.
func CompactShared(b []byte) []byte {
	if !bytes.ContainsAny(b, Space) {
		return b
	}
	return Compact(b)
}

// Canonical returns JSON text with object keys sorted, so that equal
// documents compare equal bytewise (numbers keep their text); b itself when
// it does not decode.
func Canonical(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return b
	}
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}

// Equal is DataTemplateUtil.areEqual for JSON: equal data, key order
// aside.
func Equal(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	if eq, ok := pdl.EqualJSON(a, b); ok {
		return eq
	}
	return bytes.Equal(Canonical(a), Canonical(b))
}

// The member scanners of internal/pdl's JSON reader, for code that walks an
// object's members without decoding them (see pdl for each).
type Member = pdl.Member

var (
	// ObjectMembers returns the members of a JSON object in order, sharing
	// its memory; ok is false when data is not a valid object.
	ObjectMembers = pdl.ObjectMembers
	// AppendMembers is ObjectMembers appending to dst.
	AppendMembers = pdl.AppendMembers
	// EachMember calls fn with every member of a JSON object.
	EachMember = pdl.EachMember
	// Unquote decodes a JSON string literal.
	Unquote = pdl.UnquoteJSON
	// Decode decodes valid JSON text as encoding/json with UseNumber would.
	Decode = pdl.DecodeJSON
	// ValueEnd returns the index just past the valid JSON value that starts
	// at b[i], or -1 when none starts there.
	ValueEnd = pdl.ValueEnd
)

// CompactValueEnd returns the index just past the JSON value that starts
// at b[i] inside an object or array of compact JSON text b (taken to be
// valid: only the strings, the nesting and the delimiters are looked at),
// or -1 when b ends first or white space follows the value outside its
// nested values, which compact text has not.
func CompactValueEnd(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		if !outlineByte[b[i]] {
			continue
		}
		switch b[i] {
		case '"':
			if i = quoteEnd(b, i+1); i < 0 {
				return -1
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		default: // white space
			if depth == 0 {
				return -1
			}
		}
	}
	return -1
}

// outlineByte marks the bytes CompactValueEnd looks at.
var outlineByte = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true, ',': true,
	' ': true, '\t': true, '\n': true, '\r': true}

// quoteEnd returns the index of the quote that ends the string whose
// text starts at b[i] (taken to be valid), or -1 when there is none.
func quoteEnd(b []byte, i int) int {
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			return i
		case '\\':
			i++ // the escaped byte
		}
	}
	return -1
}
