package patch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
)

// The patcher works on its own JSON tree, not on map[string]any: DataHub's
// templates turn keyed arrays into objects and back, and the order of the
// rebuilt array is the order of the object's members (Jackson keeps
// insertion order), so objects must keep theirs.
//
// A value is one of *object, *array, string, json.Number, bool or nil.

// maxDepth bounds the nesting of decoded documents, so a hostile document
// cannot exhaust the stack.
const maxDepth = 256

// object is a JSON object that keeps the order of its members.
type object struct {
	keys []string
	vals map[string]any
}

func newObject() *object { return &object{vals: map[string]any{}} }

// get returns the member k and whether it exists.
func (o *object) get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

// set sets member k, keeping its place when it exists, else appending it.
func (o *object) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// del removes member k; it reports whether it existed.
func (o *object) del(k string) bool {
	if _, ok := o.vals[k]; !ok {
		return false
	}
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
	return true
}

// array is a JSON array; a pointer so that operations can change it in
// place.
type array struct {
	elems []any
}

// decode parses data into a value tree.
func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("text after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested deeper than %d", maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				o.set(k, v) // a repeated member: the last value wins, in the first place
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			a := &array{}
			for dec.More() {
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				a.elems = append(a.elems, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return a, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil // string, json.Number, bool, nil
	}
}

// encode writes v as compact JSON.
func encode(v any) []byte {
	var buf bytes.Buffer
	encodeTo(&buf, v)
	return buf.Bytes()
}

func encodeTo(buf *bytes.Buffer, v any) {
	switch t := v.(type) {
	case *object:
		buf.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			encodeString(buf, k)
			buf.WriteByte(':')
			encodeTo(buf, t.vals[k])
		}
		buf.WriteByte('}')
	case *array:
		buf.WriteByte('[')
		for i, e := range t.elems {
			if i > 0 {
				buf.WriteByte(',')
			}
			encodeTo(buf, e)
		}
		buf.WriteByte(']')
	case string:
		encodeString(buf, t)
	case json.Number:
		buf.WriteString(string(t))
	case bool:
		buf.WriteString(strconv.FormatBool(t))
	default:
		buf.WriteString("null")
	}
}

func encodeString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	buf.Truncate(buf.Len() - 1)
}

// clone returns a deep copy of v.
func clone(v any) any {
	switch t := v.(type) {
	case *object:
		c := &object{keys: append([]string(nil), t.keys...), vals: make(map[string]any, len(t.vals))}
		for k, e := range t.vals {
			c.vals[k] = clone(e)
		}
		return c
	case *array:
		c := &array{elems: make([]any, len(t.elems))}
		for i, e := range t.elems {
			c.elems[i] = clone(e)
		}
		return c
	}
	return v
}

// equal reports whether a and b are the same JSON value, numbers compared
// by value and objects regardless of member order (the "test" operation).
func equal(a, b any) bool {
	switch x := a.(type) {
	case *object:
		y, ok := b.(*object)
		if !ok || len(x.vals) != len(y.vals) {
			return false
		}
		for k, v := range x.vals {
			w, ok := y.vals[k]
			if !ok || !equal(v, w) {
				return false
			}
		}
		return true
	case *array:
		y, ok := b.(*array)
		if !ok || len(x.elems) != len(y.elems) {
			return false
		}
		for i := range x.elems {
			if !equal(x.elems[i], y.elems[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		p, okp := new(big.Rat).SetString(string(x))
		q, okq := new(big.Rat).SetString(string(y))
		if !okp || !okq {
			return x == y
		}
		return p.Cmp(q) == 0
	default:
		return a == b
	}
}

// asText is Jackson's JsonNode.asText, with which DataHub turns the key
// fields of array elements into map keys: a string as is, a number or
// boolean as its text, null as "null", and an object or array as "".
func asText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return string(t)
	case bool:
		return strconv.FormatBool(t)
	case nil:
		return "null"
	}
	return ""
}
