// Command gen writes package pdl's generated tables (registry_gen.go, schemas_gen.go,
// facts_gen.go) from DataHub's PDL tree and entity registry. Run it through
// `go generate ./internal/pdl`.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/generate"
)

func main() {
	var in generate.Inputs
	flag.StringVar(&in.Pegasus, "pegasus", "../../../shared/reference/datahub-pegasus", "DataHub's PDL tree")
	flag.StringVar(&in.Reference, "ref", "../../../shared/reference/datahub", "DataHub reference directory (for entity-registry.yml)")
	out := flag.String("out", ".", "output directory (package pdl)")
	verbose := flag.Bool("v", false, "print what the tables hold")
	flag.Parse()
	files, st, err := generate.Generate(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pdl gen:", err)
		os.Exit(1)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(*out, name), data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "pdl gen:", err)
			os.Exit(1)
		}
	}
	if *verbose {
		fmt.Printf("entities %d, aspects %d, records %d, searchable fields %d, relationships %d, urn validations %d\n",
			st.Entities, st.Aspects, st.Records, st.Searchable, st.Relationships, st.URNValidations)
	}
}
