package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
)

// TestCopyBuildsInAnotherModule copies main.go, as a user starting from
// this example does, into a module of its own outside the repository that
// requires the SDK (replaced by this checkout, as the README's Install
// section says) and builds it: the example imports only public packages.
// The build is offline (GOPROXY=off): every dependency is the SDK's own, in
// the module cache already.
func TestCopyBuildsInAnotherModule(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod := "module example.com/mycatalog\n\ngo 1.26\n\n" +
		"require github.com/catalogkit/datahub-go v" + datahub.Version + "\n\n" +
		"replace github.com/catalogkit/datahub-go => " + filepath.ToSlash(root) + "\n"
	copyFile(t, filepath.Join(root, "go.sum"), filepath.Join(dir, "go.sum"))
	copyFile(t, "main.go", filepath.Join(dir, "main.go"))
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", os.DevNull, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build of a copy of main.go in its own module: %v\n%s", err, out)
	}
	data, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "/internal/") {
		t.Error("main.go imports an internal package, which another module cannot")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
