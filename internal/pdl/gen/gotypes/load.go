package gotypes

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/internal/pdl/gen/generate"
	"github.com/catalogkit/datahub-go/internal/pdl/gen/pdlparse"
)

// pegasusRoots are the directories of the PDL tree that hold PDL files,
// highest priority first.
var pegasusRoots = []string{"metadata-models/src/main/pegasus", "li-utils/src/main/pegasus"}

// Load reads the PDL tree under pegasusDir, takes the entity registry from
// package pdl's tables, and reads the types declared by hand in the Go files
// of aspectsDir (not tests, not generated files).
func Load(pegasusDir, aspectsDir string) (*Model, error) {
	decls, err := LoadDecls(pegasusDir)
	if err != nil {
		return nil, err
	}
	aspects, ents, err := registry(decls)
	if err != nil {
		return nil, err
	}
	hand, err := HandTypes(aspectsDir)
	if err != nil {
		return nil, err
	}
	app, err := HandAppenders(aspectsDir)
	if err != nil {
		return nil, err
	}
	return &Model{Decls: decls, Aspects: aspects, Entities: ents, Hand: hand, HandAppend: app}, nil
}

// LoadDecls parses every PDL file of the tree under pegasusDir.
func LoadDecls(pegasusDir string) (map[string]*pdlparse.Decl, error) {
	decls := map[string]*pdlparse.Decl{}
	for _, r := range pegasusRoots {
		ds, err := generate.LoadTree(filepath.Join(pegasusDir, filepath.FromSlash(r)))
		if err != nil {
			return nil, err
		}
		for n, d := range ds {
			if _, ok := decls[n]; !ok {
				decls[n] = d
			}
		}
	}
	return decls, nil
}

// registry lists every aspect of the entity registry with the record that
// declares it (its @Aspect annotation), in registry order, key aspects first
// within an entity, and every entity with its key aspect's record.
func registry(decls map[string]*pdlparse.Decl) ([]AspectDef, []EntityDef, error) {
	records := map[string]*pdlparse.Decl{}
	for _, d := range decls {
		if d.Aspect != nil && d.Aspect.Name != "" {
			if o, dup := records[d.Aspect.Name]; dup && o.Name < d.Name {
				continue
			}
			records[d.Aspect.Name] = d
		}
	}
	var out []AspectDef
	var ents []EntityDef
	index := map[string]int{}
	var missing []string
	for _, e := range pdl.Entities() {
		if d := records[e.KeyAspect]; d != nil {
			ents = append(ents, EntityDef{Name: e.Name, KeyAspect: e.KeyAspect, KeyRecord: d.Name})
		}
		for i, a := range append([]string{e.KeyAspect}, e.Aspects...) {
			if j, ok := index[a]; ok {
				out[j].Entities = append(out[j].Entities, e.Name)
				continue
			}
			d := records[a]
			if d == nil {
				missing = append(missing, a)
				continue
			}
			def := AspectDef{Name: a, Record: d.Name, Timeseries: d.Aspect.Type == "timeseries", Entities: []string{e.Name}}
			if i == 0 {
				def.KeyOf = e.Name
			}
			index[a] = len(out)
			out = append(out, def)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, nil, fmt.Errorf("gotypes: aspects without an @Aspect record: %s", strings.Join(missing, ", "))
	}
	return out, ents, nil
}

// handFiles parses the hand-written Go files of dir: neither tests nor
// generated files.
func handFiles(dir string, mode parser.Mode) ([]*ast.File, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []*ast.File
	fset := token.NewFileSet()
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") || strings.HasSuffix(n, "_gen.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, mode)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// HandTypes returns the type names declared in the hand-written Go files of
// dir with their doc comments.
func HandTypes(dir string) (map[string]string, error) {
	files, err := handFiles(dir, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil {
					doc = g.Doc
				}
				out[ts.Name.Name] = doc.Text()
			}
		}
	}
	return out, nil
}
