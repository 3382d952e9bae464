package aspects

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/catalogkit/datahub-go/internal/jsonesc"
)

// This file holds the helpers of the generated appendJSON methods: each
// appends a value's JSON exactly as encoding/json (HTML escaping off)
// writes it, without reflection.

// appender is implemented by the types that append their own JSON; with
// esc, escaped as the body of a JSON string (see pick).
type appender interface {
	appendJSON(b []byte, esc bool) ([]byte, error)
}

// AppendJSON appends the JSON encoding of a to dst, byte for byte what
// json.Marshal writes for a except that <, > and & are not escaped, and
// returns the extended buffer; its errors are json.Marshal's. Types of this
// package encode themselves without reflection; another Aspect goes through
// encoding/json.
func AppendJSON(dst []byte, a Aspect) ([]byte, error) {
	if ap, ok := a.(appender); ok {
		b, err := ap.appendJSON(dst, false)
		if _, own := a.(json.Marshaler); err != nil && own {
			err = marshalerError(err, a)
		}
		return b, err
	}
	return appendMarshal(dst, a)
}

// reflectEncoding makes MarshalJSON take encoding/json's path instead of
// appendJSON. Only tests set it, to compare the two.
var reflectEncoding bool

// appendMarshal appends v encoded by marshal (encoding/json).
func appendMarshal(b []byte, v any) ([]byte, error) {
	m, err := marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, m...), nil
}

// closeObject ends an object whose members were each appended with a
// leading comma from offset start: it turns the first comma into { (or
// writes {} when there is no member) and appends }.
func closeObject(b []byte, start int) []byte {
	if len(b) == start {
		return append(b, '{', '}')
	}
	b[start] = '{'
	return append(b, '}')
}

// appendBool appends true or false.
func appendBool(b []byte, v bool) []byte {
	return strconv.AppendBool(b, v)
}

// appendFloat appends f as encoding/json does: the shortest decimal that
// reads back as f at the given bit size, in plain notation unless its
// magnitude is below 1e-6 or at least 1e21, where it takes an exponent with
// no leading zero (1e-7, not 1e-07). NaN and infinities are errors.
func appendFloat(b []byte, f float64, bits int) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, &json.UnsupportedValueError{Value: reflect.ValueOf(f), Str: strconv.FormatFloat(f, 'g', -1, bits)}
	}
	a := math.Abs(f)
	format := byte('f')
	if a != 0 {
		small, large := a < 1e-6, a >= 1e21
		if bits == 32 {
			small, large = float32(a) < 1e-6, float32(a) >= 1e21
		}
		if small || large {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// appendString appends s as a JSON string the way encoding/json writes it
// without HTML escaping (jsonesc.AppendString).
func appendString(b []byte, s string) []byte { return jsonesc.AppendString(b, s) }

// sortedKeys returns m's keys in the order encoding/json writes them.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// appendStringMap appends a map of strings as a JSON object, keys sorted;
// nil is written as null.
func appendStringMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	start := len(b)
	for _, k := range sortedKeys(m) {
		b = append(b, ',')
		b = appendString(b, k)
		b = append(b, ':')
		b = appendString(b, m[k])
	}
	return closeObject(b, start)
}

// finishJSON returns b, or nil and err when err is set: a MarshalJSON's
// result from an appendJSON's.
func finishJSON(b []byte, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return b, nil
}

// marshalerError reports err, from the appendJSON of v, whose type has a
// MarshalJSON, as encoding/json reports the error of a MarshalJSON.
func marshalerError(err error, v any) error {
	return &json.MarshalerError{Type: reflect.TypeOf(v), Err: err}
}
