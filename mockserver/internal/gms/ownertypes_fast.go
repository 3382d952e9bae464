package gms

import (
	"bytes"
	"encoding/binary"
	"encoding/json"

	"github.com/catalogkit/datahub-go/internal/jsonx"
)

// Bounds of the values ownerTypesFast reads: at most this many owners,
// groups and existing ownerTypes entries, and type keys that fit its stack
// buffer. Larger values take ownerTypesOf.
const (
	fastOwners   = 8
	fastKeyBytes = 512
)

// ownerSystemType prefixes an owner's type, in lower case, when it has no
// typeUrn; ownerNoneType is the key of an owner with neither.
const (
	ownerSystemType = "urn:li:ownershipType:__system__"
	ownerNoneType   = "urn:li:ownershipType:__system__none"
)

// fastGroup is one group of ownerTypesFast: a type key and its owners, all
// slices of the value or of the key buffer.
type fastGroup struct {
	key    []byte
	owners [fastOwners][]byte
	n      int
}

// ownerTypesFast is ownerTypesOf for the common shape of an ownership
// value, without allocating strings: compact text, owners that are objects
// whose owner, type and typeUrn are strings of printable ASCII that need no
// escape (or null), and an ownerTypes that is absent, null or a map of such
// strings. value must be valid JSON without a repeated key (its jsonx.Hash
// is not 0). A changed value is written once, into memory from values.
// fast is false when value has another shape: then ownerTypesOf answers.
func ownerTypesFast(value []byte, values *valueArena) (out json.RawMessage, changed, fast bool) {
	n := len(value)
	if n < 2 || value[0] != '{' || value[n-1] != '}' || hasControl(value) {
		return nil, false, false
	}
	var owners, types []byte
	typesAt, typesEnd := -1, -1
	if n > 2 {
		for i := 1; ; {
			key, ke, ve, ok := fastMember(value, i)
			if !ok {
				return nil, false, false
			}
			switch string(key) {
			case "owners":
				owners = value[ke+1 : ve]
			case "ownerTypes":
				types, typesAt, typesEnd = value[ke+1:ve], ke+1, ve
			}
			if value[ve] == '}' {
				if ve != n-1 {
					return nil, false, false
				}
				break
			}
			if value[ve] != ',' {
				return nil, false, false
			}
			i = ve + 1
		}
	}
	if owners == nil || string(owners) == "null" || string(owners) == "[]" {
		return value, false, true
	}
	if owners[0] != '[' {
		return nil, false, false
	}
	var (
		keyBuf  [fastKeyBytes]byte
		keys    = keyBuf[:0]
		groups  [fastOwners]fastGroup
		ngroups int
		nowners int
	)
	for j := 1; ; {
		if j >= len(owners) || owners[j] != '{' {
			return nil, false, false // null or another kind: ownerTypesOf
		}
		e := jsonx.CompactValueEnd(owners, j)
		if e < 0 || e >= len(owners) || nowners == fastOwners {
			return nil, false, false
		}
		nowners++
		owner, typ, typeURN, ok := fastOwner(owners[j:e])
		if !ok {
			return nil, false, false
		}
		// The type key, dots written %2E, after the keys before it.
		start := len(keys)
		switch {
		case typeURN != nil:
			keys, ok = appendTypeKey(keys, typeURN, false)
		case typ != nil:
			keys, ok = appendTypeKey(keys, []byte(ownerSystemType), false)
			if ok {
				keys, ok = appendTypeKey(keys, typ, true)
			}
		default:
			keys, ok = appendTypeKey(keys, []byte(ownerNoneType), false)
		}
		if !ok {
			return nil, false, false
		}
		key := keys[start:len(keys):len(keys)]
		g := -1
		for k := range ngroups {
			if bytes.Equal(groups[k].key, key) {
				g = k
				keys = keys[:start] // the same key as the group's
				break
			}
		}
		if g < 0 {
			g = ngroups
			groups[g].key = key
			ngroups++
		}
		if !containsBytes(groups[g].owners[:groups[g].n], owner) {
			groups[g].owners[groups[g].n] = owner
			groups[g].n++
		}
		if owners[e] == ']' {
			if e != len(owners)-1 {
				return nil, false, false
			}
			break
		}
		if owners[e] != ',' {
			return nil, false, false
		}
		j = e + 1
	}
	same, ok := fastSameTypes(types, groups[:ngroups])
	if !ok {
		return nil, false, false
	}
	if same {
		return value, false, true
	}
	// Sorted by key, as ownerTypesOf sorts them.
	gs := groups[:ngroups]
	for i := 1; i < len(gs); i++ {
		for k := i; k > 0 && bytes.Compare(gs[k-1].key, gs[k].key) > 0; k-- {
			gs[k-1], gs[k] = gs[k], gs[k-1]
		}
	}
	size := 2 + len(gs) - 1 // braces, commas
	for _, g := range gs {
		size += len(g.key) + 5 + g.n - 1 // quotes, colon, brackets, commas
		for _, o := range g.owners[:g.n] {
			size += len(o) + 2
		}
	}
	const member = `"ownerTypes":`
	var b []byte
	if typesAt >= 0 {
		b = values.take(typesAt + size + n - typesEnd)
		b = append(b, value[:typesAt]...)
	} else {
		b = values.take(n + 1 + len(member) + size)
		b = append(append(append(b, value[:n-1]...), ','), member...)
	}
	b = append(b, '{')
	for i, g := range gs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), g.key...), '"', ':', '[')
		for k, o := range g.owners[:g.n] {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(append(append(b, '"'), o...), '"')
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	if typesAt >= 0 {
		b = append(b, value[typesEnd:]...)
	} else {
		b = append(b, '}')
	}
	return b, true, true
}

