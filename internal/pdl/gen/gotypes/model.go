// Package gotypes generates package aspects' Go types from DataHub's PDL tree:
// a struct for every record an aspect of the entity registry uses, a string
// type with a constant per symbol for every enum, a struct with one pointer
// per member for every union, an appendJSON method (called by MarshalJSON)
// that writes a record's or union's JSON without reflection, and AspectName
// methods and a constructor table for the aspects. Types that package aspects already declares by hand are
// left to it.
package gotypes

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/pdlparse"
)

// AspectDef names an aspect of the entity registry and its record.
type AspectDef struct {
	Name, Record string
	Timeseries   bool
	// Entities are the entity types that list the aspect, in registry order.
	Entities []string
	// KeyOf is the entity whose key aspect this is, "" if none.
	KeyOf string
}

// EntityDef is an entity type of the registry and its key aspect's record.
type EntityDef struct {
	Name, KeyAspect, KeyRecord string
}

// Model is the PDL declarations and registry facts the generator works from.
type Model struct {
	Decls    map[string]*pdlparse.Decl
	Aspects  []AspectDef
	Entities []EntityDef
	// Hand maps the Go names that package aspects declares by hand to their
	// doc comments; a PDL type whose Go name is there is not generated, and
	// the doc comment must name the type's fully qualified name.
	Hand map[string]string
	// HandAppend holds the hand-written types that have an appendJSON
	// method.
	HandAppend map[string]bool
}

// typeInfo is a Go type the generator writes or refers to.
type typeInfo struct {
	fqn    string // PDL name; for an inline union, owner record + "." + field
	goName string
	kind   pdlparse.DeclKind // record, enum, typeref (union) or "union" for inline unions
	decl   *pdlparse.Decl
	union  *pdlparse.TypeExpr // for unions
	hand   bool
	aspect *AspectDef
	users  []*typeInfo // the generated types that refer to it
	ns     string      // PDL namespace: the output file
	owner  *typeInfo   // for an inline union: its record
	field  string      // for an inline union: its field's PDL name
}

const kindInlineUnion pdlparse.DeclKind = "union"

// plan is the set of types to generate, by PDL name, and their Go names.
type plan struct {
	m      *Model
	types  map[string]*typeInfo
	byName map[string]*typeInfo // Go name -> type
	errs   []string
}

func (p *plan) errorf(format string, args ...any) {
	p.errs = append(p.errs, fmt.Sprintf(format, args...))
}

// newPlan walks every aspect record and what it uses, then names the types.
func newPlan(m *Model) (*plan, error) {
	p := &plan{m: m, types: map[string]*typeInfo{}, byName: map[string]*typeInfo{}}
	for i := range m.Aspects {
		a := &m.Aspects[i]
		t := p.visit(a.Record, nil)
		if t == nil {
			continue
		}
		if t.kind != pdlparse.DeclRecord {
			p.errorf("aspect %s: %s is not a record", a.Name, a.Record)
			continue
		}
		if t.aspect == nil {
			t.aspect = a
		}
	}
	p.name()
	if len(p.errs) > 0 {
		slices.Sort(p.errs)
		return nil, fmt.Errorf("gotypes: %s", strings.Join(p.errs, "; "))
	}
	return p, nil
}

// fields returns the flattened fields of record d: included records' fields
// first, recursively, then its own; a name seen before is skipped.
func (p *plan) fields(d *pdlparse.Decl) []pdlparse.Field {
	var out []pdlparse.Field
	seen := map[string]bool{}
	var walk func(d *pdlparse.Decl, depth int)
	walk = func(d *pdlparse.Decl, depth int) {
		if depth > 32 {
			p.errorf("%s: include cycle", d.Name)
			return
		}
		for _, inc := range d.Includes {
			if id := p.m.Decls[inc]; id != nil {
				walk(id, depth+1)
			} else {
				p.errorf("%s: included record %s not found", d.Name, inc)
			}
		}
		for _, f := range d.Fields {
			if !seen[f.Name] {
				seen[f.Name] = true
				out = append(out, f)
			}
		}
	}
	walk(d, 0)
	return out
}

// name gives every type its Go name. A named PDL type is its simple name in
// Go case; a type package aspects declares by hand keeps the hand name. When
// several types want one name (the same simple name in two namespaces, or a
// hand-written type of that name for another record), each generated one is
// prefixed with the last part of its namespace in Go case
// (com.linkedin.dataset.Foo is DatasetFoo), then, if that still clashes, with
// its whole namespace after com.linkedin. An inline union is its record's Go
// name followed by its field's.
func (p *plan) name() {
	want := map[string][]*typeInfo{}
	for _, t := range p.types {
		if t.kind != kindInlineUnion {
			want[t.goName] = append(want[t.goName], t)
		}
	}
	for base, ts := range want {
		_, handName := p.m.Hand[base]
		if len(ts) == 1 && (!handName || ts[0].hand) {
			continue
		}
		for _, t := range ts {
			if t.hand {
				continue
			}
			t.goName = goName(simpleName(t.ns)) + base
			if len(want[t.goName]) > 0 || p.m.Hand[t.goName] != "" {
				t.goName = goName(strings.TrimPrefix(t.ns, "com.linkedin.")) + base
			}
		}
	}
	var all []*typeInfo
	for _, t := range p.types {
		all = append(all, t)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].fqn < all[j].fqn })
	for _, t := range all {
		if t.kind == kindInlineUnion {
			t.goName = t.owner.goName + goName(t.field)
		}
	}
	for _, t := range all {
		if _, ok := p.m.Hand[t.goName]; ok && !t.hand {
			p.errorf("%s: Go name %s is declared by hand for something else", t.fqn, t.goName)
		}
		if o, ok := p.byName[t.goName]; ok {
			p.errorf("%s and %s both want the Go name %s", o.fqn, t.fqn, t.goName)
			continue
		}
		p.byName[t.goName] = t
	}
}

