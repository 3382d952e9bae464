package aspects

import (
	"bytes"
	"encoding/json"

	"github.com/catalogkit/datahub-go/internal/jsonesc"
)

// This file holds the helpers of the generated appendJSONEscaped methods:
// each appends what its appendJSON appends, escaped as the body of a JSON
// string whose bytes are all ASCII (jsonesc.AppendASCIIBody of appendJSON's
// output), in one pass: member keys and punctuation are constants already
// escaped, strings are escaped twice at once (jsonesc.AppendStringInString),
// numbers, booleans and null need no escaping.

// escapedAppender is implemented by the types that append their own JSON
// escaped.
type escapedAppender interface {
	appendJSONEscaped(b []byte) ([]byte, error)
}

// AppendJSONString appends the JSON of a (what AppendJSON appends) as a
// JSON string to dst, in the form a Rest.li proposal carries an aspect
// (GenericAspect.value), as DataHub's Python SDK writes it: every
// non-ASCII character of the JSON first written as a \uXXXX escape (a
// surrogate pair above U+FFFF), then the text escaped as a JSON string, so
// that every byte is ASCII. Its errors are AppendJSON's, and on error dst
// comes back as it was given. Types of this package write the string in
// one pass, without the JSON text in between.
func AppendJSONString(dst []byte, a Aspect) ([]byte, error) {
	if ap, ok := a.(escapedAppender); ok {
		b, err := ap.appendJSONEscaped(append(dst, '"'))
		if err != nil {
			if _, own := a.(json.Marshaler); own {
				err = marshalerError(err, a)
			}
			return dst, err
		}
		return append(b, '"'), nil
	}
	// Another type's JSON is appended and then escaped where it stands,
	// from a copy (on the stack when small).
	mark := len(dst)
	b, err := AppendJSON(dst, a)
	if err != nil {
		return dst, err
	}
	js := b[mark:]
	if len(js) <= maxScratch {
		var scratch [maxScratch]byte
		n := copy(scratch[:], js)
		return jsonesc.AppendASCIIString(b[:mark], scratch[:n]), nil
	}
	return jsonesc.AppendASCIIString(b[:mark], bytes.Clone(js)), nil
}

// maxScratch is the largest JSON AppendJSONString copies on its stack to
// escape it.
const maxScratch = 1024

// appendStringEsc appends s as a JSON string, escaped (see
// appendJSONEscaped).
func appendStringEsc(b []byte, s string) []byte { return jsonesc.AppendStringInString(b, s) }

// appendStringMapEsc is appendStringMap escaped (see appendJSONEscaped).
func appendStringMapEsc(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	start := len(b)
	for _, k := range sortedKeys(m) {
		b = append(b, ',')
		b = appendStringEsc(b, k)
		b = append(b, ':')
		b = appendStringEsc(b, m[k])
	}
	return closeObject(b, start)
}

// appendMarshalEscaped is appendMarshal escaped (see appendJSONEscaped).
func appendMarshalEscaped(b []byte, v any) ([]byte, error) {
	m, err := marshal(v)
	if err != nil {
		return b, err
	}
	return jsonesc.AppendASCIIBody(b, m), nil
}
