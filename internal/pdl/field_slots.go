package pdl

// The slots of a record's field names: a field name's slot mixes its
// length and its first and last bytes, so that a key is matched against
// the one field that can be it without hashing it all (see fieldIndex).
const (
	fieldSlots = 64
	slotNone   = -1 // no field has the slot
	slotShared = -2 // several have: the map decides
)

// fieldSlot returns the slot of the field name or key name.
func fieldSlot[T string | []byte](name T) int {
	if len(name) == 0 {
		return 0
	}
	return int((uint(len(name))*7 + uint(name[0])*3 + uint(name[len(name)-1])) % fieldSlots)
}

// fillSlots fills r.slots from r.fields.
func (r *cRecord) fillSlots() {
	for i := range r.slots {
		r.slots[i] = slotNone
	}
	for i, f := range r.fields {
		h := fieldSlot(f.name)
		switch {
		case i > 127:
			r.slots[h] = slotShared
		case r.slots[h] == slotNone:
			r.slots[h] = int8(i)
		default:
			r.slots[h] = slotShared
		}
	}
}

// fieldIndex is r.index[string(name)], for a record whose field names are
// distinct (len(r.index) == len(r.fields)).
func (r *cRecord) fieldIndex(name []byte) (int, bool) {
	switch i := r.slots[fieldSlot(name)]; i {
	case slotNone:
		return 0, false
	case slotShared:
		i, ok := r.index[string(name)]
		return i, ok
	default:
		if r.fields[i].name == string(name) {
			return int(i), true
		}
		return 0, false
	}
}

// symbolTable is an enum's symbols by fieldSlot: names holds the symbol of
// a slot only one symbol has; shared marks a slot several (or the empty
// symbol) have, which the map decides.
type symbolTable struct {
	names  [fieldSlots]string
	shared [fieldSlots]bool
}

// newSymbolTable returns the table of the symbols set.
func newSymbolTable(set map[string]struct{}) *symbolTable {
	st := new(symbolTable)
	for s := range set {
		h := fieldSlot(s)
		if s == "" || st.names[h] != "" {
			st.shared[h] = true
		}
		st.names[h] = s
	}
	return st
}

// hasSymbol reports whether name is one of the enum t's symbols, as
// t.symbols[string(name)] does.
func (t *cType) hasSymbol(name []byte) bool {
	st := t.symTab
	if st == nil {
		_, ok := t.symbols[string(name)]
		return ok
	}
	h := fieldSlot(name)
	if st.shared[h] {
		_, ok := t.symbols[string(name)]
		return ok
	}
	return st.names[h] != "" && st.names[h] == string(name)
}
