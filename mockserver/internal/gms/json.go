package gms

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/catalogkit/datahub-go/mockserver/internal/jsonx"
)

// decodeUseNumber decodes one JSON value with numbers kept as json.Number.
func decodeUseNumber(raw []byte) (any, error) {
	if v, ok := jsonx.Decode(raw); ok {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New(MsgTrailingData)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New(MsgTrailingData)
	}
	return v, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "a value"
}

// compactValid is jsonx.CompactShared for JSON text known to be valid, in
// one pass that does not check it again: b itself when it has no white
// space outside its strings, else a copy without that white space, taken
// from a (nil: allocated).
func compactValid(a *valueArena, b []byte) []byte {
	var out []byte
	start := 0 // b[start:i] is still to copy
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			i = stringEnd(b, i)
		case c <= ' ': // outside a string of valid JSON: white space
			if out == nil {
				out = a.take(len(b))
			}
			out = append(out, b[start:i]...)
			start = i + 1
		}
	}
	if out == nil {
		return b
	}
	return append(out, b[start:]...)
}

// stringEnd returns the index of the quote that closes the string of valid
// JSON text b opened at b[i] (len(b) if none).
func stringEnd(b []byte, i int) int {
	for {
		j := bytes.IndexByte(b[i+1:], '"')
		if j < 0 {
			return len(b)
		}
		i += 1 + j
		k := i - 1 // an odd run of backslashes before the quote escapes it
		for b[k] == '\\' {
			k--
		}
		if (i-1-k)%2 == 0 {
			return i
		}
	}
}

// valueArena hands out the memory of a batch's compacted values from one
// allocation, made on first use with room for size bytes (the sum of the
// lengths of the texts compacted: what they need together at most).
type valueArena struct {
	buf  []byte
	size int
}

// take returns an empty slice with room for n bytes that nothing else
// writes to: part of the arena while it has room, else allocated.
func (a *valueArena) take(n int) []byte {
	if a == nil {
		return make([]byte, 0, n)
	}
	if a.buf == nil {
		a.buf = make([]byte, 0, max(a.size, n))
	}
	start := len(a.buf)
	if cap(a.buf)-start < n {
		return make([]byte, 0, n)
	}
	a.buf = a.buf[:start+n]
	return a.buf[start : start : start+n]
}
