package gms

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
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

// fastGroup is one group of ownerTypesFast: a type key (a slice of the
// key buffer) and its owners, n of them, each by its index in list, the
// owners of the value in their order (slices of the value). A value has at
// most fastOwners owners in all, so that the groups share one list and
// ownerTypesFast's stack holds (and clears) one list, not one a group.
type fastGroup struct {
	key  []byte
	list *[fastOwners][]byte
	idx  [fastOwners]uint8
	n    int
	// hashes, when set, are the pdl.HashString of the owners of list, as
	// the schema check worked them out (ownerTypesMarked); else they are
	// hashed where needed.
	hashes *[fastOwners]uint64
}

// ownerHash returns the pdl.HashString of g's owner k.
func (g *fastGroup) ownerHash(k int) uint64 {
	if g.hashes != nil {
		return g.hashes[g.idx[k]]
	}
	return pdl.HashString(g.owner(k))
}

// owner returns g's owner k.
func (g *fastGroup) owner(k int) []byte { return g.list[g.idx[k]] }

// has reports whether o is one of g's owners.
func (g *fastGroup) has(o []byte) bool {
	for _, x := range g.idx[:g.n] {
		if bytes.Equal(g.list[x], o) {
			return true
		}
	}
	return false
}

// add adds owner i of g's list to g, unless g has that owner already.
func (g *fastGroup) add(o []byte, i int) {
	if !g.has(o) {
		g.idx[g.n] = uint8(i)
		g.n++
	}
}

// ownerTypesFast is ownerTypesOf for the common shape of an ownership
// value, without allocating strings: compact text, owners that are objects
// whose owner, type and typeUrn are strings of printable ASCII that need no
// escape (or null), and an ownerTypes that is absent, null or a map of such
// strings. value must be valid JSON without a repeated key, of jsonx.Hash
// h (not 0). It reads value once, from start to end (skipping the members
// it does not read by their strings and brackets), and a changed value is
// written once, into memory from values, with its jsonx.Hash oh worked out
// from h and the parts that changed (0 when it cannot be: then the caller
// hashes the value). fast is false when value has another shape: then
// ownerTypesOf answers.
func ownerTypesFast(value []byte, h uint64, values *valueArena) (out json.RawMessage, oh uint64, changed, fast bool) {
	n := len(value)
	if n < 2 || value[0] != '{' || value[n-1] != '}' {
		return nil, 0, false, false
	}
	var (
		keyBuf   [fastKeyBytes]byte
		keys     = keyBuf[:0]
		groups   [fastOwners]fastGroup
		owners   [fastOwners][]byte // the owners read, in order
		ngroups  int
		nowners  int
		hasOwner bool // an owners member that is a list of at least one owner
		seen     int  // owners 1, ownerTypes 2
		typesAt  = -1
		typesEnd = -1
		// The keys of the members, for the hash of a value that gets an
		// ownerTypes member it had not (two keys of one hash: no hash).
		topKeys [fastTopKeys][]byte
		ntop    int
	)
	i := 1
	for n > 2 {
		key, j, ok := fastTopKey(value, i)
		if !ok {
			return nil, 0, false, false
		}
		if ntop < len(topKeys) {
			topKeys[ntop] = key
		}
		ntop++
		switch string(key) {
		case "owners":
			if seen&1 != 0 {
				return nil, 0, false, false
			}
			seen |= 1
			switch {
			case hasText(value, j, "null"):
				j += 4
			case hasText(value, j, "[]"):
				j += 2
			case value[j] != '[':
				return nil, 0, false, false
			default:
				hasOwner = true
				for j++; ; {
					if value[j] != '{' || nowners == fastOwners {
						return nil, 0, false, false // null or another kind: ownerTypesOf
					}
					var owner, typ, typeURN []byte
					if j, owner, typ, typeURN, ok = fastOwnerAt(value, j); !ok || j >= n {
						return nil, 0, false, false
					}
					owners[nowners] = owner
					nowners++
					// The type key, after the keys before it.
					start := len(keys)
					if keys, ok = appendOwnerKey(keys, typ, typeURN); !ok {
						return nil, 0, false, false
					}
					var g int
					var key []byte
					if g, key, keys = keyGroup(groups[:ngroups], keys, start); g < 0 {
						g = ngroups
						groups[g].key, groups[g].list = key, &owners
						ngroups++
					}
					groups[g].add(owner, nowners-1)
					if value[j] == ']' {
						j++
						break
					}
					if value[j] != ',' {
						return nil, 0, false, false
					}
					j++
				}
			}
		case "ownerTypes":
			if seen&2 != 0 {
				return nil, 0, false, false
			}
			seen |= 2
			typesAt = j
			if j = compactValueEnd(value, j); j < 0 {
				return nil, 0, false, false
			}
			typesEnd = j
		case "lastModified":
			if j = auditStampEnd(value, j); j < 0 {
				return nil, 0, false, false
			}
		default:
			if j = compactValueEnd(value, j); j < 0 {
				return nil, 0, false, false
			}
		}
		// j < n: every reading stops at a byte it has looked at, and the
		// last byte is the object's brace.
		if value[j] == '}' {
			if j != n-1 {
				return nil, 0, false, false
			}
			break
		}
		if value[j] != ',' {
			return nil, 0, false, false
		}
		i = j + 1
	}
	if !hasOwner {
		return value, 0, false, true
	}
	return fastAnswer(value, h, groups[:ngroups], typesAt, typesEnd, 0, topKeys[:min(ntop, len(topKeys))], ntop <= len(topKeys), values)
}

