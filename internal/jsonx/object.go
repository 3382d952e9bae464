package jsonx

import (
	"encoding/json"
	"slices"
)

// Object is a JSON object as its members' texts, each key once: setting a
// key again replaces its value, as in a decoded map. It stands for a
// map[string]json.RawMessage where objects have a dozen members at most
// (a systemMetadata).
type Object []Member

// Get returns the value of key k.
func (o Object) Get(k string) (json.RawMessage, bool) {
	for _, m := range o {
		if m.Key == k {
			return m.Value, true
		}
	}
	return nil, false
}

// Set sets the value of key k, appending the member when there is none.
func (o *Object) Set(k string, v json.RawMessage) {
	for i := range *o {
		if (*o)[i].Key == k {
			(*o)[i].Value = v
			return
		}
	}
	*o = append(*o, Member{Key: k, Value: v})
}

// Del removes key k.
func (o *Object) Del(k string) {
	for i := range *o {
		if (*o)[i].Key == k {
			*o = slices.Delete(*o, i, i+1)
			return
		}
	}
}

// Dedupe keeps the last value of a repeated key, where it first appears,
// as decoding into a map does; o itself when no key repeats.
func (o Object) Dedupe() Object {
	for i := 1; i < len(o); i++ {
		for j := range i {
			if o[j].Key == o[i].Key {
				var out Object
				for _, m := range o {
					out.Set(m.Key, m.Value)
				}
				return out
			}
		}
	}
	return o
}
