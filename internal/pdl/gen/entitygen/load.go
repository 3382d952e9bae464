package entitygen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/gotypes"
)

// RegistryFile is entity-registry.yml's path under DataHub's reference
// directory.
const RegistryFile = "metadata-models/src/main/resources/entity-registry.yml"

// Load reads what Generate works from: DataHub's PDL tree under pegasusDir,
// the entity docs of entity-registry.yml under refDir and the typed URNs
// of package urn in urnDir.
func Load(pegasusDir, refDir, urnDir string) (*Input, error) {
	decls, err := gotypes.LoadDecls(pegasusDir)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(refDir, filepath.FromSlash(RegistryFile)))
	if err != nil {
		return nil, err
	}
	var reg struct {
		Entities []struct {
			Name string `yaml:"name"`
			Doc  string `yaml:"doc"`
		} `yaml:"entities"`
	}
	if err := yaml.Unmarshal(data, &reg); err != nil {
		return nil, fmt.Errorf("%s: %w", RegistryFile, err)
	}
	docs := map[string]string{}
	for _, e := range reg.Entities {
		if e.Doc != "" {
			docs[e.Name] = e.Doc
		}
	}
	urns, err := URNTypes(urnDir)
	if err != nil {
		return nil, err
	}
	return &Input{Decls: decls, EntityDocs: docs, URNTypes: urns}, nil
}

// URNTypes returns the Go type of package urn (in dir) for each entity
// type: the type whose EntityType method returns a Type* constant.
func URNTypes(dir string) (map[string]string, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	consts := map[string]string{}  // constant name -> entity type
	methods := map[string]string{} // Go type -> constant name
	fset := token.NewFileSet()
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok != token.CONST {
					continue
				}
				for _, s := range d.Specs {
					vs := s.(*ast.ValueSpec)
					for i, id := range vs.Names {
						if i < len(vs.Values) && strings.HasPrefix(id.Name, "Type") {
							if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								v, _ := strconv.Unquote(lit.Value)
								consts[id.Name] = v
							}
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || d.Name.Name != "EntityType" || d.Body == nil || len(d.Body.List) != 1 {
					continue
				}
				ret, ok := d.Body.List[0].(*ast.ReturnStmt)
				if !ok || len(ret.Results) != 1 {
					continue
				}
				id, ok := ret.Results[0].(*ast.Ident)
				if !ok {
					continue
				}
				recv, ok := d.Recv.List[0].Type.(*ast.Ident)
				if !ok {
					continue
				}
				methods[recv.Name] = id.Name
			}
		}
	}
	out := map[string]string{}
	for typ, c := range methods {
		if et, ok := consts[c]; ok {
			out[et] = typ
		}
	}
	return out, nil
}
