package datahub_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exportedTypes returns the exported package-level type declarations of
// the non-test files of dir, by name.
func exportedTypes(t *testing.T, dir string) map[string]*ast.TypeSpec {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ast.TypeSpec{}
	fset := token.NewFileSet()
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				if ts.Name.IsExported() {
					out[ts.Name.Name] = ts
				}
			}
		}
	}
	return out
}

// TestOneTypePerRecord proves that no exported type of package client or
// entity has the name of a type of package aspects (a DataHub record, enum
// or registry entry) unless it is that type, an alias of it: a GraphQL read
// model has a name of its own (…View), so that one DataHub record is one
// Go type. The exceptions name different DataHub things that share a name
// in DataHub itself.
func TestOneTypePerRecord(t *testing.T) {
	t.Parallel()
	same := map[string]string{
		// entity.Container is the container entity (key containerKey);
		// aspects.Container is its children's "container" aspect.
		"entity.Container": "the container entity, not the container aspect",
		// The other entity types whose names DataHub gives an aspect or a
		// record too (package entity has a type per entity type).
		"entity.DataPlatformInstance": "the dataPlatformInstance entity, not the dataPlatformInstance aspect",
		"entity.InviteToken":          "the inviteToken entity, not the inviteToken aspect",
		"entity.SchemaField":          "the schemaField entity, not the SchemaField record of schemaMetadata",
		"entity.OwnershipType":        "the ownershipType entity, not the OwnershipType enum of an owner",
	}
	models := exportedTypes(t, "aspects")
	for _, pkg := range []string{"client", "entity"} {
		for name, ts := range exportedTypes(t, pkg) {
			if _, clash := models[name]; !clash {
				continue
			}
			if _, ok := same[pkg+"."+name]; ok {
				continue
			}
			sel, ok := ts.Type.(*ast.SelectorExpr)
			if ts.Assign.IsValid() && ok && sel.Sel.Name == name {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "aspects" {
					continue
				}
			}
			t.Errorf("%s.%s has the name of aspects.%s but is another type: alias it (type %s = aspects.%s) or name it for what it is", pkg, name, name, name, name)
		}
	}
}
