package pdl_test

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/testshared"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/generate"
)

var update = flag.Bool("update", false, "rewrite the generated tables from ../shared")

// TestGeneratedUpToDate regenerates the tables and fails if the committed files differ.
func TestGeneratedUpToDate(t *testing.T) {
	t.Parallel()
	files, st, err := generate.Generate(generate.Inputs{
		Pegasus:   testshared.Path(t, "reference", "datahub-pegasus"),
		Reference: testshared.Path(t, "reference", "datahub"),
	})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	t.Logf("tables: %d entities, %d aspects, %d records, %d searchable fields, %d relationships",
		st.Entities, st.Aspects, st.Records, st.Searchable, st.Relationships)
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
