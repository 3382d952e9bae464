package gms

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/catalogkit/datahub-go/internal/jsonesc"
	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
)

// ownerTypes sets an ownership value's ownerTypes as the OwnershipOwnerTypes
// mutation hook materialises it: the owners grouped by their typeUrn, or
// urn:li:ownershipType:__system__<type in lower case> for an owner with a
// type only, or urn:li:ownershipType:__system__none, with dots in the keys
// written %2E. A value without owners is left as it is, as is one whose
// ownerTypes already hold that. ok is false when the value is unchanged.
func ownerTypes(value json.RawMessage) (json.RawMessage, bool) {
	out, _, changed := ownerTypesHashed(value, 0, nil)
	return out, changed
}

// ownerTypesHashed is ownerTypes given value's jsonx.Hash h (0: unknown)
// that also returns the jsonx.Hash of a changed value (0 when unchanged).
// A kept answer is copied to memory from values (nil: allocated).
func ownerTypesHashed(value json.RawMessage, h uint64, values *valueArena) (json.RawMessage, uint64, bool) {
	return ownerTypesHashedMarks(value, h, values, nil)
}

// ownerTypesHashedMarks is ownerTypesHashed given the marks of the schema
// check that gave value and h (nil: none; see ownerTypesMarked), which
// spare it its own reading of the value.
func ownerTypesHashedMarks(value json.RawMessage, h uint64, values *valueArena, marks []pdl.Mark) (json.RawMessage, uint64, bool) {
	// The answer depends on the value alone, and the same ownership value
	// comes back write after write (the same owners on many entities):
	// answers are kept by value, one a slot by the value's hash, so that a
	// hit takes no lock and writes to no shared memory. A value is kept
	// the second time in a row its slot misses it, so that values seen
	// once (each entity its own owners) cost no copy. A value of the
	// common shape is read without allocating (ownerTypesFast), which
	// needs to know it is valid JSON: a jsonx.Hash other than 0.
	if h == 0 {
		h = jsonx.Hash(value) // 0 still: not valid JSON, or a repeated key
	}
	sh := h
	if sh == 0 {
		sh = maphash.Bytes(ownerTypesSeed, value)
	}
	i := sh % uint64(len(ownerTypesSeen))
	slot := &ownerTypesSeen[i]
	if a := slot.Load(); a != nil && bytes.Equal(a.in, value) {
		if !a.changed {
			return value, 0, false
		}
		return append(values.take(len(a.value)), a.value...), a.hash, true
	}
	var out json.RawMessage
	var oh uint64
	changed, fast := false, false
	if h != 0 && marks != nil {
		out, oh, changed, fast = ownerTypesMarked(value, h, marks, values)
	}
	if h != 0 && !fast {
		out, oh, changed, fast = ownerTypesFast(value, h, values)
	}
	if !fast {
		out, changed = ownerTypesOf(value)
	}
	if changed && oh == 0 {
		oh = jsonx.Hash(out)
	}
	if seen := &ownerTypesMissed[i]; seen.Load() != sh {
		seen.Store(sh)
		return out, oh, changed
	}
	a := &ownerTypesAnswer{in: slices.Clone(value), changed: changed}
	if changed {
		a.value, a.hash = slices.Clone(out), oh
	}
	slot.Store(a)
	return out, oh, changed
}

// ownerTypesAnswer is ownerTypesOf's answer for the value in, with the
// hash of a changed one.
type ownerTypesAnswer struct {
	in      []byte
	value   json.RawMessage
	hash    uint64
	changed bool
}

// ownerTypesSeen holds the answers ownerTypes keeps (at most one a slot,
// the last), ownerTypesMissed the hash of the last value each slot did not
// keep, and ownerTypesSeed seeds the slots' hash of a value that has no
// jsonx.Hash.
var (
	ownerTypesSeen   [1024]atomic.Pointer[ownerTypesAnswer]
	ownerTypesMissed [1024]atomic.Uint64
	ownerTypesSeed   = maphash.MakeSeed()
)

// ownerGroup is one member of the ownerTypes map: a type URN and its
// owners.
type ownerGroup struct {
	key    string
	owners []string
}

