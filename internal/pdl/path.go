package pdl

import "strings"

// ValuesAt returns the JSON text of the values at path in the JSON document data, as subslices
// of data, in document order. path is a [SearchableField.Path] or [Relationship.Path]: "/" then
// segments, each a member name (a record field, or a union member's key), "*" for every element
// of an array or every value of an object, or "$key" for every key of an object (returned as its
// JSON string literal). A member that appears twice counts once, with its last value, as
// encoding/json decodes it; missing members and JSON nulls yield nothing. The empty path and "/"
// return data itself. Text that is not valid JSON yields nothing below the point where it breaks.
func ValuesAt(data []byte, path string) [][]byte {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if path == "" || path == "/" {
		segs = nil
	}
	var out [][]byte
	valuesAt(trimSpace(data), segs, &out)
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
		elems, _ := ArrayElements(v)
		for _, e := range elems {
			valuesAt(e, rest, out)
		}
	case v[0] != '{':
		return
	case seg == "*" || seg == "$key":
		EachMember(v, func(key []byte, _ bool, value []byte) bool {
			if seg == "*" {
				valuesAt(value, rest, out)
			} else if len(rest) == 0 {
				*out = append(*out, quotedKey(v, key))
			}
			return true
		})
	default:
		var last []byte
		found := false
		EachMember(v, func(key []byte, plain bool, value []byte) bool {
			if plain && string(key) == seg {
				last, found = value, true
			} else if !plain {
				if k, ok := UnquoteJSON(quotedKey(v, key)); ok && k == seg {
					last, found = value, true
				}
			}
			return true
		})
		if found {
			valuesAt(last, rest, out)
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
