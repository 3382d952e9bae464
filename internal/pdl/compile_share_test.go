package pdl

import (
	"maps"
	"slices"
	"testing"
)

// TestCompileSharesTypes compares the compiled schemas, whose equal types
// are one cType, with a compilation that gives every use site its own
// (the general path): every record's fields must have the same types, as
// far as the checks read them. It also checks that types are shared (every
// plain string field's type is one cType).
func TestCompileSharesTypes(t *testing.T) {
	t.Parallel()
	shared, general := compiled(), compileSchemas(false)
	if len(shared.records) != len(general.records) {
		t.Fatalf("%d records shared, %d general", len(shared.records), len(general.records))
	}
	seen := map[[2]*cType]bool{}
	for name, g := range general.records {
		s := shared.records[name]
		if s == nil {
			t.Fatalf("record %s missing", name)
		}
		compareRecords(t, name, s, g, seen)
	}
	var plain []*cType
	countTypes := func(c *compiledSchemas) int {
		n := map[*cType]bool{}
		for _, r := range c.records {
			for _, f := range r.fields {
				n[f.typ] = true
				if f.typ.kind == KindString && f.typ.urn == nil && !slices.Contains(plain, f.typ) && c == shared {
					plain = append(plain, f.typ)
				}
			}
		}
		return len(n)
	}
	ns, ng := countTypes(shared), countTypes(general)
	if len(plain) != 1 {
		t.Errorf("the plain string fields have %d types, want 1 shared", len(plain))
	}
	if ns*2 > ng {
		t.Errorf("the fields have %d distinct types shared, %d general: want fewer than half", ns, ng)
	}
}

// compareRecords fails t where the records s and g, both named name,
// differ in what the checks read.
func compareRecords(t *testing.T, name string, s, g *cRecord, seen map[[2]*cType]bool) {
	t.Helper()
	if s.name != g.name || len(s.fields) != len(g.fields) || s.required != g.required ||
		s.keyHashClash != g.keyHashClash || !maps.Equal(s.index, g.index) || s.names.exact != g.names.exact ||
		!slices.Equal(s.names.names, g.names.names) {
		t.Fatalf("record %s differs", name)
	}
	for i := range g.fields {
		sf, gf := &s.fields[i], &g.fields[i]
		if sf.name != gf.name || sf.required != gf.required || sf.keyHash != gf.keyHash || sf.lit != gf.lit {
			t.Fatalf("%s.%s differs", name, gf.name)
		}
		compareTypes(t, name+"."+gf.name, sf.typ, gf.typ, seen)
	}
}

// compareTypes fails t where the types s and g at path differ in what the
// checks read; records are compared by name (compareRecords compares each
// record once).
func compareTypes(t *testing.T, path string, s, g *cType, seen map[[2]*cType]bool) {
	t.Helper()
	if (s == nil) != (g == nil) {
		t.Fatalf("%s: one type is nil", path)
	}
	if s == nil || seen[[2]*cType{s, g}] {
		return
	}
	seen[[2]*cType{s, g}] = true
	if s.kind != g.kind || s.name != g.name || s.size != g.size || s.keys != g.keys ||
		(s.urn == nil) != (g.urn == nil) || (s.urn != nil && s.urn.typeref != g.urn.typeref) ||
		(s.dest == nil) != (g.dest == nil) || !maps.Equal(s.symbols, g.symbols) ||
		(s.rec == nil) != (g.rec == nil) || (s.rec != nil && s.rec.name != g.rec.name) ||
		len(s.members) != len(g.members) || len(s.memberTypes) != len(g.memberTypes) ||
		(s.symTab == nil) != (g.symTab == nil) || (s.memberTab == nil) != (g.memberTab == nil) {
		t.Fatalf("%s: the types differ: %+v and %+v", path, *s, *g)
	}
	if s.symTab != nil && !slices.Equal(slices.Sorted(slices.Values(s.symTab.names)), slices.Sorted(slices.Values(g.symTab.names))) {
		t.Fatalf("%s: the symbol tables differ", path)
	}
	compareTypes(t, path+"[]", s.items, g.items, seen)
	for k, gm := range g.members {
		sm, ok := s.members[k]
		if !ok {
			t.Fatalf("%s: member %s missing", path, k)
		}
		if i, ok := s.memberTab.find([]byte(k)); s.memberTab.exact && (!ok || s.memberTypes[i] != sm) {
			t.Fatalf("%s: member %s not in its table", path, k)
		}
		compareTypes(t, path+"."+k, sm, gm, seen)
	}
}
