package datahub_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
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

// publicPackages are the directories of the module's public packages.
var publicPackages = []string{".", "urn", "aspects", "entity", "fieldpath", "emitter", "emitter/patch", "client", "stateful", "mockserver"}

// sharedNames are the exported type names that more than one public
// package declares for different things, each with the packages that may
// declare it and why. Any other name declared twice must be one type: an
// alias of the other (type X = pkg.X).
var sharedNames = map[string]struct {
	pkgs   []string
	reason string
}{
	"Option": {[]string{".", "emitter", "client", "stateful", "mockserver"},
		"each constructor's functional options, typed per package so that one package's option does not compile in another's constructor"},
	"Builder": {[]string{"fieldpath", "emitter/patch"},
		"fieldpath.Builder builds a schema field path; patch.Builder a JSON patch proposal"},
	"Operation": {[]string{"aspects", "emitter/patch"},
		"aspects.Operation is DataHub's operation aspect; patch.Operation one RFC 6902 operation of a JSON patch"},
	"Status": {[]string{"aspects", "emitter"},
		"aspects.Status is DataHub's status aspect (removed); emitter.Status the outcome of sending a proposal"},
	"ContainerKey": {[]string{"urn", "aspects"},
		"urn.ContainerKey holds the fields DataHub's Python SDK (mcp_builder) hashes into a container's GUID; aspects.ContainerKey is the key aspect holding that GUID"},
	"NotebookKey": {[]string{"urn", "aspects"},
		"urn.NotebookKey holds the fields hashed into a notebook's GUID; aspects.NotebookKey is the key aspect"},
	"DataProcessInstanceKey": {[]string{"urn", "aspects"},
		"urn.DataProcessInstanceKey holds the fields hashed into a run's id; aspects.DataProcessInstanceKey is the key aspect holding it"},
	"Proposal": {[]string{"emitter", "mockserver"},
		"mockserver.Proposal is a proposal as the mock received it (its raw JSON parts, batch, index and refusal), a record of a request rather than one to send"},
}

// TestOneTypePerRecord proves that no exported type name is declared by
// two public packages for the same DataHub record (or one concept) in two
// shapes: a name two packages declare is an alias of one type, or names an
// entity in packages urn (its URN), entity (its model) and emitter/patch
// (its patch builder), or is one of sharedNames, different things that
// share a name.
func TestOneTypePerRecord(t *testing.T) {
	t.Parallel()
	entities := map[string]bool{}
	for _, e := range aspects.Entities() {
		entities[strings.ToLower(e.Name)] = true
	}
	byName := map[string][]string{} // the packages declaring a name, other than as an alias of another package's type of that name
	for _, pkg := range publicPackages {
		for name, ts := range exportedTypes(t, pkg) {
			if sel, ok := ts.Type.(*ast.SelectorExpr); ok && ts.Assign.IsValid() && sel.Sel.Name == name {
				continue // one type under two names
			}
			if entities[strings.ToLower(name)] && (pkg == "urn" || pkg == "entity" || pkg == "emitter/patch") {
				continue // the entity's URN, model or patch builder
			}
			byName[name] = append(byName[name], pkg)
		}
	}
	for name, pkgs := range byName {
		if len(pkgs) < 2 {
			continue
		}
		slices.Sort(pkgs)
		if shared, ok := sharedNames[name]; ok {
			allowed := slices.Clone(shared.pkgs)
			slices.Sort(allowed)
			if slices.Equal(pkgs, allowed) {
				continue
			}
		}
		t.Errorf("type %s is declared by packages %s: one DataHub record (or concept) is one type: keep one, or alias it, or name each for what it is", name, strings.Join(pkgs, ", "))
	}
}
