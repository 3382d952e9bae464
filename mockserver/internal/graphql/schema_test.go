package graphql

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	graphqlgo "github.com/graph-gophers/graphql-go"
	"github.com/graph-gophers/graphql-go/ast"

	"github.com/catalogkit/datahub-go/internal/testshared"
)

// dataHubSchema parses every .graphql file of DataHub's SDL
// (../shared/reference/datahub/datahub-graphql-core/src/main/resources).
func dataHubSchema(t *testing.T) *ast.Schema {
	t.Helper()
	dir := testshared.Path(t, "reference", "datahub", "datahub-graphql-core", "src", "main", "resources")
	files, err := filepath.Glob(filepath.Join(dir, "*.graphql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no SDL files under %s: %v", dir, err)
	}
	var sdl strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sdl.Write(b)
		sdl.WriteByte('\n')
	}
	s, err := graphqlgo.ParseSchema(sdl.String(), nil, graphqlgo.UseStringDescriptions())
	if err != nil {
		t.Fatalf("parse DataHub's SDL: %v", err)
	}
	return s.AST()
}

// TestSchemaIsSubsetOfDataHub checks that every type, field, argument, enum
// value, union member and interface of the mock's schema is DataHub's, with
// the same type and nullability.
func TestSchemaIsSubsetOfDataHub(t *testing.T) {
	theirs := dataHubSchema(t)
	ours, err := graphqlgo.ParseSchema(SDL(), nil, graphqlgo.UseStringDescriptions())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for name, typ := range ours.AST().Types {
		if strings.HasPrefix(name, "__") || slices.Contains([]string{"String", "Int", "Float", "Boolean", "ID"}, name) {
			continue
		}
		other, ok := theirs.Types[name]
		if !ok {
			t.Errorf("type %s is not in DataHub's SDL", name)
			continue
		}
		if typ.Kind() != other.Kind() {
			t.Errorf("type %s is a %s here, a %s in DataHub's SDL", name, typ.Kind(), other.Kind())
			continue
		}
		checked++
		switch typ := typ.(type) {
		case *ast.ObjectTypeDefinition:
			o := other.(*ast.ObjectTypeDefinition)
			checkFields(t, name, typ.Fields, o.Fields)
			for _, i := range typ.InterfaceNames {
				if !slices.Contains(o.InterfaceNames, i) {
					t.Errorf("%s implements %s here, not in DataHub's SDL", name, i)
				}
			}
		case *ast.InterfaceTypeDefinition:
			checkFields(t, name, typ.Fields, other.(*ast.InterfaceTypeDefinition).Fields)
		case *ast.InputObject:
			checkArgs(t, name, typ.Values, other.(*ast.InputObject).Values)
		case *ast.EnumTypeDefinition:
			var values []string
			for _, v := range other.(*ast.EnumTypeDefinition).EnumValuesDefinition {
				values = append(values, v.EnumValue)
			}
			for _, v := range typ.EnumValuesDefinition {
				if !slices.Contains(values, v.EnumValue) {
					t.Errorf("enum %s has %s here, not in DataHub's SDL", name, v.EnumValue)
				}
			}
		case *ast.Union:
			for _, m := range typ.TypeNames {
				if !slices.Contains(other.(*ast.Union).TypeNames, m) {
					t.Errorf("union %s has member %s here, not in DataHub's SDL", name, m)
				}
			}
		}
	}
	if checked < 40 {
		t.Errorf("checked %d types, want the whole schema (40 or more)", checked)
	}
}

func checkFields(t *testing.T, typ string, ours, theirs ast.FieldsDefinition) {
	t.Helper()
	for _, f := range ours {
		o := theirs.Get(f.Name)
		if o == nil {
			t.Errorf("%s.%s is not in DataHub's SDL", typ, f.Name)
			continue
		}
		if f.Type.String() != o.Type.String() {
			t.Errorf("%s.%s is %s here, %s in DataHub's SDL", typ, f.Name, f.Type, o.Type)
		}
		checkArgs(t, typ+"."+f.Name, f.Arguments, o.Arguments)
	}
}

func checkArgs(t *testing.T, where string, ours, theirs ast.ArgumentsDefinition) {
	t.Helper()
	for _, a := range ours {
		o := theirs.Get(a.Name.Name)
		if o == nil {
			t.Errorf("%s(%s) is not in DataHub's SDL", where, a.Name.Name)
			continue
		}
		if a.Type.String() != o.Type.String() {
			t.Errorf("%s(%s) is %s here, %s in DataHub's SDL", where, a.Name.Name, a.Type, o.Type)
		}
	}
	for _, o := range theirs {
		if ours.Get(o.Name.Name) == nil && strings.HasSuffix(o.Type.String(), "!") && o.Default == nil {
			t.Errorf("%s lacks DataHub's required argument or input field %s", where, o.Name.Name)
		}
	}
}

// TestNew checks that the resolvers match the schema (graph-gophers checks
// every field's resolver when it parses).
func TestNew(t *testing.T) {
	if _, err := New(nil); err != nil {
		t.Fatal(err)
	}
}
