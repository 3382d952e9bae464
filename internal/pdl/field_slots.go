package pdl

import "encoding/binary"

// nameTable finds a name among a fixed set (a record's field names, an
// enum's symbols) without a map: a multiplicative hash of the name's length
// and of its first, middle and last four bytes, with a multiplier chosen when the
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

// nameKey is the word a nameTable hashes: name's length and its first,
// middle and last four bytes (all of a shorter name).
func nameKey(name []byte) uint64 {
	n := len(name)
	var w uint64
	if n >= 4 {
		w = uint64(binary.LittleEndian.Uint32(name)) | uint64(binary.LittleEndian.Uint32(name[n-4:]))<<32
		w ^= uint64(binary.LittleEndian.Uint32(name[n/2-2:])) * 0xc2b2ae3d27d4eb4f
	} else {
		for i, c := range name {
			w |= uint64(c) << (8 * i)
		}
	}
	return w + uint64(n)*0x9e3779b97f4a7c15
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
