// Command cmd writes the generated files of package aspects (a Go type per
// aspect, record, enum and union, *_gen.go) and package urn (a type per
// entity, entities_gen.go) from DataHub's PDL tree. Run it through
// `go generate ./aspects ./urn`.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/gotypes"
)

func main() {
	pegasus := flag.String("pegasus", "../../shared/reference/datahub-pegasus", "DataHub PDL tree")
	aspects := flag.String("aspects", "", "package aspects' directory, to write its types")
	urn := flag.String("urn", "", "package urn's directory, to write its entity types")
	flag.Parse()
	if err := run(*pegasus, *aspects, *urn); err != nil {
		fmt.Fprintln(os.Stderr, "gotypes:", err)
		os.Exit(1)
	}
}

func run(pegasus, aspectsDir, urnDir string) error {
	if aspectsDir == "" && urnDir == "" {
		return fmt.Errorf("give -aspects, -urn or both")
	}
	hand := "."
	if aspectsDir != "" {
		hand = aspectsDir
	}
	m, err := gotypes.Load(pegasus, hand)
	if err != nil {
		return err
	}
	if aspectsDir != "" {
		files, err := gotypes.Generate(m)
		if err != nil {
			return err
		}
		if err := write(aspectsDir, files, gotypes.Header); err != nil {
			return err
		}
	}
	if urnDir != "" {
		handURN, err := gotypes.HandURNEntities(urnDir)
		if err != nil {
			return err
		}
		files, err := gotypes.GenerateURN(m, handURN)
		if err != nil {
			return err
		}
		if err := write(urnDir, files, gotypes.URNHeader); err != nil {
			return err
		}
	}
	return nil
}

// write writes files into dir and removes the files an earlier run wrote
// (they start with header) that this one does not.
func write(dir string, files map[string][]byte, header string) error {
	old, err := filepath.Glob(filepath.Join(dir, "*_gen*.go"))
	if err != nil {
		return err
	}
	for _, f := range old {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if _, keep := files[filepath.Base(f)]; !keep && bytes.HasPrefix(data, []byte(header)) {
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
		if err := os.WriteFile(filepath.Join(dir, n), files[n], 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("gotypes: %d files in %s: %s\n", len(files), dir, strings.Join(names, " "))
	return nil
}