// appendOwnerKey appends to the key buffer keys the type key of an owner
// of type typ and typeUrn typeURN (nil: absent), dots written %2E; false
// when keys has no room.
func appendOwnerKey(keys, typ, typeURN []byte) ([]byte, bool) {
	switch {
	case typeURN != nil:
		return appendTypeKey(keys, typeURN, false)
	case typ != nil:
		keys, ok := appendKeyText(keys, ownerSystemType)
		if !ok {
			return keys, false
		}
		return appendTypeKey(keys, typ, true)
	}
	return appendKeyText(keys, ownerNoneType)
}

// findGroup returns the index of the group of gs whose key is key, -1 when
// there is none.
func findGroup(gs []fastGroup, key []byte) int {
	for k := range gs {
		if bytes.Equal(gs[k].key, key) {
			return k
		}
	}
	return -1
}

// keyGroup looks up the owner type key keys[start:], just appended to
// keys, among gs: it returns the index of its group and keys without the
// key again, or -1, the key and keys keeping it, for a new group.
func keyGroup(gs []fastGroup, keys []byte, start int) (int, []byte, []byte) {
	key := keys[start:len(keys):len(keys)]
	if g := findGroup(gs, key); g >= 0 {
		return g, nil, keys[:start]
	}
	return -1, key, keys
}

