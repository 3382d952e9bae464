package urnold

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// GUID returns DataHub's GUID of fields, the identifier its connectors put
// in container, data product, domain and data process instance URNs: the
// hexadecimal MD5 of the fields as JSON with keys sorted, no spaces and
// every non-ASCII character escaped as \uXXXX (Python's json.dumps with
// sort_keys, separators (",", ":") and ensure_ascii, which DataHub's
// datahub_guid uses). A value is a string, a bool, an integer of any Go
// size, nil, or a nested map[string]any, map[string]string, []any or
// []string of those; GUID fails on any other type (floats included: keys
// do not hold them).
func GUID(fields map[string]any) (string, error) {
	b, err := appendPyJSON(nil, fields)
	if err != nil {
		return "", fmt.Errorf("urn: guid: %w", err)
	}
	sum := md5.Sum(b)
	return hex.EncodeToString(sum[:]), nil
}

// PythonJSON returns v encoded as DataHub's datahub_guid encodes it
// (Python's json.dumps with sort_keys, compact separators and
// ensure_ascii): the text GUID hashes. It takes the values GUID takes.
func PythonJSON(v any) ([]byte, error) { return appendPyJSON(nil, v) }

// appendPyJSON appends v as Python's json.dumps(v, sort_keys=True,
// separators=(",", ":"), ensure_ascii=True) writes it.
func appendPyJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendPyString(b, x), nil
	case bool:
		if x {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int8:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int16:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int32:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case uint:
		return strconv.AppendUint(b, uint64(x), 10), nil
	case uint8:
		return strconv.AppendUint(b, uint64(x), 10), nil
	case uint16:
		return strconv.AppendUint(b, uint64(x), 10), nil
	case uint32:
		return strconv.AppendUint(b, uint64(x), 10), nil
	case uint64:
		return strconv.AppendUint(b, x, 10), nil
	case map[string]string:
		m := make(map[string]any, len(x))
		for k, s := range x {
			m[k] = s
		}
		return appendPyJSON(b, m)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys) // UTF-8 byte order is code point order, as Python sorts
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendPyString(b, k)
			b = append(b, ':')
			var err error
			if b, err = appendPyJSON(b, x[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendPyJSON(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case []string:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendPyString(b, e)
		}
		return append(b, ']'), nil
	}
	return nil, fmt.Errorf("value of type %T is not JSON serializable", v)
}

// appendPyString appends s as a JSON string with ensure_ascii: ", \ and
// the control characters (DEL included) escaped, every character past U+007F as \uXXXX
// (a surrogate pair past U+FFFF) in lower-case hex; invalid UTF-8 bytes
// become U+FFFD.
func appendPyString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	u4 := func(b []byte, r rune) []byte {
		return append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
	}
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '"':
			b = append(b, '\\', '"')
		case r == '\\':
			b = append(b, '\\', '\\')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r == '\b':
			b = append(b, '\\', 'b')
		case r == '\f':
			b = append(b, '\\', 'f')
		case r < 0x20 || r == 0x7f:
			b = u4(b, r)
		case r < 0x80:
			b = append(b, byte(r))
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			b = u4(u4(b, r1), r2)
		default:
			b = u4(b, r)
		}
	}
	return append(b, '"')
}
