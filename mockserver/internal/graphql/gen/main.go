// Command gen writes the mock's GraphQL schema (schema.graphql) from
// DataHub's SDL, and the table of the entity types' fields
// (entitymap_gen.go) from it and the entity registry; see package sdlgen.
//
//	go run ./gen -sdl <datahub-graphql-core/src/main/resources> -out schema.graphql -entities entitymap_gen.go
package main

import (
	"flag"
	"log"
	"os"

	"github.com/catalogkit/datahub-go/mockserver/internal/graphql/sdlgen"
)

func main() {
	dir := flag.String("sdl", "", "the folder of DataHub's *.graphql files")
	out := flag.String("out", "schema.graphql", "the schema file to write")
	entities := flag.String("entities", "entitymap_gen.go", "the entity field table to write")
	flag.Parse()
	b, err := sdlgen.Generate(*dir)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		log.Fatal(err)
	}
	src, err := sdlgen.GenerateEntityMap(b)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*entities, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
