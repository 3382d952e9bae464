package pdl_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/generate"
)

var update = flag.Bool("update", false, "rewrite the generated tables from ../shared")

// referenceDir returns DataHub's reference files beside the repository (X/shared next to
// X/main). When they are absent the test fails in CI and is skipped locally.
func referenceDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := dir
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			t.Fatalf("no go.mod above %s", dir)
		}
		root = parent
	}
	ref := filepath.Join(root, "..", "shared", "reference", "datahub")
	if _, err := os.Stat(ref); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("DataHub reference files not found at %s (CI needs shared/ beside the repository): %v", ref, err)
		}
		t.Skipf("DataHub reference files not found at %s; skipping outside CI", ref)
	}
	return ref
}

// TestGeneratedUpToDate regenerates the tables and fails if the committed files differ.
func TestGeneratedUpToDate(t *testing.T) {
	t.Parallel()
	ref := referenceDir(t)
	files, st, err := generate.Generate(ref, "gen")
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	t.Logf("tables: %d entities, %d aspects, %d records; %d record names from gen/recordnames.txt",
		st.Entities, st.Aspects, st.Records, len(st.FromHand))
	for name, want := range files {
		if *update {
			if err := os.WriteFile(name, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%s: %v (run go generate ./internal/pdl)", name, err)
		}
		if !bytes.Equal(want, got) {
			diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n"))
			if len(diff) > 4000 {
				diff = diff[:4000] + "\n..."
			}
			t.Errorf("%s is stale; run go generate ./internal/pdl (-regenerated +committed):\n%s", name, diff)
		}
	}
}
