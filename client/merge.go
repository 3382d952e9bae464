package client

// Keeping the members of a stored aspect that the Go type does not know
// (a newer server's fields) when Modify writes it back.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// shape is what a Go type knows of a JSON value, for merging: for an
// object (a struct in Go), its member names, each with the shape of its
// value (nil: written as encoded, not merged); for an array (a slice or
// array in Go) of mergeable elements, the elements' shape. typ is the Go
// type, used to find the known projection of a stored list element.
type shape struct {
	typ    reflect.Type
	fields map[string]*shape // an object's known members
	elem   *shape            // an array's elements
}

// knownMembers returns the shape of type t, or nil when there is nothing
// to merge in it (not a struct, nor a list of them).
func knownMembers(t reflect.Type) *shape {
	return knownIn(t, map[reflect.Type]*shape{})
}

func knownIn(t reflect.Type, seen map[reflect.Type]*shape) *shape {
	orig := t
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 || customJSON(t.Elem()) {
			return nil // bytes, or elements with an encoding of their own
		}
		elem := knownIn(t.Elem(), seen)
		if elem == nil {
			return nil
		}
		return &shape{typ: orig, elem: elem}
	case reflect.Struct:
	default:
		return nil
	}
	if s, ok := seen[t]; ok {
		return s // a recursive type: the same (still filling) shape
	}
	s := &shape{typ: orig, fields: map[string]*shape{}}
	seen[t] = s
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if name == "" && f.Anonymous {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if customJSON(f.Type) {
				// Its JSON need not follow its fields (a union, say):
				// written as the type encodes it, not merged.
				s.fields[name] = nil
				continue
			}
			s.fields[name] = knownIn(f.Type, seen)
		}
	}
	walk(t)
	return s
}

// customJSON reports whether t or *t has its own MarshalJSON.
func customJSON(t reflect.Type) bool {
	m := reflect.TypeFor[json.Marshaler]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Implements(m) || reflect.PointerTo(t).Implements(m)
}

// mergeUnknown encodes a and adds the members of the stored value that
// a's type does not know (known), unchanged: at the top level, inside
// members that are objects on both sides and structs in Go without an
// encoding of their own, and inside list elements matched up with stored
// ones (see mergeArray).
func mergeUnknown(a any, stored json.RawMessage, known *shape) (json.RawMessage, error) {
	enc, err := marshalNoEscape(a)
	if err != nil {
		return nil, err
	}
	if len(stored) == 0 || known == nil {
		return enc, nil
	}
	out, changed, err := mergeValue(enc, stored, known)
	if err != nil || !changed {
		return enc, err
	}
	return out, nil
}

// mergeValue adds stored's unknown members to enc, which has shape s.
// changed is false when nothing was added.
func mergeValue(enc, stored json.RawMessage, s *shape) (json.RawMessage, bool, error) {
	switch {
	case s == nil:
		return enc, false, nil
	case s.fields != nil:
		return mergeObject(enc, stored, s)
	case s.elem != nil:
		return mergeArray(enc, stored, s.elem)
	}
	return enc, false, nil
}

// mergeObject adds stored's unknown members to the object enc, recursing
// into known members that are structs or lists of them.
func mergeObject(enc, stored json.RawMessage, s *shape) (json.RawMessage, bool, error) {
	var have map[string]json.RawMessage
	if json.Unmarshal(stored, &have) != nil {
		return enc, false, nil // stored is not an object: nothing to keep
	}
	var out map[string]json.RawMessage
	if err := json.Unmarshal(enc, &out); err != nil {
		return nil, false, fmt.Errorf("aspect does not encode to a JSON object: %w", err)
	}
	if out == nil {
		return enc, false, nil // enc is null (a nil pointer)
	}
	changed := false
	for k, v := range have {
		sub, isKnown := s.fields[k]
		cur, set := out[k]
		switch {
		case !isKnown && !set:
			out[k], changed = v, true
		case isKnown && set && sub != nil:
			merged, ch, err := mergeValue(cur, v, sub)
			if err == nil && ch {
				out[k], changed = merged, true
			}
		}
	}
	if !changed {
		return enc, false, nil
	}
	b, err := marshalNoEscape(out)
	return b, err == nil, err
}

// mergeArray adds, to each element of the array enc, the unknown members
// of the stored element it matches: the first stored element, not matched
// yet and in order, whose known projection (the stored element decoded
// into the Go element type elem.typ and encoded again) is the new element.
// An element that is new (or was changed) matches none and keeps nothing;
// a stored element matched by none (removed, or changed) is gone. Equal
// elements (duplicates) match equal stored ones in order. Matching is by
// the encoded bytes through a map: one decode and encode per stored
// element, then linear in the sizes of both lists.
func mergeArray(enc, stored json.RawMessage, elem *shape) (json.RawMessage, bool, error) {
	var have []json.RawMessage
	if json.Unmarshal(stored, &have) != nil || len(have) == 0 {
		return enc, false, nil
	}
	var out []json.RawMessage
	if err := json.Unmarshal(enc, &out); err != nil || len(out) == 0 {
		return enc, false, nil
	}
	unused := make(map[string][]int, len(have)) // projection -> stored indices
	for i, h := range have {
		p, ok := projection(h, elem.typ)
		if ok {
			unused[p] = append(unused[p], i)
		}
	}
	changed := false
	for i, e := range out {
		key, ok := compact(e)
		if !ok {
			continue
		}
		idx := unused[key]
		if len(idx) == 0 {
			continue
		}
		unused[key] = idx[1:]
		merged, ch, err := mergeValue(e, have[idx[0]], elem)
		if err == nil && ch {
			out[i], changed = merged, true
		}
	}
	if !changed {
		return enc, false, nil
	}
	b, err := marshalNoEscape(out)
	return b, err == nil, err
}

// projection returns the compact encoding of raw decoded into a value of
// type t: what a Go program knowing only t would write for it.
func projection(raw json.RawMessage, t reflect.Type) (string, bool) {
	v := reflect.New(t)
	if json.Unmarshal(raw, v.Interface()) != nil {
		return "", false
	}
	b, err := marshalNoEscape(v.Elem().Interface())
	if err != nil {
		return "", false
	}
	return compact(b)
}

// compact returns the compact form of the JSON value b.
func compact(b []byte) (string, bool) {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return "", false
	}
	return buf.String(), true
}
