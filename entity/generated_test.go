package entity

import (
	"bytes"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/entitygen"
	"github.com/catalogkit/datahub-go/internal/testshared"
)

// TestGeneratedUpToDate proves the committed entities_gen.go is what the
// generator writes from DataHub's entity registry and PDL tree today (run
// go generate ./entity after changing the generator, the tree or package
// urn).
func TestGeneratedUpToDate(t *testing.T) {
	t.Parallel()
	in, err := entitygen.Load(testshared.Path(t, "reference", "datahub-pegasus"), testshared.Path(t, "reference", "datahub"), "../urn")
	if err != nil {
		t.Fatal(err)
	}
	files, err := entitygen.Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%v (run go generate ./entity)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from a fresh generation (run go generate ./entity):\n%s", name, cmp.Diff(string(want), string(got)))
		}
	}
}
