package patch

import (
	"encoding/json"
	"strings"
)

// unitSeparator joins the parts of a nested key field ("attribution␟source").
const unitSeparator = "\u241f"

// keyedArray is one array field of an aspect that a template addresses by
// key (DataHub's ArrayMergingTemplate): the patch sees
// {"tags":{"urn:li:tag:a":{...}}} where the aspect holds
// {"tags":[{"tag":"urn:li:tag:a",...}]}. With several key fields the map
// nests one level per field; with none the array holds strings keyed by
// themselves.
type keyedArray struct {
	field string
	keys  []string
	// reinject restores a key that lived only in the patch path into the
	// rebuilt element (DataHub does this for scalar key fields).
	reinject bool
}

// toMap is ArrayMergingTemplate.arrayFieldToMap: it replaces the array
// field of o with the keyed map (an empty map when the field is absent or
// not an array).
func (k keyedArray) toMap(o *object) error {
	m := newObject()
	if a, ok := o.vals[k.field].(*array); ok {
		for _, e := range a.elems {
			if len(k.keys) == 0 {
				s, _ := e.(string)
				m.set(s, clone(e))
				continue
			}
			eo, ok := e.(*object)
			if !ok {
				return failf(ErrBadAspect, "an element of "+k.field+" is not an object")
			}
			level := m
			for _, kf := range k.keys {
				key := keyOf(eo, kf)
				next, ok := level.vals[key].(*object)
				if !ok {
					next = newObject()
					level.set(key, next)
				}
				level = next
			}
			for _, f := range eo.keys { // setAll: merge the element's members
				level.set(f, clone(eo.vals[f]))
			}
		}
	}
	o.set(k.field, m)
	return nil
}

// keyOf returns the text of key field kf of element e ("" when missing);
// a nested field's parts are joined by U+241F.
func keyOf(e *object, kf string) string {
	parts := strings.Split(kf, unitSeparator)
	var cur any = e
	for _, p := range parts {
		o, ok := cur.(*object)
		if !ok {
			return ""
		}
		v, ok := o.get(p)
		if !ok {
			return ""
		}
		cur = v
	}
	return asText(cur)
}

// toArray is ArrayMergingTemplate.transformedMapToArray: an array (set
// whole by the patch) stays, a missing or null field becomes [], a map is
// flattened back into an array in member order.
func (k keyedArray) toArray(o *object) {
	v, ok := o.vals[k.field]
	switch t := v.(type) {
	case *array:
		return
	case *object:
		out := &array{}
		if len(k.keys) == 0 {
			for _, key := range t.keys {
				out.elems = append(out.elems, t.vals[key])
			}
		} else {
			out.elems = k.merge(t, k.keys, "")
		}
		o.set(k.field, out)
		return
	}
	if !ok || v == nil {
		o.set(k.field, &array{elems: []any{}})
		return
	}
	// A scalar set by the patch: DataHub would fail to read the record
	// back; leave it for validation to refuse.
}

// merge is ArrayMergingTemplate.mergeToArray. prev is the key field of
// the level above ("" at the top).
//
// One leniency: an object met at a key level that holds the key field of
// the level above as a scalar is an element, not a map of keys. That is a
// path one level shorter than the template's keys, as clients send for
// templates that gained a key field (/terms/<urn> where glossaryTerms is
// keyed by urn and attribution source, /owners/<owner> with an owner).
func (k keyedArray) merge(node any, keys []string, prev string) []any {
	if len(keys) == 0 {
		if a, ok := node.(*array); ok {
			return append([]any(nil), a.elems...)
		}
		return []any{node}
	}
	var out []any
	switch t := node.(type) {
	case *object:
		if prev != "" && !strings.Contains(prev, unitSeparator) {
			switch t.vals[prev].(type) {
			case string, bool, json.Number:
				return []any{t}
			}
		}
		for _, key := range t.keys {
			merged := k.merge(t.vals[key], keys[1:], keys[0])
			if k.reinject && key != "" && !strings.Contains(keys[0], unitSeparator) {
				for _, e := range merged {
					if eo, ok := e.(*object); ok {
						if _, has := eo.get(keys[0]); !has {
							eo.set(keys[0], key)
						}
					}
				}
			}
			out = append(out, merged...)
		}
	case *array:
		for _, e := range t.elems {
			out = append(out, k.merge(e, keys[1:], keys[0])...)
		}
	}
	return out
}
