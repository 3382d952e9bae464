// Command cmd writes package aspects' generated types (*_gen.go) from
// DataHub's PDL tree. Run it through `go generate ./aspects`.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/gotypes"
)

func main() {
	pegasus := flag.String("pegasus", "../../shared/reference/datahub-pegasus", "DataHub PDL tree")
	out := flag.String("out", ".", "output directory (package aspects)")
	flag.Parse()
	if err := run(*pegasus, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gotypes:", err)
		os.Exit(1)
	}
}

func run(pegasus, out string) error {
	m, err := gotypes.Load(pegasus, out)
	if err != nil {
		return err
	}
	files, err := gotypes.Generate(m)
	if err != nil {
		return err
	}
	// Remove files an earlier run wrote that this one does not.
	old, err := filepath.Glob(filepath.Join(out, "*_gen.go"))
	if err != nil {
		return err
	}
	for _, f := range old {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if _, keep := files[filepath.Base(f)]; !keep && bytes.HasPrefix(data, []byte(gotypes.Header)) {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(out, n), files[n], 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("gotypes: %d files\n", len(files))
	return nil
}
