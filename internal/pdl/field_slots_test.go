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
func TestHasSymbol(t *testing.T) {
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
	for ct := range seen {
		if ct.kind == KindEnum {
			enums++
		}
	}
	if enums == 0 {
		t.Fatal("no enum found")
	}
	// The empty symbol, and symbols no multiplier tells apart (one length,
	// one first, middle and last four bytes), which go to the map.
	for _, set := range []map[string]struct{}{
		{"": {}, "ab": {}, "a": {}},
		{"": {}, "ab": {}, "a": {}, "abcdXYefghijklmn": {}, "abcdZWefghijklmn": {}},
	} {
		ct := &cType{kind: KindEnum, symbols: set, symTab: newSymbolTable(set)}
		for _, n := range []string{"", "ab", "a", "b", "abc", "abcdXYefghijklmn", "abcdZWefghijklmn", "abcdQQefghijklmn", "abcdefgh"} {
			_, want := set[n]
			if got := ct.hasSymbol([]byte(n)); got != want {
				t.Errorf("hasSymbol(%q) = %v, want %v (exact %v)", n, got, want, ct.symTab.exact)
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
	if newNameTable([]string{"abcdXYefghijklmn", "abcdZWefghijklmn"}).exact {
		t.Error("names of one key in an exact table")
	}
}
