package pdl

import (
	"encoding/binary"
	"math/bits"
)

// nameTable finds a name among a fixed set (a record's field names, an
// enum's symbols, a union's member keys) without a map: a multiplicative
// hash of the name's key (see nameKey), with a multiplier chosen when the
// table is built so that no two names of the set share a slot, leads to the
// one name that can be it, which a single comparison confirms.
type nameTable struct {
	mult  uint64
	shift uint8
	// exact is false when two names of the set have one key (see nameKey),
	// which no multiplier tells apart: lookups then go to the set's map.
	exact bool
	slots []uint16 // a slot's name's index + 1; 0: none
	names []string
}

// nameKey is the word a nameTable hashes: all of a name shorter than
// eight bytes, with its length, or a hash of a longer one, a word at a time.
func nameKey(name []byte) uint64 {
	n := len(name)
	w := uint64(n) * 0x9e3779b97f4a7c15
	switch {
	case n >= 8:
		for i := 0; i+8 < n; i += 8 {
			w = bits.RotateLeft64((w^binary.LittleEndian.Uint64(name[i:]))*0xc2b2ae3d27d4eb4f, 29)
		}
		return w ^ binary.LittleEndian.Uint64(name[n-8:])
	case n >= 4:
		return w ^ (uint64(binary.LittleEndian.Uint32(name)) | uint64(binary.LittleEndian.Uint32(name[n-4:]))<<32)
	}
	for i, c := range name {
		w ^= uint64(c) << (8 * i)
	}
	return w
}

// maxNameTableBits bounds a nameTable's size (1<<bits slots).
const maxNameTableBits = 12

// newNameTable returns the table of names (distinct, at most 65535).
func newNameTable(names []string) *nameTable {
	t := &nameTable{names: names, exact: len(names) < 1<<16}
	keys := make([]uint64, len(names))
	for i, n := range names {
		keys[i] = nameKey([]byte(n))
		for _, k := range keys[:i] {
			if k == keys[i] {
				t.exact = false
			}
		}
	}
	bits := 1
	for 1<<bits < 2*len(names) {
		bits++
	}
	seed := uint64(0x2545f4914f6cdd1d)
	for ; t.exact && bits <= maxNameTableBits; bits++ {
		slots := make([]uint16, 1<<bits)
		for range 256 {
			seed = mix(seed + 0x9e3779b97f4a7c15)
			mult, shift := seed|1, uint8(64-bits)
			clear(slots)
			ok := true
			for i, k := range keys {
				s := (k * mult) >> shift
				if slots[s] != 0 {
					ok = false
					break
				}
				slots[s] = uint16(i + 1)
			}
			if ok {
				t.mult, t.shift, t.slots = mult, shift, slots
				return t
			}
		}
	}
	t.exact = false
	return t
}

// find returns the index of name in t's names; t must be exact.
func (t *nameTable) find(name []byte) (int, bool) {
	i := t.slots[(nameKey(name)*t.mult)>>t.shift]
	if i == 0 || t.names[i-1] != string(name) {
		return 0, false
	}
	return int(i - 1), true
}

// fillSlots builds r.names from r.fields.
func (r *cRecord) fillSlots() {
	names := make([]string, len(r.fields))
	for i, f := range r.fields {
		names[i] = f.name
	}
	r.names = newNameTable(names)
}

// fieldIndex is r.index[string(name)], for a record whose field names are
// distinct (len(r.index) == len(r.fields)).
func (r *cRecord) fieldIndex(name []byte) (int, bool) {
	if !r.names.exact {
		i, ok := r.index[string(name)]
		return i, ok
	}
	return r.names.find(name)
}

// newSymbolTable returns the table of the symbols set.
func newSymbolTable(set map[string]struct{}) *nameTable {
	names := make([]string, 0, len(set))
	for s := range set {
		names = append(names, s)
	}
	return newNameTable(names)
}

// hasSymbol reports whether name is one of the enum t's symbols, as
// t.symbols[string(name)] does.
func (t *cType) hasSymbol(name []byte) bool {
	st := t.symTab
	if st == nil || !st.exact {
		_, ok := t.symbols[string(name)]
		return ok
	}
	_, ok := st.find(name)
	return ok
}

// fillMembers builds t.memberTab and t.memberTypes from t.members.
func (t *cType) fillMembers() {
	names := make([]string, 0, len(t.members))
	for k := range t.members {
		names = append(names, k)
	}
	t.memberTab = newNameTable(names)
	t.memberTypes = make([]*cType, len(names))
	for i, k := range names {
		t.memberTypes[i] = t.members[k]
	}
}

// member is t.members[string(key)] for a union t.
func (t *cType) member(key []byte) *cType {
	mt := t.memberTab
	if mt == nil || !mt.exact {
		return t.members[string(key)]
	}
	if i, ok := mt.find(key); ok {
		return t.memberTypes[i]
	}
	return nil
}
