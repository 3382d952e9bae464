// Command gen writes the mock's GraphQL schema (schema.graphql) from
// DataHub's SDL; see package sdlgen.
//
//	go run ./gen -sdl <datahub-graphql-core/src/main/resources> -out schema.graphql
package main

import (
	"flag"
	"log"
	"os"

	"github.com/catalogkit/datahub-go/mockserver/internal/graphql/sdlgen"
)

func main() {
	dir := flag.String("sdl", "", "the folder of DataHub's *.graphql files")
	out := flag.String("out", "schema.graphql", "the file to write")
	flag.Parse()
	b, err := sdlgen.Generate(*dir)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		log.Fatal(err)
	}
}
