// Command cmd writes package entity's generated types (entities_gen.go)
// from DataHub's entity registry and PDL tree. Run it through
// `go generate ./entity`.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/entitygen"
)

func main() {
	pegasus := flag.String("pegasus", "../../shared/reference/datahub-pegasus", "DataHub PDL tree")
	ref := flag.String("ref", "../../shared/reference/datahub", "DataHub reference directory (for entity-registry.yml)")
	urnDir := flag.String("urn", "../urn", "package urn's directory")
	out := flag.String("out", ".", "package entity's directory")
	flag.Parse()
	in, err := entitygen.Load(*pegasus, *ref, *urnDir)
	if err == nil {
		var files map[string][]byte
		files, err = entitygen.Generate(in)
		for name, data := range files {
			if err == nil {
				err = os.WriteFile(filepath.Join(*out, name), data, 0o644)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "entitygen:", err)
		os.Exit(1)
	}
}
