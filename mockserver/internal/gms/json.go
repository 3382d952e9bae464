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
