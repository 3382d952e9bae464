package jsonx

import (
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// ValuesAt returns the JSON text of the values at path in the JSON document data, as subslices
// of data, in document order. path is a [pdl.SearchableField.Path] or [pdl.Relationship.Path]: "/" then
// segments, each a member name (a record field, or a union member's key), "*" for every element
// of an array or every value of an object, or "$key" for every key of an object (returned as its
// JSON string literal). A member name that appears twice in an object counts once, with its last
// value and at its last place, as encoding/json decodes it; missing members and JSON nulls yield nothing. The empty path and "/"
// return data itself (nothing if it is not valid JSON); otherwise text that is not valid JSON
// yields the values found before the point where it breaks.
func ValuesAt(data []byte, path string) [][]byte {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if path == "" || path == "/" {
		segs = nil
	}
	data = trimSpace(data)
	if len(segs) == 0 {
		if !pdl.Valid(data) {
			return nil
		}
		return [][]byte{data}
	}
	var out [][]byte
	valuesAt(data, segs, &out)
	return out
}

func valuesAt(v []byte, segs []string, out *[][]byte) {
	if len(v) == 0 || string(v) == "null" {
		return
	}
	if len(segs) == 0 {
		*out = append(*out, v)
		return
	}
	seg, rest := segs[0], segs[1:]
	switch {
	case v[0] == '[' && seg == "*":
		elems, _ := pdl.ArrayElements(v)
		for _, e := range elems {
			valuesAt(e, rest, out)
		}
	case v[0] != '{':
		return
	default:
		// An object: its members with duplicates dropped, the last value of a name winning.
		type member struct {
			name        string
			quoted, val []byte
		}
		var ms []member
		pdl.EachMember(v, func(key []byte, plain bool, value []byte) bool {
			q := quotedKey(v, key)
			name := string(key)
			if !plain {
				name, _ = pdl.UnquoteJSON(q)
			}
			ms = append(ms, member{name, q, value})
			return true
		})
		var last map[string]int // name -> index of its last member, for large objects
		if len(ms) > 16 {
			last = make(map[string]int, len(ms))
			for i, m := range ms {
				last[m.name] = i
			}
		}
		for i, m := range ms {
			if last != nil && last[m.name] != i ||
				last == nil && slices.ContainsFunc(ms[i+1:], func(o member) bool { return o.name == m.name }) {
				continue // a later member of the same name wins
			}
			switch {
			case seg == "*":
				valuesAt(m.val, rest, out)
			case seg == "$key":
				if len(rest) == 0 {
					*out = append(*out, m.quoted)
				}
			case m.name == seg:
				valuesAt(m.val, rest, out)
			}
		}
	}
}

// quotedKey widens key, a subslice of doc between quotes (as EachMember gives it), to include
// the quotes.
func quotedKey(doc, key []byte) []byte {
	off := cap(doc) - cap(key) // key's offset in doc: they share doc's array
	if off >= 1 && off+len(key) < len(doc) && doc[off-1] == '"' && doc[off+len(key)] == '"' {
		return doc[off-1 : off+len(key)+1]
	}
	return append(append([]byte{'"'}, key...), '"')
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
