// Command gen writes package pdl's generated tables (registry_gen.go, schemas_gen.go) from
// DataHub's reference files. Run it through `go generate ./internal/pdl`.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/generate"
)

func main() {
	ref := flag.String("ref", "../../../shared/reference/datahub", "DataHub reference directory")
	gen := flag.String("gen", "./gen", "generator input directory (recordnames.txt, extra/)")
	out := flag.String("out", ".", "output directory (package pdl)")
	verbose := flag.Bool("v", false, "print what the tables hold")
	flag.Parse()
	files, st, err := generate.Generate(*ref, *gen)
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
		fmt.Printf("entities %d, aspects %d, records %d, record names from recordnames.txt %d:\n%s\n",
			st.Entities, st.Aspects, st.Records, len(st.FromHand), strings.Join(st.FromHand, " "))
	}
}
