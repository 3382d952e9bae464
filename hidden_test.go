package datahub_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoUnexportedTypeInAPI walks every public package of the module (and
// of emitter/kafka) and fails when an exported type, function or method
// names an unexported type of its package in its signature or underlying
// function type (an option declared as func(*settings), say): go doc would
// show a type its reader cannot name.
func TestNoUnexportedTypeInAPI(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (name == "internal" || name == "testdata" || name == "examples" || name == "cmd" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if !decl.Name.IsExported() || (decl.Recv != nil && !exportedRecv(decl.Recv)) {
					continue
				}
				if id := unexportedIn(decl.Type); id != "" {
					t.Errorf("%s: %s names the unexported type %s", fset.Position(decl.Pos()), decl.Name.Name, id)
				}
			case *ast.GenDecl:
				for _, s := range decl.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok || !ts.Name.IsExported() {
						continue
					}
					if ft, ok := ts.Type.(*ast.FuncType); ok {
						if id := unexportedIn(ft); id != "" {
							t.Errorf("%s: type %s is a function of the unexported type %s", fset.Position(ts.Pos()), ts.Name.Name, id)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked %d files: the walk missed the packages", checked)
	}
}

// exportedRecv reports whether a method's receiver type is exported.
func exportedRecv(recv *ast.FieldList) bool {
	if len(recv.List) == 0 {
		return false
	}
	e := recv.List[0].Type
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = x.X
	case *ast.IndexListExpr:
		e = x.X
	}
	id, ok := e.(*ast.Ident)
	return ok && id.IsExported()
}

// unexportedIn returns the first unexported, non-predeclared type name in
// a function type's parameters and results, or "".
func unexportedIn(ft *ast.FuncType) string {
	found := ""
	typeParams := map[string]bool{}
	if ft.TypeParams != nil {
		for _, f := range ft.TypeParams.List {
			for _, n := range f.Names {
				typeParams[n.Name] = true
			}
		}
	}
	for _, list := range []*ast.FieldList{ft.Params, ft.Results} {
		if list == nil {
			continue
		}
		for _, f := range list.List {
			ast.Inspect(f.Type, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					return false // another package's name: its own package checks it
				case *ast.Ident:
					if found == "" && !n.IsExported() && !predeclared[n.Name] && !typeParams[n.Name] {
						found = n.Name
					}
				}
				return true
			})
		}
	}
	return found
}

var predeclared = map[string]bool{
	"any": true, "bool": true, "byte": true, "comparable": true, "complex64": true, "complex128": true,
	"error": true, "float32": true, "float64": true, "int": true, "int8": true, "int16": true,
	"int32": true, "int64": true, "rune": true, "string": true, "uint": true, "uint8": true,
	"uint16": true, "uint32": true, "uint64": true, "uintptr": true,
}
