package aspects

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/gotypes"
	"github.com/catalogkit/datahub-go/internal/pdl/gen/pdlparse"
	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/google/go-cmp/cmp"
)

// pegasusModel loads DataHub's PDL tree from the shared reference folder.
func pegasusModel(t *testing.T) *gotypes.Model {
	t.Helper()
	m, err := gotypes.Load(testshared.Path(t, "reference", "datahub-pegasus"), ".")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGeneratedUpToDate proves the committed *_gen.go files are what the
// generator writes from the PDL tree today (run go generate ./aspects after
// changing the generator or the tree).
func TestGeneratedUpToDate(t *testing.T) {
	t.Parallel()
	files, err := gotypes.Generate(pegasusModel(t))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%v (run go generate ./aspects)", err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from a fresh generation (run go generate ./aspects):\n%s", name, cmp.Diff(string(want), string(got)))
		}
	}
	onDisk, err := filepath.Glob("*_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range onDisk {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := files[f]; !ok && bytes.HasPrefix(data, []byte(gotypes.Header)) {
			t.Errorf("%s is generated but a fresh generation does not write it", f)
		}
	}
}

// TestGeneratedFields walks every record, enum and union that the registry's
// 255 aspects use in the PDL tree and checks the Go type the package has for
// it, found by following the Go fields from the aspect's struct: every PDL
// field has a Go field with its PDL name as JSON name and a Go type of the
// right shape, and no Go field is left over; optional fields are omitted
// when empty and required ones are not; every enum has a constant per symbol
// and a union a member per PDL member.
func TestGeneratedFields(t *testing.T) {
	t.Parallel()
	m := pegasusModel(t)
	w := &pdlWalk{t: t, decls: m.Decls, consts: enumConsts(t), seen: map[string]bool{}}
	for _, a := range m.Aspects {
		v, ok := New(a.Name)
		if !ok {
			t.Errorf("New(%q) failed", a.Name)
			continue
		}
		w.record(a.Record, reflect.TypeOf(v).Elem(), a.Name)
	}
	if len(m.Aspects) != 255 || w.records < 400 || w.fields < 1500 {
		t.Errorf("walked %d aspects, %d records, %d fields, %d enums: fewer than DataHub has", len(m.Aspects), w.records, w.fields, w.enums)
	}
	t.Logf("%d aspects, %d records, %d fields, %d enums, %d unions checked", len(m.Aspects), w.records, w.fields, w.enums, w.unions)
}

type pdlWalk struct {
	t                              *testing.T
	decls                          map[string]*pdlparse.Decl
	consts                         map[string][]string // Go type -> constant values
	seen                           map[string]bool
	records, fields, enums, unions int
}

func (w *pdlWalk) flatten(d *pdlparse.Decl) []pdlparse.Field {
	var out []pdlparse.Field
	for _, inc := range d.Includes {
		out = append(out, w.flatten(w.decls[inc])...)
	}
	for _, f := range d.Fields {
		if !slices.ContainsFunc(out, func(o pdlparse.Field) bool { return o.Name == f.Name }) {
			out = append(out, f)
		}
	}
	return out
}

func (w *pdlWalk) record(name string, gt reflect.Type, path string) {
	key := name + "|" + gt.String()
	if w.seen[key] {
		return
	}
	w.seen[key] = true
	d := w.decls[name]
	if d == nil || d.Kind != pdlparse.DeclRecord {
		w.t.Errorf("%s: %s is not a PDL record", path, name)
		return
	}
	if gt.Kind() != reflect.Struct {
		w.t.Errorf("%s: record %s is Go %s, want a struct", path, name, gt)
		return
	}
	w.records++
	goFields := jsonFields(gt)
	for _, f := range w.flatten(d) {
		w.fields++
		p := path + "." + f.Name
		gf, ok := goFields[f.Name]
		if !ok {
			w.t.Errorf("%s: Go type %s has no field for PDL field %q", p, gt.Name(), f.Name)
			continue
		}
		delete(goFields, f.Name)
		if f.Default == nil && f.Optional != gf.omit {
			w.t.Errorf("%s: optional %v but omitted when empty %v", p, f.Optional, gf.omit)
		}
		if f.Default != nil && gf.omit {
			w.t.Errorf("%s: a defaulted field is omitted when empty", p)
		}
		w.expr(f.Type, gf.typ, p)
	}
	for n := range goFields {
		w.t.Errorf("%s: Go field %q of %s is not in PDL record %s", path, n, gt.Name(), name)
	}
}