// fastAnswer is ownerTypesFast's answer for value (of jsonx.Hash h, not 0)
// whose owners are in the groups gs: typesAt and typesEnd are the place of
// the value's ownerTypes (-1: none), typesHash its pdl.Hash (0: worked out
// here when needed), keys the value's keys for fastTypesHash (all: every
// one).
func fastAnswer(value []byte, h uint64, gs []fastGroup, typesAt, typesEnd int, typesHash uint64, keys [][]byte, all bool, values *valueArena) (out json.RawMessage, oh uint64, changed, fast bool) {
	n := len(value)
	var types []byte
	if typesAt >= 0 {
		types = value[typesAt:typesEnd]
	}
	same, ok := fastSameTypes(types, gs)
	if !ok {
		return nil, 0, false, false
	}
	if same {
		return value, 0, false, true
	}
	// Sorted by key, as ownerTypesOf sorts them.
	for i := 1; i < len(gs); i++ {
		for k := i; k > 0 && bytes.Compare(gs[k-1].key, gs[k].key) > 0; k-- {
			gs[k-1], gs[k] = gs[k], gs[k-1]
		}
	}
	// The groups are read in place (not copied: a group is a few hundred
	// bytes).
	size := 2 + len(gs) - 1 // braces, commas
	for k := range gs {
		g := &gs[k]
		size += len(g.key) + 5 + g.n - 1 // quotes, colon, brackets, commas
		for o := range g.n {
			size += len(g.owner(o)) + 2
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
	for i := range gs {
		g := &gs[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), g.key...), '"', ':', '[')
		for k := range g.n {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(append(append(b, '"'), g.owner(k)...), '"')
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	if typesAt >= 0 {
		b = append(b, value[typesEnd:]...)
	} else {
		b = append(b, '}')
	}
	return b, fastTypesHash(h, types, typesAt >= 0, typesHash, gs, keys, all), true, true
}

// fastTopKeys is the most keys of an ownership value ownerTypesFast keeps
// for the hash of a value that gets an ownerTypes member.
const fastTopKeys = 16

// ownerTypesKeyHash is the hash of the key "ownerTypes", emptyObjectHash
// the pdl.Hash of {}.
var (
	ownerTypesKeyHash = pdl.HashString([]byte("ownerTypes"))
	emptyObjectHash   = pdl.Hash([]byte("{}"))
)

// fastTypesHash returns the jsonx.Hash of ownerTypesFast's changed value:
// the value of hash h (not 0) with its ownerTypes member, of text types
// when it had one (had; typesHash its pdl.Hash, 0: worked out from types),
// set to the map of the groups gs (sorted, their keys and owners plain
// text), from the sum of the members' hashes. keys are the value's keys
// when all (the keys' hashes must differ from the new member's); 0 when
// the hash cannot be worked out so (two keys of the map, or the new key
// and another, of one hash, and whatever hashes to 0): the caller hashes
// the value.
func fastTypesHash(h uint64, types []byte, had bool, typesHash uint64, gs []fastGroup, keys [][]byte, all bool) uint64 {
	sum := pdl.HashObjectSum(h)
	if had {
		old := typesHash
		switch {
		case old != 0:
		case string(types) == "{}":
			old = emptyObjectHash // the common ownerTypes of a new value
		default:
			old = pdl.Hash(types)
		}
		if old == 0 {
			return 0
		}
		sum -= pdl.HashMember(ownerTypesKeyHash, old)
	} else {
		if !all {
			return 0
		}
		for _, k := range keys {
			if pdl.HashString(k) == ownerTypesKeyHash {
				return 0
			}
		}
	}
	var groupKeys [fastOwners]uint64
	var mapSum uint64
	for i := range gs {
		g := &gs[i]
		kh := pdl.HashString(g.key)
		for _, o := range groupKeys[:i] {
			if o == kh {
				return 0
			}
		}
		groupKeys[i] = kh
		list := pdl.HashEmptyArray()
		for k := range g.n {
			list = pdl.HashElement(list, g.ownerHash(k))
		}
		mapSum += pdl.HashMember(kh, list)
	}
	sum += pdl.HashMember(ownerTypesKeyHash, pdl.HashObject(mapSum))
	return pdl.HashObject(sum) // 0 only where Hash gives 0 too
}

// appendKeyText is appendTypeKey for s without dots or upper case, such as
// ownerSystemType: s as it is.
func appendKeyText(b []byte, s string) ([]byte, bool) {
	if len(b)+len(s)+2 > cap(b) { // where appendTypeKey finds no room
		return b, false
	}
	return append(b, s...), true
}

// hasText reports whether b holds s at i.
func hasText(b []byte, i int, s string) bool {
	return len(b)-i >= len(s) && string(b[i:i+len(s)]) == s
}

// fastKey reads the key of a member of compact object text obj, whose
// quote is at i, and the colon after it: the key's bytes and the index
// past the colon. false for a key that is not plain text (plainText) or
// text that is not compact.
func fastKey(obj []byte, i int) (key []byte, next int, ok bool) {
	if i >= len(obj) || obj[i] != '"' {
		return nil, 0, false
	}
	e := plainEnd(obj, i+1)
	if e < 0 || e+1 >= len(obj) || obj[e] != '"' || obj[e+1] != ':' {
		return nil, 0, false
	}
	return obj[i+1 : e], e + 2, true
}

// fastTopKey is fastKey that matches the keys of an ownership value
// (owners, ownerTypes, lastModified) with their quotes and colon as
// literals, a word or two compared, and reads any other key as fastKey
// does.
func fastTopKey(obj []byte, i int) (key []byte, next int, ok bool) {
	// Compares with constants of at most 16 bytes, which the compiler
	// writes as a load or two (hasText's calls memequal).
	if r := obj[min(i, len(obj)):]; len(r) >= 15 {
		switch {
		case string(r[:9]) == `"owners":`:
			return r[1:7], i + 9, true
		case string(r[:13]) == `"ownerTypes":`:
			return r[1:11], i + 13, true
		case string(r[:15]) == `"lastModified":`:
			return r[1:13], i + 15, true
		}
	}
	return fastKey(obj, i)
}

// fastOwnerKey is fastTopKey for the keys of an owner (owner, type,
// typeUrn).
func fastOwnerKey(obj []byte, i int) (key []byte, next int, ok bool) {
	if r := obj[min(i, len(obj)):]; len(r) >= 10 {
		switch {
		case string(r[:8]) == `"owner":`:
			return r[1:6], i + 8, true
		case string(r[:7]) == `"type":`:
			return r[1:5], i + 7, true
		case string(r[:10]) == `"typeUrn":`:
			return r[1:8], i + 10, true
		}
	}
	return fastKey(obj, i)
}

// fastOwnerAt reads the owner object of compact text b whose brace is at
// i: its owner, type and typeUrn (nil when absent or null; the last of a
// repeated key counts) and the index past its closing brace. false when
// one is not a plain string (plainText) or the text is not compact.
func fastOwnerAt(b []byte, i int) (next int, owner, typ, typeURN []byte, ok bool) {
	i++
	if i < len(b) && b[i] == '}' {
		return i + 1, nil, nil, nil, true
	}
	for {
		key, j, ok := fastOwnerKey(b, i)
		if !ok {
			return 0, nil, nil, nil, false
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
		switch {
		case dst == nil:
			if j = compactValueEnd(b, j); j < 0 {
				return 0, nil, nil, nil, false
			}
		case hasText(b, j, "null"):
			j += 4
		case j < len(b) && b[j] == '"':
			e := plainEnd(b, j+1)
			if e < 0 || b[e] != '"' {
				return 0, nil, nil, nil, false
			}
			*dst = b[j+1 : e : e]
			j = e + 1
		default:
			return 0, nil, nil, nil, false
		}
		if j >= len(b) {
			return 0, nil, nil, nil, false
		}
		if b[j] == '}' {
			return j + 1, owner, typ, typeURN, true
		}
		if b[j] != ',' {
			return 0, nil, nil, nil, false
		}
		i = j + 1
	}
}

// plainEnd returns the index of the first byte of b from i that is not
// plain text (plainText), -1 when there is none.
func plainEnd(b []byte, i int) int {
	for ; i < len(b); i++ {
		if !plainByte[b[i]] {
			return i
		}
	}
	return -1
}

// plainByte marks the bytes of plain text: printable ASCII but a quote, a
// backslash and the HTML characters.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c <= 0x7e; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// compactValueEnd returns the index just past the JSON value of compact
// text b that starts at i, within an object or an array (the byte there
// is one of ",}]"), or -1 when b ends first, the value is empty, or it
// holds a byte below 0x21 outside its strings or a control character
// within them (the text is taken to be valid JSON otherwise). A string's
// bytes are read eight at a time.
func compactValueEnd(b []byte, i int) int {
	if i >= len(b) || b[i] == ',' || b[i] == '}' || b[i] == ']' {
		return -1
	}
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			if i = stringEnd(b, i+1); i < 0 {
				return -1
			}
			i++
		case '{', '[':
			depth++
			i++
		case '}', ']':
			if depth == 0 {
				return i
			}
			depth--
			i++
		case ',':
			if depth == 0 {
				return i
			}
			i++
		default:
			if c <= ' ' {
				return -1
			}
			// The rest of a number or a literal, in line.
			for i++; i < len(b) && scalarByte[b[i]]; i++ {
			}
		}
	}
	return -1
}

// auditStampEnd is compactValueEnd for the common shape of an ownership
// value's lastModified, {"time":<digits>,"actor":"<text>"}, matched by its
// literals with one string scan; any other text is read by
// compactValueEnd.
func auditStampEnd(b []byte, i int) int {
	const stampTime, stampActor = `{"time":`, `,"actor":"`
	if r := b[min(i, len(b)):]; len(r) >= len(stampTime) && string(r[:len(stampTime)]) == stampTime {
		j := i + len(stampTime)
		k := j
		for k < len(b) && '0' <= b[k] && b[k] <= '9' {
			k++
		}
		if r := b[k:]; k > j && len(r) >= len(stampActor) && string(r[:len(stampActor)]) == stampActor {
			if e := stringEnd(b, k+len(stampActor)); e >= 0 && e+2 < len(b) && b[e+1] == '}' {
				if c := b[e+2]; c == ',' || c == '}' || c == ']' {
					return e + 2
				}
			}
		}
	}
	return compactValueEnd(b, i)
}

// scalarByte marks the bytes compactValueEnd moves past in a number or a
// literal: all above ' ' but a quote and the brackets, braces and comma it
// looks at.
var scalarByte = func() (t [256]bool) {
	for c := '!'; c <= 0xff; c++ {
		t[c] = c != '"' && c != '{' && c != '}' && c != '[' && c != ']' && c != ','
	}
	return t
}()

// stringEnd returns the index of the quote that closes the string whose
// text starts at b[i], or -1 when b ends first or the text holds a
// control character.
func stringEnd(b []byte, i int) int {
	for {
		for ; i+8 <= len(b); i += 8 {
			w := binary.LittleEndian.Uint64(b[i:])
			if m := stringStops(w); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
		}
		if i >= len(b) {
			return -1
		}
		switch c := b[i]; {
		case c == '"':
			return i
		case c == '\\':
			i += 2 // the escaped byte (valid JSON: not a control character)
		case c < 0x20:
			return -1
		default:
			i++
		}
	}
}

// stringStops returns a mask whose lowest set bit is the high bit of the
// first byte of w (in memory order) that is a quote, a backslash or below
// 0x20; 0 when there is none. (Bits past the first may be false ones.)
func stringStops(w uint64) uint64 {
	const lows, highs = 0x0101010101010101, 0x8080808080808080
	q, s := w^('"'*lows), w^('\\'*lows)
	return ((q-lows)&^q | (s-lows)&^s | (w-0x20*lows)&^w) & highs
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
	n := len(b)
	if n+3*len(s) <= cap(b) {
		// Room for the longest writing: a byte at a time by a table, no
		// room checked (appendTypeKeyEach checks it a byte).
		table := &sameByte
		if lower {
			table = &lowerByte
		}
		out := b[n : n+3*len(s)]
		k := 0
		for _, c := range s {
			if c == '.' {
				out[k], out[k+1], out[k+2] = '%', '2', 'E'
				k += 3
				continue
			}
			out[k] = table[c]
			k++
		}
		return b[:n+k], true
	}
	return appendTypeKeyEach(b, s, lower)
}

// appendTypeKeyEach is appendTypeKey that checks the room of b before each
// byte it writes.
func appendTypeKeyEach(b, s []byte, lower bool) ([]byte, bool) {
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

// sameByte maps every byte to itself, lowerByte an ASCII upper-case letter
// to its lower case and every other byte to itself.
var sameByte, lowerByte = func() (same, lower [256]byte) {
	for c := range 256 {
		same[c], lower[c] = byte(c), byte(c)
		if 'A' <= c && c <= 'Z' {
			lower[c] = byte(c + 'a' - 'A')
		}
	}
	return same, lower
}()

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
			if len(list) == 0 || list[0] != '[' {
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
				if g == nil || !g.has(list[j+1:e-1]) {
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
