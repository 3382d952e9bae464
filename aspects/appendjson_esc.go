package aspects

import (
	"bytes"
	"encoding/json"

	"github.com/catalogkit/datahub-go/internal/jsonesc"
)

// This file holds the helpers of the appendJSON methods' escaped form:
// with esc set, an appendJSON appends what it appends without, escaped as
// the body of a JSON string whose bytes are all ASCII
// (jsonesc.AppendASCIIBody of the JSON), in one pass: member keys and
// punctuation are constants already escaped (see pick), strings are
// escaped twice at once (jsonesc.AppendStringInString), numbers, booleans
// and null need no escaping.

// pick returns escaped when esc is set, plain otherwise: the text of a
// member key or punctuation, plain and escaped as the body of a JSON
// string, both constants.
func pick(esc bool, plain, escaped string) string {
	if esc {
		return escaped
	}
	return plain
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
	if ap, ok := a.(appender); ok {
		b, err := ap.appendJSON(append(dst, '"'), true)
		if err != nil {
			if _, own := a.(json.Marshaler); own {
				err = marshalerError(err, a)
			}
			return dst, err
		}
		return append(b, '"'), nil
	}
	return appendOtherJSONString(dst, a)
}

// appendOtherJSONString is AppendJSONString of a type without appendJSON:
// its JSON is appended and then escaped where it stands, from a copy (on
// the stack when small). It is a function of its own so that the copy's
// room is not in AppendJSONString's frame: the usual aspect's encoding
// then needs a smaller stack (a new goroutine's grows once less).
//
//go:noinline
func appendOtherJSONString(dst []byte, a Aspect) ([]byte, error) {
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

// appendStringIn appends s as a JSON string, escaped with esc (see pick).
func appendStringIn(b []byte, s string, esc bool) []byte {
	if esc {
		return jsonesc.AppendStringInString(b, s)
	}
	return jsonesc.AppendString(b, s)
}

// appendStringMapIn is appendStringMap, escaped with esc (see pick).
func appendStringMapIn(b []byte, m map[string]string, esc bool) []byte {
	if !esc {
		return appendStringMap(b, m)
	}
	if m == nil {
		return append(b, "null"...)
	}
	start := len(b)
	for _, k := range sortedKeys(m) {
		b = append(b, ',')
		b = jsonesc.AppendStringInString(b, k)
		b = append(b, ':')
		b = jsonesc.AppendStringInString(b, m[k])
	}
	return closeObject(b, start)
}

// appendMarshalIn is appendMarshal, escaped with esc (see pick).
func appendMarshalIn(b []byte, v any, esc bool) ([]byte, error) {
	if !esc {
		return appendMarshal(b, v)
	}
	m, err := marshal(v)
	if err != nil {
		return b, err
	}
	return jsonesc.AppendASCIIBody(b, m), nil
}
