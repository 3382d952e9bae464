package entity_test

import (
	"go/parser"
	"go/token"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/urn"
)

// TestPythonTable checks the package doc's table of DataHub's Python SDK
// v2 helpers: every Go name it gives is a method or field of the type it
// names (or, for a shared helper, of some type), and every helper method
// of every type is in the table.
func TestPythonTable(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	_, table, ok := strings.Cut(doc, "\tPython ")
	_, table, ok2 := strings.Cut(table, "\n") // the header's rest
	if !ok || !ok2 {
		t.Fatal("the package doc has no table")
	}
	types := map[string]reflect.Type{}
	for _, et := range entity.Types() {
		e, err := entity.New(urn.MustParse(testshared.SampleURN(et)))
		if err != nil {
			t.Fatal(err)
		}
		rt := reflect.TypeOf(e)
		types[rt.Elem().Name()] = rt
	}
	has := func(rt reflect.Type, name string) bool {
		if _, ok := rt.MethodByName(name); ok {
			return true
		}
		_, ok := rt.Elem().FieldByName(name)
		return ok
	}
	sep := regexp.MustCompile(`\s{2,}`)
	listed := map[string]bool{}
	rows := 0
	for line := range strings.Lines(table) {
		if !strings.HasPrefix(line, "\t") {
			break
		}
		cols := sep.Split(strings.TrimSpace(line), -1)
		if len(cols) != 2 {
			t.Errorf("row %q has %d columns", line, len(cols))
			continue
		}
		rows++
		goCol, _, _ := strings.Cut(cols[1], " (")
		for name := range strings.SplitSeq(goCol, ", ") {
			listed[name] = true
			if typ, member, ok := strings.Cut(name, "."); ok {
				rt, found := types[typ]
				if !found || !has(rt, member) {
					t.Errorf("%s: %s has no %s", cols[0], typ, member)
				}
				listed[member] = true
				continue
			}
			n := 0
			for _, rt := range types {
				if has(rt, name) {
					n++
				}
			}
			if n == 0 {
				t.Errorf("%s: no type has %s", cols[0], name)
			}
		}
	}
	if rows < 100 {
		t.Errorf("the table has %d rows", rows)
	}
	ignore := []string{"EntityURN", "KeyAspect", "Loaded", "Version", "ReadAspects"}
	for name, rt := range types {
		for i := range rt.NumMethod() {
			m := rt.Method(i).Name
			if !slices.Contains(ignore, m) && !listed[m] && !listed[name+"."+m] {
				t.Errorf("%s.%s is not in the package doc's table", name, m)
			}
		}
	}
}