// fastMember reads the member of compact object text obj whose key starts
// at i: the key's bytes, the index of its colon and the end of its value.
// false for a key with an escape or text that is not compact.
func fastMember(obj []byte, i int) (key []byte, ke, ve int, ok bool) {
	if i >= len(obj) || obj[i] != '"' {
		return nil, 0, 0, false
	}
	ke = jsonx.CompactValueEnd(obj, i)
	if ke < 0 || ke >= len(obj) || obj[ke] != ':' {
		return nil, 0, 0, false
	}
	ve = jsonx.CompactValueEnd(obj, ke+1)
	if ve < 0 || ve >= len(obj) {
		return nil, 0, 0, false
	}
	key = obj[i+1 : ke-1]
	if !plainText(key) {
		return nil, 0, 0, false
	}
	return key, ke, ve, true
}

// fastOwner reads an owner object: its owner, type and typeUrn (nil when
// absent or null; the last of a repeated key counts). false when one is
// not a plain string (plainText).
func fastOwner(obj []byte) (owner, typ, typeURN []byte, ok bool) {
	if len(obj) == 2 {
		return nil, nil, nil, true
	}
	for i := 1; ; {
		key, ke, ve, ok := fastMember(obj, i)
		if !ok {
			return nil, nil, nil, false
		}
		var dst *[]byte
		switch string(key) {
		case "owner":
			dst = &owner
		case "type":
			dst = &typ
		case "typeUrn":
			dst = &typeURN
		}
		if v := obj[ke+1 : ve]; dst != nil && string(v) != "null" {
			if len(v) < 2 || v[0] != '"' || !plainText(v[1:len(v)-1]) {
				return nil, nil, nil, false
			}
			*dst = v[1 : len(v)-1 : len(v)-1]
		}
		if obj[ve] == '}' {
			return owner, typ, typeURN, ve == len(obj)-1
		}
		if obj[ve] != ',' {
			return nil, nil, nil, false
		}
		i = ve + 1
	}
}

// plainText reports whether a string literal's body b decodes to itself
// and encoding/json writes it back unchanged: printable ASCII without a
// quote, a backslash or an HTML character.
func plainText(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// appendTypeKey appends s to the key buffer b with its dots written %2E (in
// lower case when lower); false when b has no room.
func appendTypeKey(b, s []byte, lower bool) ([]byte, bool) {
	for _, c := range s {
		if len(b)+3 > cap(b) {
			return b, false
		}
		switch {
		case c == '.':
			b = append(b, '%', '2', 'E')
		case lower && 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return b, true
}

// hasControl reports whether b holds a control character, which the JSON
// text of ownerTypesOf's reading refuses inside a string (and compact text
// has nowhere else).
func hasControl(b []byte) bool {
	const lows, highs = 0x0101010101010101, 0x8080808080808080
	for ; len(b) >= 8; b = b[8:] {
		// A byte below 0x20 borrows into its high bit; a byte of 0x80 or
		// more (its high bit set already) is masked out by ^w.
		if w := binary.LittleEndian.Uint64(b); (w-0x20*lows)&^w&highs != 0 {
			return true
		}
	}
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

func containsBytes(list [][]byte, b []byte) bool {
	for _, x := range list {
		if bytes.Equal(x, b) {
			return true
		}
	}
	return false
}

// fastSameTypes is sameOwnerTypes of the ownerTypes text types (nil or
// null: none) and want, reading types in place. ok is false when types is
// not a compact map of lists of plain strings with at most fastOwners
// entries.
func fastSameTypes(types []byte, want []fastGroup) (same, ok bool) {
	if types == nil || string(types) == "null" || string(types) == "{}" {
		return len(want) == 0, true
	}
	if types[0] != '{' {
		return false, false
	}
	same = true
	count := 0
	for i := 1; ; {
		key, ke, ve, ok := fastMember(types, i)
		if !ok || count == fastOwners {
			return false, false
		}
		count++
		var g *fastGroup
		for k := range want {
			if bytes.Equal(want[k].key, key) {
				g = &want[k]
				break
			}
		}
		list := types[ke+1 : ve]
		n := 0
		if string(list) != "null" {
			if list[0] != '[' {
				return false, false
			}
			for j := 1; string(list) != "[]"; {
				if j >= len(list) || list[j] != '"' {
					return false, false // a null or another kind
				}
				e := jsonx.CompactValueEnd(list, j)
				if e < 0 || e >= len(list) || !plainText(list[j+1:e-1]) {
					return false, false
				}
				n++
				if g == nil || !containsBytes(g.owners[:g.n], list[j+1:e-1]) {
					same = false
				}
				if list[e] == ']' {
					if e != len(list)-1 {
						return false, false
					}
					break
				}
				if list[e] != ',' {
					return false, false
				}
				j = e + 1
			}
		}
		if g == nil || n != g.n {
			same = false
		}
		if types[ve] == '}' {
			if ve != len(types)-1 {
				return false, false
			}
			break
		}
		if types[ve] != ',' {
			return false, false
		}
		i = ve + 1
	}
	return same && count == len(want), true
}
