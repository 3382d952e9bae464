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
	// The shared slots and the empty symbol.
	st := newSymbolTable(map[string]struct{}{"": {}, "ab": {}, "a": {}})
	ct := &cType{kind: KindEnum, symbols: map[string]struct{}{"": {}, "ab": {}, "a": {}}, symTab: st}
	for n, want := range map[string]bool{"": true, "ab": true, "a": true, "b": false, "abc": false} {
		if got := ct.hasSymbol([]byte(n)); got != want {
			t.Errorf("hasSymbol(%q) = %v, want %v", n, got, want)
		}
	}
}
