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
	cmp := newSchemaComparer(t)
	for name, g := range general.records {
		s := shared.records[name]
		if s == nil {
			t.Fatalf("record %s missing", name)
		}
		cmp.records(name, s, g)
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

// TestHeldRecordsShared compares the held records, which entity types
// whose relationships give a record the same checks share, with ones built
// for each entity type on its own (the general path), and checks that some
// are shared.
func TestHeldRecordsShared(t *testing.T) {
	t.Parallel()
	compareHeld(t, entities, Relationships, true)
	// Two entity types whose ownership is checked differently: the second
	// has an aspect (not a record of the tables) with a relationship at
	// ownership's owners' path to groups only.
	owner := Relationships("ownership")
	if len(owner) == 0 {
		t.Fatal("ownership has no relationships")
	}
	ents := []Entity{
		{Name: "a", KeyAspect: "datasetKey", Aspects: []string{"ownership"}},
		{Name: "b", KeyAspect: "datasetKey", Aspects: []string{"ownership", "groupsOnly"}},
		{Name: "c", KeyAspect: "datasetKey", Aspects: []string{"ownership"}},
	}
	rels := func(aspect string) []Relationship {
		if aspect == "groupsOnly" {
			return []Relationship{{Path: owner[0].Path, Name: "OwnedBy", EntityTypes: []string{"corpGroup"}}}
		}
		return Relationships(aspect)
	}
	held := compareHeld(t, ents, rels, false)
	if held["a"]["com.linkedin.common.Ownership"] != held["c"]["com.linkedin.common.Ownership"] {
		t.Error("a and c do not share their ownership record")
	}
}

// compareHeld compares the held records of ents (with rels) shared with
// the general path's, and returns the shared ones; with many, it checks
// that fewer than half are distinct.
func compareHeld(t *testing.T, ents []Entity, rels func(string) []Relationship, many bool) map[string]map[string]*cRecord {
	t.Helper()
	shared, general := buildHeldRecords(ents, rels, true), buildHeldRecords(ents, rels, false)
	if len(shared) != len(general) {
		t.Fatalf("%d entity types shared, %d general", len(shared), len(general))
	}
	cmp := newSchemaComparer(t)
	distinct := map[*cRecord]bool{}
	n := 0
	for e, recs := range general {
		if len(shared[e]) != len(recs) {
			t.Fatalf("%s: %d held records shared, %d general", e, len(shared[e]), len(recs))
		}
		for name, g := range recs {
			s := shared[e][name]
			if s == nil {
				t.Fatalf("%s: held record %s missing", e, name)
			}
			cmp.records(e+":"+name, s, g)
			distinct[s] = true
			n++
		}
	}
	if many && len(distinct)*2 > n {
		t.Errorf("%d distinct held records for %d held: want fewer than half", len(distinct), n)
	}
	return shared
}

// schemaComparer compares two compiled graphs (each pair of records and
// types once) as far as the checks read them.
type schemaComparer struct {
	t     *testing.T
	seenT map[[2]*cType]bool
	seenR map[[2]*cRecord]bool
}

func newSchemaComparer(t *testing.T) *schemaComparer {
	return &schemaComparer{t: t, seenT: map[[2]*cType]bool{}, seenR: map[[2]*cRecord]bool{}}
}

// records fails the test where the records s and g (at path) differ.
func (c *schemaComparer) records(path string, s, g *cRecord) {
	t := c.t
	t.Helper()
	if c.seenR[[2]*cRecord{s, g}] {
		return
	}
	c.seenR[[2]*cRecord{s, g}] = true
	if s.name != g.name || len(s.fields) != len(g.fields) || s.required != g.required ||
		s.keyHashClash != g.keyHashClash || !maps.Equal(s.index, g.index) || s.names.exact != g.names.exact ||
		!slices.Equal(s.names.names, g.names.names) {
		t.Fatalf("%s: the records differ", path)
	}
	for i := range g.fields {
		sf, gf := &s.fields[i], &g.fields[i]
		if sf.name != gf.name || sf.required != gf.required || sf.keyHash != gf.keyHash || sf.lit != gf.lit {
			t.Fatalf("%s.%s: the fields differ", path, gf.name)
		}
		c.types(path+"."+gf.name, sf.typ, gf.typ)
	}
}

// types fails the test where the types s and g (at path) differ.
func (c *schemaComparer) types(path string, s, g *cType) {
	t := c.t
	t.Helper()
	if (s == nil) != (g == nil) {
		t.Fatalf("%s: one type is nil", path)
	}
	if s == nil || c.seenT[[2]*cType{s, g}] {
		return
	}
	c.seenT[[2]*cType{s, g}] = true
	if s.kind != g.kind || s.name != g.name || s.size != g.size || s.keys != g.keys ||
		(s.urn == nil) != (g.urn == nil) || (s.urn != nil && s.urn.typeref != g.urn.typeref) ||
		(s.dest == nil) != (g.dest == nil) || !maps.Equal(s.symbols, g.symbols) ||
		(s.rec == nil) != (g.rec == nil) ||
		len(s.members) != len(g.members) || len(s.memberTypes) != len(g.memberTypes) ||
		(s.symTab == nil) != (g.symTab == nil) || (s.memberTab == nil) != (g.memberTab == nil) {
		t.Fatalf("%s: the types differ: %+v and %+v", path, *s, *g)
	}
	if s.dest != nil && (s.dest.spec != g.dest.spec || !slices.EqualFunc(s.dest.sets, g.dest.sets, slices.Equal)) {
		t.Fatalf("%s: the relationship checks differ: %+v and %+v", path, *s.dest, *g.dest)
	}
	if s.symTab != nil && !slices.Equal(slices.Sorted(slices.Values(s.symTab.names)), slices.Sorted(slices.Values(g.symTab.names))) {
		t.Fatalf("%s: the symbol tables differ", path)
	}
	if s.rec != nil {
		c.records(path, s.rec, g.rec)
	}
	c.types(path+"[]", s.items, g.items)
	for k, gm := range g.members {
		sm, ok := s.members[k]
		if !ok {
			t.Fatalf("%s: member %s missing", path, k)
		}
		if i, ok := s.memberTab.find([]byte(k)); s.memberTab.exact && (!ok || s.memberTypes[i] != sm) {
			t.Fatalf("%s: member %s not in its table", path, k)
		}
		c.types(path+"."+k, sm, gm)
	}
}
