package generate

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/pdlparse"
	"github.com/catalogkit/datahub-go/internal/testshared"
)

// TestURNTyperefs checks the generator's URN facts: which typerefs are URN
// typerefs, the entity type their class requires (from the typed-URN
// annotation, else the class name when it names a registry entity), and
// that a use of one is emitted as a string carrying its name.
func TestURNTyperefs(t *testing.T) {
	t.Parallel()
	src, err := loadPegasus(testshared.Path(t, "reference", "datahub-pegasus"))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := os.ReadFile(filepath.Join(testshared.Path(t, "reference", "datahub"), filepath.FromSlash(registryFile)))
	if err != nil {
		t.Fatal(err)
	}
	ents, err := parseRegistry(reg)
	if err != nil {
		t.Fatal(err)
	}
	e := &emitter{src: src, unresolved: map[string][]string{}, entities: map[string]bool{}}
	for _, en := range ents {
		e.entities[en.Name] = true
	}
	got := map[string]urnTyperef{}
	for _, u := range e.urnTyperefs() {
		got[u.Name] = u
	}
	for _, want := range []urnTyperef{
		{Name: "com.linkedin.common.Urn", Class: "com.linkedin.common.urn.Urn"},
		{Name: "com.linkedin.common.DatasetUrn", Class: "com.linkedin.common.urn.DatasetUrn", EntityType: "dataset"},
		{Name: "com.linkedin.common.DataProcessUrn", Class: "com.linkedin.common.urn.DataProcessUrn", EntityType: "dataProcess"},
		{Name: "com.linkedin.common.BusinessAttributeUrn", Class: "com.linkedin.common.urn.BusinessAttributeUrn", EntityType: "businessAttribute"},
		{Name: "com.linkedin.common.versioned.VersionedUrn", Class: "com.linkedin.common.urn.VersionedUrn"},
	} {
		if diff := cmp.Diff(want, got[want.Name]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", want.Name, diff)
		}
	}
	if _, ok := got["com.linkedin.common.Time"]; ok {
		t.Error("Time is a URN typeref")
	}
	var b bytes.Buffer
	e.typeLit(&b, pdlparse.TypeExpr{Kind: pdlparse.ExprArray, Items: &pdlparse.TypeExpr{Kind: pdlparse.ExprRef, Name: "com.linkedin.common.DatasetUrn"}}, "test", 0)
	if want := `Type{Kind: KindArray, Items: &Type{Kind: KindString, URN: "com.linkedin.common.DatasetUrn"}}`; b.String() != want {
		t.Errorf("typeLit = %s, want %s", b.String(), want)
	}
}
