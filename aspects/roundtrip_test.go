package aspects_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/pdl/gen/gotypes"
	"github.com/catalogkit/datahub-go/internal/pdl/gen/pdlparse"
	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
	"github.com/google/go-cmp/cmp"
)

// TestRoundTripEveryAspect builds, from the PDL tree, a value of every one
// of the registry's 255 aspects with every field set (optional ones too,
// valid URNs and enum symbols, the first member of each union), decodes it
// strictly into the aspect's Go type, checks that no field of the Go value is
// left zero at the top level and that encoding gives the same JSON back, then
// writes it to the mock server through the REST emitter on an entity that
// has the aspect and, for a versioned aspect, reads it back unchanged.
func TestRoundTripEveryAspect(t *testing.T) {
	t.Parallel()
	m, err := gotypes.Load(testshared.Path(t, "reference", "datahub-pegasus"), ".")
	if err != nil {
		t.Fatal(err)
	}
	g := &valueGen{decls: m.Decls, entities: map[string]bool{}}
	for _, e := range m.Entities {
		g.entities[e.Name] = true
	}
	s := mockserver.Start(t)
	em, err := emitter.NewREST(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]urn.URN{}
	for _, e := range m.Entities {
		u, err := urn.Parse(g.entityURN(e))
		if err != nil {
			t.Fatalf("entity %s: %v", e.Name, err)
		}
		keys[e.Name] = u
	}
	n := 0
	for _, a := range m.Aspects {
		t.Run(a.Name, func(t *testing.T) {
			value := g.record(a.Record, 0)
			testshared.FixDestinations(a.Entities[0], a.Name, value, func(et string) (string, bool) { // URNs the entity's relationships point at
				u, ok := keys[et]
				if !ok {
					return "", false
				}
				return u.String(), true
			})
			if a.Name == "propertyDefinition" { // GMS checks a definition's version: 14 digits
				value["version"] = "20250101000000"
			}
			if a.Name == "structuredProperties" { // GMS checks values against their property's definition
				const prop = "urn:li:structuredProperty:roundtrip"
				for _, it := range value["properties"].([]any) {
					it.(map[string]any)["propertyUrn"] = prop
				}
				if err := s.PutAspectJSON(prop, "propertyDefinition", json.RawMessage(
					`{"qualifiedName":"roundtrip","valueType":"urn:li:dataType:datahub.string","entityTypes":[],"cardinality":"MULTIPLE"}`)); err != nil {
					t.Fatal(err)
				}
			}
			in, err := json.Marshal(value)
			if err != nil {
				t.Fatal(err)
			}
			v, err := aspects.Decode(a.Name, in)
			if err != nil {
				t.Fatalf("Decode(%s): %v", in, err)
			}
			rv := reflect.ValueOf(v).Elem()
			for i := range rv.NumField() {
				if rv.Field(i).IsZero() {
					t.Errorf("field %s is zero after decoding %s", rv.Type().Field(i).Name, in)
				}
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(canon(t, in), canon(t, out)); diff != "" {
				t.Errorf("encoding differs from the decoded JSON (-in +out):\n%s", diff)
			}
			u := keys[a.Entities[0]]
			if err := em.Emit(t.Context(), emitter.Proposal{URN: u, Aspect: v}); err != nil {
				t.Fatalf("the mock refused %s on %s: %v\n%s", a.Name, u, err, out)
			}
			if a.Timeseries {
				return
			}
			back, err := c.GetAspectJSON(t.Context(), u, a.Name)
			if err != nil {
				t.Fatalf("GetAspectJSON(%s, %s): %v", u, a.Name, err)
			}
			if a.KeyOf == "" {
				wrote, read := canon(t, out), canon(t, back)
				if a.Name == "ownership" {
					// GMS's OwnershipOwnerTypes hook rebuilds ownerTypes from
					// the owners on every write.
					delete(wrote.(map[string]any), "ownerTypes")
					delete(read.(map[string]any), "ownerTypes")
				}
				if diff := cmp.Diff(wrote, read); diff != "" {
					t.Errorf("read back differs (-written +read):\n%s", diff)
				}
			}
		})
		n++
	}
	if n != 255 {
		t.Errorf("%d aspects, want 255", n)
	}
}

func canon(t *testing.T, data []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	return v
}

// valueGen writes JSON values of PDL types with every field set.
type valueGen struct {
	decls    map[string]*pdlparse.Decl
	entities map[string]bool // the registry's entity types
	// unwritable is set by a URN of an entity type outside the registry,
	// which DataHub refuses wherever it is: an array holding one is left
	// empty instead.
	unwritable bool
	// member picks the member of each union that values take: the
	// member-th, modulo the union's size (a null member gives the first).
	member int
}

func (g *valueGen) fields(d *pdlparse.Decl) []pdlparse.Field {
	var out []pdlparse.Field
	seen := map[string]bool{}
	var walk func(d *pdlparse.Decl)
	walk = func(d *pdlparse.Decl) {
		for _, inc := range d.Includes {
			walk(g.decls[inc])
		}
		for _, f := range d.Fields {
			if !seen[f.Name] {
				seen[f.Name] = true
				out = append(out, f)
			}
		}
	}
	walk(d)
	return out
}

// record returns a value of record name; below depth 4 it sets optional
// fields too, deeper only required and defaulted ones (records may nest
// themselves).
func (g *valueGen) record(name string, depth int) map[string]any {
	out := map[string]any{}
	for _, f := range g.fields(g.decls[name]) {
		if depth > 4 && f.Optional && f.Default == nil {
			continue
		}
		out[f.Name] = g.value(f.Type, f.Name, depth+1)
	}
	return out
}

// urnSamples are URNs of the entity types that typed URN fields name.
var urnSamples = map[string]string{
	"dataset":      "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",
	"datasetField": "urn:li:datasetField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),c)",
	"dataFlow":     "urn:li:dataFlow:(airflow,f,PROD)",
	"dataJob":      "urn:li:dataJob:(urn:li:dataFlow:(airflow,f,PROD),j)",
	"dataPlatform": "urn:li:dataPlatform:hive",
	"chart":        "urn:li:chart:(looker,c)",
	"mlFeature":    "urn:li:mlFeature:(ns,f)",
	"schemaField":  "urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),c)",
}

func (g *valueGen) value(te pdlparse.TypeExpr, field string, depth int) any {
	switch te.Kind {
	case pdlparse.ExprPrimitive:
		switch te.Name {
		case "string", "bytes":
			return "s"
		case "int":
			return 7
		case "long":
			if strings.Contains(strings.ToLower(field), "time") {
				return 1700000000000
			}
			return 7
		case "float", "double":
			return 1.5
		case "boolean":
			return true
		}
	case pdlparse.ExprArray:
		outer := g.unwritable
		g.unwritable = false
		item := g.value(*te.Items, field, depth)
		if g.unwritable {
			g.unwritable = outer
			return []any{}
		}
		g.unwritable = outer
		return []any{item}
	case pdlparse.ExprMap:
		return map[string]any{"k": g.value(*te.Items, field, depth)}
	case pdlparse.ExprUnion:
		return g.union(te, field, depth)
	}
	d := g.decls[te.Name]
	switch d.Kind {
	case pdlparse.DeclEnum:
		return d.Symbols[0]
	case pdlparse.DeclFixed:
		return strings.Repeat("a", d.Size)
	case pdlparse.DeclTyperef:
		simple := te.Name[strings.LastIndexByte(te.Name, '.')+1:]
		switch {
		case simple == "Time":
			return 1700000000000
		case simple == "Urn" && field == "platform":
			return urnSamples["dataPlatform"]
		case simple == "Urn" && field == "flow":
			return urnSamples["dataFlow"]
		case simple == "Urn" && field == "parent":
			return urnSamples["dataset"]
		case simple == "Urn":
			return "urn:li:corpuser:jdoe"
		case strings.HasSuffix(simple, "Urn"):
			e := strings.TrimSuffix(simple, "Urn")
			e = strings.ToLower(e[:1]) + e[1:]
			if e == "mLFeature" {
				e = "mlFeature"
			}
			g.unwritable = g.unwritable || !g.entities[e]
			if s, ok := urnSamples[e]; ok {
				return s
			}
			return "urn:li:" + e + ":x"
		case d.Ref.Kind == pdlparse.ExprUnion:
			return g.union(*d.Ref, field, depth)
		}
		return g.value(*d.Ref, field, depth)
	}
	return g.record(d.Name, depth)
}

func (g *valueGen) union(te pdlparse.TypeExpr, field string, depth int) any {
	m := te.Members[g.member%len(te.Members)]
	if m.Type.Kind == pdlparse.ExprPrimitive && m.Type.Name == "null" {
		m = te.Members[0]
	}
	key := m.Alias
	if key == "" {
		t := m.Type
		for t.Kind == pdlparse.ExprRef && g.decls[t.Name].Kind == pdlparse.DeclTyperef {
			t = *g.decls[t.Name].Ref
		}
		key = t.Name
		switch t.Kind {
		case pdlparse.ExprArray:
			key = "array"
		case pdlparse.ExprMap:
			key = "map"
		}
	}
	return map[string]any{key: g.value(m.Type, field, depth)}
}

// entityURN returns a URN of entity e whose parts are the values record
// gives its key's fields, in order.
func (g *valueGen) entityURN(e gotypes.EntityDef) string {
	key := g.record(e.KeyRecord, 0)
	var parts []string
	for _, f := range g.fields(g.decls[e.KeyRecord]) {
		parts = append(parts, fmt.Sprint(key[f.Name]))
	}
	if len(parts) == 1 {
		return "urn:li:" + e.Name + ":" + parts[0]
	}
	return "urn:li:" + e.Name + ":(" + strings.Join(parts, ",") + ")"
}
