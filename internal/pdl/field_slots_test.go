package pdl

import "testing"

// TestFieldIndex holds fieldIndex to the map it stands for, for every
// field name of every record and for names that are no field.
func TestFieldIndex(t *testing.T) {
	t.Parallel()
	others := []string{"", "x", "owners ", "Owners", "ownerTypes2", "a\x00", "\xff"}
	for name, r := range compiled().records {
		if len(r.index) != len(r.fields) {
			continue // conformsRecord does not look these up
		}
		names := append([]string(nil), others...)
		for _, f := range r.fields {
			names = append(names, f.name, f.name+"s", f.name[:len(f.name)-1])
		}
		for _, n := range names {
			want, wantOK := r.index[n]
			if got, ok := r.fieldIndex([]byte(n)); got != want || ok != wantOK {
				t.Fatalf("%s: fieldIndex(%q) = %d, %v; want %d, %v", name, n, got, ok, want, wantOK)
			}
		}
	}
}

// TestHasSymbol holds hasSymbol to the map it stands for, for every enum
// of the schemas, their symbols and names that are none.
func TestHasSymbol(t *testing.T) { // and member, for unions
	t.Parallel()
	seen := map[*cType]bool{}
	var walk func(ct *cType)
	walk = func(ct *cType) {
		if ct == nil || seen[ct] {
			return
		}
		seen[ct] = true
		walk(ct.items)
		for _, m := range ct.members {
			walk(m)
		}
		if ct.kind == KindUnion {
			keys := []string{"", "x", "null ", "\xff"}
			for k := range ct.members {
				keys = append(keys, k, k+"s", k[:len(k)-1])
			}
			for _, k := range keys {
				if got, want := ct.member([]byte(k)), ct.members[k]; got != want {
					t.Fatalf("%s: member(%q) = %p, want %p", ct.keys, k, got, want)
				}
			}
			if ct.memberTab == nil || !ct.memberTab.exact {
				t.Errorf("union %s: members not in an exact table", ct.keys)
			}
		}
		if ct.kind != KindEnum {
			return
		}
		names := []string{"", "x", "DATAOWNER ", "dataowner", "\xff"}
		for s := range ct.symbols {
			names = append(names, s, s+"S", s[:len(s)-1])
		}
		for _, n := range names {
			_, want := ct.symbols[n]
			if got := ct.hasSymbol([]byte(n)); got != want {
				t.Fatalf("%s: hasSymbol(%q) = %v, want %v", ct.name, n, got, want)
			}
		}
	}
	enums := 0
	for _, r := range compiled().records {
		for _, f := range r.fields {
			walk(f.typ)
		}
	}
	for _, r := range heldRecords() { // with their own unions
		for _, f := range r.fields {
			walk(f.typ)
		}
	}
	for _, r := range compiled().records {
		for _, f := range r.fields {
			walk(f.typ)
		}
	}
	for ct := range seen {
		if ct.kind == KindEnum {
			enums++
		}
	}
	if enums == 0 {
		t.Fatal("no enum found")
	}
	// The empty symbol, and a table that is not exact (which goes to the
	// map).
	set := map[string]struct{}{"": {}, "ab": {}, "a": {}, "abcdefghij": {}, "abcdefghik": {}}
	for _, st := range []*nameTable{newSymbolTable(set), {}} {
		ct := &cType{kind: KindEnum, symbols: set, symTab: st}
		for _, n := range []string{"", "ab", "a", "b", "abc", "abcdefghij", "abcdefghik", "abcdefghi", "bbcdefghij"} {
			_, want := set[n]
			if got := ct.hasSymbol([]byte(n)); got != want {
				t.Errorf("hasSymbol(%q) = %v, want %v (exact %v)", n, got, want, st.exact)
			}
		}
	}
}

// TestNameTablesExact finds every record's field names and every enum's
// symbols in a table without a map.
func TestNameTablesExact(t *testing.T) {
	t.Parallel()
	for name, r := range compiled().records {
		if len(r.index) == len(r.fields) && !r.names.exact {
			t.Errorf("record %s: field names not in an exact table", name)
		}
		for _, f := range r.fields {
			if st := f.typ.symTab; st != nil && !st.exact {
				t.Errorf("enum %s: symbols not in an exact table", f.typ.name)
			}
		}
	}
	if newNameTable([]string{"ab", "ab"}).exact {
		t.Error("names of one key in an exact table")
	}
}

// heldRecords are the records withDest made for the aspects of entities.
func heldRecords() []*cRecord {
	heldTable.once.Do(func() { heldTable.m = buildHeld() })
	var out []*cRecord
	for _, m := range heldTable.m {
		for _, r := range m {
			out = append(out, r)
		}
	}
	return out
}
