package graphql

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/mockserver/internal/graphql/sdlgen"
)

// TestSchemaGenerated regenerates the mock's schema from DataHub's SDL
// (../shared/reference/datahub/datahub-graphql-core/src/main/resources)
// and checks that the committed schema.graphql is what it gives: run `go
// generate ./mockserver/internal/graphql` when it fails.
func TestSchemaGenerated(t *testing.T) {
	t.Parallel()
	dir := testshared.Path(t, "reference", "datahub", "datahub-graphql-core", "src", "main", "resources")
	want, err := sdlgen.Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal([]byte(SDL()), want) {
		t.Errorf("schema.graphql is stale (%d bytes, DataHub's SDL gives %d): run go generate ./mockserver/internal/graphql", len(SDL()), len(want))
	}
}

// TestEntityMapGenerated regenerates the entity field table from the
// committed schema and the registry and checks entitymap_gen.go is it.
func TestEntityMapGenerated(t *testing.T) {
	t.Parallel()
	want, err := sdlgen.GenerateEntityMap([]byte(SDL()))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("entitymap_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("entitymap_gen.go is stale: run go generate ./mockserver/internal/graphql")
	}
}

// TestEntityTypesAgree checks the generated map of GraphQL entity types
// against the hand-written ones (graphQLType, urnOnlyTypes) and DataHub's
// EntityType values (entityTypes).
func TestEntityTypesAgree(t *testing.T) {
	t.Parallel()
	hand := map[string]string{}
	for e, ty := range graphQLType {
		hand[ty] = e
	}
	for e, ty := range urnOnlyTypes {
		hand[ty] = e
	}
	for ty, e := range entityTypeOf {
		if hand[ty] != e {
			t.Errorf("%s: generated entity %q, hand-written %q", ty, e, hand[ty])
		}
		if entityTypes[e] == "" {
			t.Errorf("%s (%s) has no EntityType value", ty, e)
		}
	}
	if len(hand) != len(entityTypeOf) {
		t.Errorf("%d hand-written entity types, %d generated", len(hand), len(entityTypeOf))
	}
}

// TestSchemaIsDataHubs checks the counts of the generated schema: DataHub's
// whole Query and Mutation.
func TestSchemaIsDataHubs(t *testing.T) {
	t.Parallel()
	s, err := schema()
	if err != nil {
		t.Fatal(err)
	}
	queries := 0
	for _, f := range s.Query.Fields {
		if f.Name[0] != '_' {
			queries++
		}
	}
	if queries < 100 || len(s.Mutation.Fields) < 160 || len(s.Types) < 900 {
		t.Errorf("%d Query fields, %d Mutation fields, %d types: want DataHub's whole schema", queries, len(s.Mutation.Fields), len(s.Types))
	}
}

// TestRegistry checks that every registered resolver names a field of the
// schema.
func TestRegistry(t *testing.T) {
	t.Parallel()
	s, err := schema()
	if err != nil {
		t.Fatal(err)
	}
	for k := range registry {
		typ, field, ok := strings.Cut(k, ".")
		def := s.Types[typ]
		if !ok || def == nil || def.Fields.ForName(field) == nil {
			t.Errorf("resolver registered for %s, which is not a field of the schema", k)
		}
	}
}

// TestNew checks that a handler is built.
func TestNew(t *testing.T) {
	if _, err := New(nil); err != nil {
		t.Fatal(err)
	}
}

// TestSchemaNotLoadedAtInit checks, in a fresh process of this test
// binary, that nothing loads the schema before a handler is made (an init
// that reads it loads 2 MB of AST into every program that links the mock)
// and that New loads it.
func TestSchemaNotLoadedAtInit(t *testing.T) {
	if os.Getenv("GRAPHQL_SCHEMA_INIT_CHILD") == "1" {
		if schemaLoaded.Load() {
			t.Fatal("the schema was loaded at init")
		}
		if _, err := New(nil); err != nil {
			t.Fatal(err)
		}
		if !schemaLoaded.Load() {
			t.Fatal("New did not load the schema")
		}
		return
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSchemaNotLoadedAtInit$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GRAPHQL_SCHEMA_INIT_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "PASS") {
		t.Fatalf("the child ran no test:\n%s", out)
	}
}
