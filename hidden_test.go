package datahub_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNoUnexportedTypeInAPI walks every public package of the module (and
// of emitter/kafka) and fails when an exported type, function or method
// names an unexported type of its package, or a type of an internal
// package, in its signature, its underlying function type (an option
// declared as func(*settings), say), its exported struct fields or what it
// aliases: go doc would show a type its reader cannot name or import.
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
		internal := internalImports(f)
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if !decl.Name.IsExported() || (decl.Recv != nil && !exportedRecv(decl.Recv)) {
					continue
				}
				if id := unexportedIn(decl.Type, internal); id != "" {
					t.Errorf("%s: %s names %s, an unexported or internal type", fset.Position(decl.Pos()), decl.Name.Name, id)
				}
			case *ast.GenDecl:
				for _, s := range decl.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok || !ts.Name.IsExported() {
						continue
					}
					switch typ := ts.Type.(type) {
					case *ast.FuncType:
						if id := unexportedIn(typ, internal); id != "" {
							t.Errorf("%s: type %s is a function of %s, an unexported or internal type", fset.Position(ts.Pos()), ts.Name.Name, id)
						}
					case *ast.StructType:
						for _, fld := range typ.Fields.List {
							if !exportedField(fld) {
								continue
							}
							if id := hiddenIn(fld.Type, nil, internal); id != "" {
								t.Errorf("%s: field %s of %s has the type %s", fset.Position(fld.Pos()), fieldName(fld), ts.Name.Name, id)
							}
						}
					default:
						if ts.Assign.IsValid() {
							if id := hiddenIn(ts.Type, nil, internal); id != "" {
								t.Errorf("%s: type %s is an alias of %s", fset.Position(ts.Pos()), ts.Name.Name, id)
							}
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

// internalImports returns the names under which file f imports internal
// packages (a path with an "internal" element).
func internalImports(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		if !slices.Contains(strings.Split(path, "/"), "internal") {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		out[name] = true
	}
	return out
}

// exportedField reports whether a struct field is exported (an embedded
// field by its type's name).
func exportedField(f *ast.Field) bool {
	if len(f.Names) == 0 { // an embedded type: the field has its name
		e := f.Type
		if s, ok := e.(*ast.StarExpr); ok {
			e = s.X
		}
		switch x := e.(type) {
		case *ast.Ident:
			return x.IsExported()
		case *ast.SelectorExpr:
			return x.Sel.IsExported()
		}
		return true
	}
	for _, n := range f.Names {
		if n.IsExported() {
			return true
		}
	}
	return false
}

// fieldName names a struct field for a message.
func fieldName(f *ast.Field) string {
	if len(f.Names) == 0 {
		return "(embedded)"
	}
	return f.Names[0].Name
}

// hiddenIn returns the first type name in e that a reader of go doc
// cannot use: an unexported, non-predeclared name (not a type parameter)
// or a name of an internal package, or "".
func hiddenIn(e ast.Expr, typeParams, internal map[string]bool) string {
	found := ""
	ast.Inspect(e, func(n ast.Node) bool {
		if found != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && internal[x.Name] {
				found = x.Name + "." + n.Sel.Name
			}
			return false // another package's name: its own package checks it
		case *ast.FuncType:
			found = unexportedIn(n, internal)
			return false
		case *ast.Ident:
			if !n.IsExported() && !predeclared[n.Name] && !typeParams[n.Name] {
				found = n.Name
			}
		}
		return true
	})
	return found
}

// unexportedIn returns the first type name in a function type's
// parameters and results a reader of go doc cannot use (see hiddenIn),
// or "".
func unexportedIn(ft *ast.FuncType, internal map[string]bool) string {
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
			if found == "" {
				found = hiddenIn(f.Type, typeParams, internal)
			}
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