var goKinds = map[string]reflect.Kind{
	"string": reflect.String, "bytes": reflect.String, "int": reflect.Int32, "long": reflect.Int64,
	"float": reflect.Float32, "double": reflect.Float64, "boolean": reflect.Bool,
}

func (w *pdlWalk) expr(te pdlparse.TypeExpr, gt reflect.Type, path string) {
	for gt.Kind() == reflect.Pointer {
		gt = gt.Elem()
	}
	switch te.Kind {
	case pdlparse.ExprPrimitive:
		if gt.Kind() != goKinds[te.Name] {
			w.t.Errorf("%s: PDL %s is Go %s", path, te.Name, gt)
		}
	case pdlparse.ExprArray, pdlparse.ExprMap:
		want := reflect.Slice
		if te.Kind == pdlparse.ExprMap {
			want = reflect.Map
		}
		if gt.Kind() != want {
			w.t.Errorf("%s: PDL %s is Go %s", path, te.Kind, gt)
			return
		}
		w.expr(*te.Items, gt.Elem(), path+"[]")
	case pdlparse.ExprUnion:
		w.union(te, gt, path)
	case pdlparse.ExprRef:
		d := w.decls[te.Name]
		switch {
		case d == nil:
			w.t.Errorf("%s: %s not in the PDL tree", path, te.Name)
		case d.Kind == pdlparse.DeclTyperef && d.Ref.Kind == pdlparse.ExprUnion:
			w.union(*d.Ref, gt, path)
		case d.Kind == pdlparse.DeclTyperef:
			w.expr(*d.Ref, gt, path)
		case d.Kind == pdlparse.DeclFixed:
			if gt.Kind() != reflect.String {
				w.t.Errorf("%s: fixed %s is Go %s", path, te.Name, gt)
			}
		case d.Kind == pdlparse.DeclEnum:
			w.enum(d, gt, path)
		default:
			w.record(d.Name, gt, path)
		}
	}
}

func (w *pdlWalk) enum(d *pdlparse.Decl, gt reflect.Type, path string) {
	if gt.Kind() != reflect.String || gt.Name() == "string" {
		w.t.Errorf("%s: enum %s is Go %s, want a named string type", path, d.Name, gt)
		return
	}
	if w.seen[d.Name] {
		return
	}
	w.seen[d.Name] = true
	w.enums++
	if got := w.consts[gt.Name()]; !slices.Equal(got, d.Symbols) {
		w.t.Errorf("%s: enum %s has constants %q, want one per symbol %q", path, gt.Name(), got, d.Symbols)
	}
}

func (w *pdlWalk) union(te pdlparse.TypeExpr, gt reflect.Type, path string) {
	if gt.Kind() == reflect.Interface {
		return // the hand-written union interfaces; TestPDLCoverage checks them
	}
	if gt.Kind() != reflect.Struct {
		w.t.Errorf("%s: union is Go %s", path, gt)
		return
	}
	w.unions++
	goFields := jsonFields(gt)
	for _, m := range te.Members {
		k := w.memberKey(m)
		gf, ok := goFields[k]
		if !ok {
			w.t.Errorf("%s: union %s has no member %q", path, gt.Name(), k)
			continue
		}
		delete(goFields, k)
		w.expr(m.Type, gf.typ, path+"<"+k+">")
	}
	for n := range goFields {
		w.t.Errorf("%s: union %s has member %q that PDL does not", path, gt.Name(), n)
	}
}

func (w *pdlWalk) memberKey(m pdlparse.Member) string {
	if m.Alias != "" {
		return m.Alias
	}
	te := m.Type
	for te.Kind == pdlparse.ExprRef {
		d := w.decls[te.Name]
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
	}
	return te.Name
}

// enumConsts reads the package's Go files and returns the values of its
// typed string constants by type name, in declaration order.
func enumConsts(t *testing.T) map[string][]string {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				id, ok := vs.Type.(*ast.Ident)
				if !ok || len(vs.Values) != 1 {
					continue
				}
				lit, ok := vs.Values[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				v, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				out[id.Name] = append(out[id.Name], v)
			}
		}
	}
	return out
}
