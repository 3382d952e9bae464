package entity

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLogicalTypeDocListsTable checks that LogicalType's doc lists its
// table exactly: each row's Go type and names, in order.
func TestLogicalTypeDocListsTable(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "dataset.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "LogicalType" {
			doc = fn.Doc.Text()
		}
	}
	var listed, want []string
	for line := range strings.Lines(doc) {
		if !strings.HasPrefix(line, "\t") {
			continue
		}
		for w := range strings.FieldsSeq(strings.ReplaceAll(line, ",", " ")) {
			listed = append(listed, w)
		}
	}
	for _, row := range logicalTypes {
		want = append(want, reflect.TypeOf(row.typ).Name())
		want = append(want, row.names...)
	}
	if diff := cmp.Diff(want, listed); diff != "" {
		t.Errorf("LogicalType's doc table (-table +doc):\n%s", diff)
	}
}
