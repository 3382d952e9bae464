package datahub_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestModelPackagesStayLight checks that a program using only the model
// (urn, aspects, entity, fieldpath) does not link the HTTP client: the
// sentinel errors those packages wrap live in a leaf package, so that a
// one-aspect program stays a few megabytes (it was 8 MB when aspects
// imported this package for ErrValidation).
func TestModelPackagesStayLight(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "./urn", "./aspects", "./entity", "./fieldpath").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	heavy := map[string]bool{
		"net/http":                              true,
		"crypto/tls":                            true,
		"net":                                   true,
		"github.com/catalogkit/datahub-go":      true,
		"github.com/hashicorp/go-retryablehttp": true,
		"github.com/catalogkit/datahub-go/internal/config": true,
	}
	for dep := range strings.FieldsSeq(string(out)) {
		if heavy[dep] {
			t.Errorf("the model packages depend on %s", dep)
		}
	}
}