// ownerTypesOf is ownerTypes without the kept answers. It reads the value
// with the JSON scanner (no reflection): the owners' owner, type and
// typeUrn, and the ownerTypes already there. A value it cannot read that
// way (not an object, an owners member that is no array of objects, or
// members of the wrong kinds) is left as it is.
func ownerTypesOf(value json.RawMessage) (json.RawMessage, bool) {
	var buf [8]pdl.Member
	ms, ok := pdl.AppendMembers(buf[:0], value)
	if !ok {
		return value, false
	}
	var ownersRaw, typesRaw []byte // a repeated member's last value counts
	for _, m := range ms {
		switch m.Key {
		case "owners":
			ownersRaw = m.Value
		case "ownerTypes":
			typesRaw = m.Value
		}
	}
	if ownersRaw == nil || isNullText(ownersRaw) {
		return value, false
	}
	owners, ok := pdl.ArrayElements(ownersRaw)
	if !ok || len(owners) == 0 {
		return value, false
	}
	var want []ownerGroup
	var obuf [6]pdl.Member
	for _, o := range owners {
		var owner, typ, typeURN string
		var hasType, hasTypeURN bool
		if !isNullText(o) {
			fs, ok := pdl.AppendMembers(obuf[:0], o)
			if !ok {
				return value, false
			}
			for _, f := range fs {
				var dst *string
				var has *bool
				switch f.Key {
				case "owner":
					dst = &owner
				case "type":
					dst, has = &typ, &hasType
				case "typeUrn":
					dst, has = &typeURN, &hasTypeURN
				default:
					continue
				}
				if isNullText(f.Value) { // null leaves the field as it was
					continue
				}
				s, ok := pdl.UnquoteJSON(f.Value)
				if !ok {
					return value, false
				}
				*dst = s
				if has != nil {
					*has = true
				}
			}
		}
		t := "urn:li:ownershipType:__system__none"
		switch {
		case hasTypeURN:
			t = typeURN
		case hasType:
			t = "urn:li:ownershipType:__system__" + strings.ToLower(typ)
		}
		t = strings.ReplaceAll(t, ".", "%2E")
		i := slices.IndexFunc(want, func(g ownerGroup) bool { return g.key == t })
		if i < 0 {
			want = append(want, ownerGroup{key: t})
			i = len(want) - 1
		}
		if !slices.Contains(want[i].owners, owner) {
			want[i].owners = append(want[i].owners, owner)
		}
	}
	have, ok := readOwnerTypes(typesRaw)
	if !ok {
		return value, false
	}
	if sameOwnerTypes(have, want) {
		return value, false
	}
	slices.SortFunc(want, func(a, b ownerGroup) int { return strings.Compare(a.key, b.key) })
	b := appendOwnerTypes(nil, want)
	if out, ok := setMember(value, "ownerTypes", b); ok {
		return out, true
	}
	// Not compact text: the members written again, sorted, compact.
	obj := make(map[string]json.RawMessage, len(ms))
	for _, m := range ms {
		obj[m.Key] = m.Value
	}
	obj["ownerTypes"] = b
	return marshalObject(obj), true
}

// readOwnerTypes reads a value's ownerTypes map (nil or null: none), a
// repeated key's last list winning; false when it is not a map of string
// lists.
func readOwnerTypes(raw []byte) ([]ownerGroup, bool) {
	if raw == nil || isNullText(raw) {
		return nil, true
	}
	ms, ok := pdl.ObjectMembers(raw)
	if !ok {
		return nil, false
	}
	out := make([]ownerGroup, 0, len(ms))
	for _, m := range ms {
		var list []string
		if !isNullText(m.Value) {
			es, ok := pdl.ArrayElements(m.Value)
			if !ok {
				return nil, false
			}
			list = make([]string, len(es))
			for j, e := range es {
				if isNullText(e) {
					continue
				}
				s, ok := pdl.UnquoteJSON(e)
				if !ok {
					return nil, false
				}
				list[j] = s
			}
		}
		if i := slices.IndexFunc(out, func(g ownerGroup) bool { return g.key == m.Key }); i >= 0 {
			out[i].owners = list
			continue
		}
		out = append(out, ownerGroup{key: m.Key, owners: list})
	}
	return out, true
}

// sameOwnerTypes compares two ownerTypes maps (distinct keys), each list
// as a set.
func sameOwnerTypes(a, b []ownerGroup) bool {
	if len(a) != len(b) {
		return false
	}
	for _, ga := range a {
		i := slices.IndexFunc(b, func(g ownerGroup) bool { return g.key == ga.key })
		if i < 0 || len(ga.owners) != len(b[i].owners) {
			return false
		}
		for _, u := range ga.owners {
			if !slices.Contains(b[i].owners, u) {
				return false
			}
		}
	}
	return true
}

// appendOwnerTypes appends the ownerTypes map groups (sorted by key) as
// encoding/json writes a map[string][]string.
func appendOwnerTypes(b []byte, groups []ownerGroup) []byte {
	b = append(b, '{')
	for i, g := range groups {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, g.key)
		b = append(b, ':', '[')
		for j, o := range g.owners {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, o)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendJSONString appends s as json.Marshal writes a string (HTML
// characters escaped).
func appendJSONString(b []byte, s string) []byte {
	return jsonesc.AppendStringHTML(b, s)
}

// isNullText reports whether v is the JSON literal null (white space
// around it allowed).
func isNullText(v []byte) bool {
	return string(bytes.TrimSpace(v)) == "null"
}
