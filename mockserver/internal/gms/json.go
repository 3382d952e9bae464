package gms

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// decodeUseNumber decodes one JSON value with numbers kept as json.Number.
func decodeUseNumber(raw []byte) (any, error) {
	if v, ok := pdl.DecodeJSON(raw); ok {
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

// isObject reports whether v is a valid JSON object.
func isObject(v json.RawMessage) bool {
	v = bytes.TrimLeft(v, " \t\r\n") // JSON white space only: pdl.Valid checks the rest
	return len(v) > 0 && v[0] == '{' && pdl.Valid(v)
}

// CompactValidShared returns valid JSON text v without insignificant white
// space: v itself when it has none (so callers must not modify it).
func CompactValidShared(v json.RawMessage) json.RawMessage {
	if !bytes.ContainsAny(v, " \t\r\n") {
		return v
	}
	return CompactJSON(v)
}

// CompactJSON returns v without insignificant white space (v itself if it
// is not valid JSON).
func CompactJSON(v json.RawMessage) json.RawMessage {
	if !bytes.ContainsAny(v, " \t\r\n") && pdl.Valid(v) {
		return bytes.Clone(v) // already compact: json.Compact would copy it
	}
	if c, ok := pdl.AppendCompact(make([]byte, 0, len(v)), v); ok {
		return c // as json.Compact
	}
	return v
}