// visit registers the named type fqn and everything it uses.
func (p *plan) visit(fqn string, user *typeInfo) *typeInfo {
	d := p.m.Decls[fqn]
	if d == nil {
		by := ""
		if user != nil {
			by = user.fqn
		}
		p.errorf("%s: type not found (used by %s)", fqn, by)
		return nil
	}
	if d.Kind == pdlparse.DeclTyperef && d.Ref.Kind != pdlparse.ExprUnion {
		// A typeref of anything but a union is its underlying type in Go.
		p.visitExpr(*d.Ref, user, "")
		return nil
	}
	if d.Kind == pdlparse.DeclFixed {
		return nil
	}
	if t, ok := p.types[fqn]; ok {
		if user != nil && !slices.Contains(t.users, user) {
			t.users = append(t.users, user)
		}
		return t
	}
	t := &typeInfo{fqn: fqn, goName: goName(simpleName(fqn)), kind: d.Kind, decl: d, ns: namespace(fqn)}
	if user != nil {
		t.users = []*typeInfo{user}
	}
	if d.Kind == pdlparse.DeclTyperef {
		t.union = d.Ref
	}
	p.types[fqn] = t
	if doc, ok := p.m.Hand[t.goName]; ok && strings.Contains(doc, fqn) {
		t.hand = true
		return t
	}
	switch d.Kind {
	case pdlparse.DeclRecord:
		for _, f := range p.fields(d) {
			p.visitExpr(f.Type, t, f.Name)
		}
	case pdlparse.DeclTyperef:
		for _, m := range d.Ref.Members {
			p.visitExpr(m.Type, t, "")
		}
	}
	return t
}

// visitExpr registers the types a field's type uses; field is the field's
// PDL name, for naming an inline union.
func (p *plan) visitExpr(te pdlparse.TypeExpr, user *typeInfo, field string) {
	switch te.Kind {
	case pdlparse.ExprRef:
		p.visit(te.Name, user)
	case pdlparse.ExprArray, pdlparse.ExprMap:
		p.visitExpr(*te.Items, user, field)
	case pdlparse.ExprUnion:
		fqn := user.fqn + "." + field
		if _, ok := p.types[fqn]; ok {
			return
		}
		u := te
		t := &typeInfo{fqn: fqn, kind: kindInlineUnion, union: &u, users: []*typeInfo{user}, ns: user.ns, owner: user, field: field}
		p.types[fqn] = t
		for _, m := range te.Members {
			p.visitExpr(m.Type, t, "")
		}
	}
}

// deref follows typerefs to what a type expression stands for in Go.
func (p *plan) deref(te pdlparse.TypeExpr) pdlparse.TypeExpr {
	for i := 0; i < 32 && te.Kind == pdlparse.ExprRef; i++ {
		d := p.m.Decls[te.Name]
		if d == nil || d.Kind != pdlparse.DeclTyperef || d.Ref.Kind == pdlparse.ExprUnion {
			return te
		}
		te = *d.Ref
	}
	return te
}

// goType returns the Go type of a type expression used in field field of the
// Go type owner.
func (p *plan) goType(te pdlparse.TypeExpr, owner, field string) string {
	te = p.deref(te)
	switch te.Kind {
	case pdlparse.ExprPrimitive:
		return primitiveGo[te.Name]
	case pdlparse.ExprArray:
		return "[]" + p.goType(*te.Items, owner, field)
	case pdlparse.ExprMap:
		return "map[string]" + p.goType(*te.Items, owner, field)
	case pdlparse.ExprUnion:
		return owner + goName(field)
	}
	d := p.m.Decls[te.Name]
	if d != nil && d.Kind == pdlparse.DeclFixed {
		return "string"
	}
	if t := p.types[te.Name]; t != nil {
		return t.goName
	}
	return "any"
}

// primitiveGo maps Pegasus primitive types to Go types.
var primitiveGo = map[string]string{
	"string": "string", "bytes": "string", "int": "int32", "long": "int64",
	"float": "float32", "double": "float64", "boolean": "bool", "null": "struct{}",
}

// unionKey returns the JSON key of a union member: its alias, the fully
// qualified name of the named type it stands for, or the primitive type name.
func (p *plan) unionKey(m pdlparse.Member) string {
	if m.Alias != "" {
		return m.Alias
	}
	te := m.Type
	for i := 0; i < 32 && te.Kind == pdlparse.ExprRef; i++ {
		d := p.m.Decls[te.Name]
		if d == nil || d.Kind != pdlparse.DeclTyperef {
			return te.Name
		}
		te = *d.Ref
	}
	switch te.Kind {
	case pdlparse.ExprArray:
		return "array"
	case pdlparse.ExprMap:
		return "map"
	case pdlparse.ExprUnion:
		return "union"
	}
	return te.Name
}

// memberField returns the Go field name of a union member.
func memberField(m pdlparse.Member) string {
	switch {
	case m.Alias != "":
		return goName(m.Alias)
	case m.Type.Kind == pdlparse.ExprRef:
		return goName(simpleName(m.Type.Name))
	case m.Type.Kind == pdlparse.ExprPrimitive:
		return goName(m.Type.Name)
	case m.Type.Kind == pdlparse.ExprArray:
		return "Array"
	case m.Type.Kind == pdlparse.ExprMap:
		return "Map"
	}
	return "Member"
}

// sortedTypes returns the types to generate (not hand-written), by Go name.
func (p *plan) sortedTypes() []*typeInfo {
	var out []*typeInfo
	for _, t := range p.types {
		if !t.hand {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].goName < out[j].goName })
	return out
}
