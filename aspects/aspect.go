package aspects

import (
	"bytes"
	"encoding/json"
	"errors"
	"sync"
)

// Aspect is a typed DataHub aspect value. AspectName returns the aspect's
// name in DataHub's entity registry, for example "datasetProperties".
//
// Every struct of this package that is an aspect implements Aspect with a
// value receiver, so both T and *T satisfy it.
type Aspect interface {
	AspectName() string
}

// Ptr returns a pointer to a copy of v. It sets optional scalar fields:
//
//	p := aspects.DatasetProperties{Description: aspects.Ptr("daily orders")}
func Ptr[T any](v T) *T {
	return &v
}

// marshal encodes v like json.Marshal but without escaping <, > and &, as
// DataHub's Python SDK does. An enclosing encoder re-applies its own escaping
// rule when it embeds the result.
func marshal(v any) ([]byte, error) {
	e, _ := encoders.Get().(*encoder)
	if e == nil {
		e = &encoder{}
		e.enc = json.NewEncoder(&e.buf)
		e.enc.SetEscapeHTML(false)
	}
	e.buf.Reset()
	err := e.enc.Encode(v)
	var out []byte
	if err == nil {
		out = bytes.Clone(bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")))
	}
	if e.buf.Cap() <= 64<<10 { // keep only ordinary buffers
		encoders.Put(e)
	}
	return out, err
}

// encoder is a JSON encoder writing to its own buffer, for marshal.
type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

// encoders holds marshal's encoders between calls.
var encoders sync.Pool

// nonNil returns s, or an empty non-nil slice when s is nil, so that a
// required array is encoded as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// nonNilMap returns m, or an empty non-nil map when m is nil, so that a
// required (or defaulted) map is encoded as {} rather than null.
func nonNilMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return map[K]V{}
	}
	return m
}

// unmarshalPlain decodes data into v, a pointer to a method-less copy of the
// struct type name (the usual way to call encoding/json from a type's own
// UnmarshalJSON), and puts name back into encoding/json's type errors.
func unmarshalPlain(data []byte, v any, name string) error {
	err := json.Unmarshal(data, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && (te.Struct == "plain" || te.Struct == "") {
		te.Struct = name
	}
	return err
}
