package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
)

// TestCopyBuildsInAnotherModule does what a user starting from this example
// does: it copies main.go into a module of its own outside the repository
// that requires the SDK (replaced by this checkout, as the README's Install
// section says), runs go mod tidy, builds and runs the copy, and builds the
// standalone mock from that module by its package path, as the README
// shows. The example imports only public packages, so all of it works. The
// go commands run offline (GOPROXY=off): every dependency is the SDK's own,
// in the module cache already. go mod tidy also looks for the modules that
// only the dependencies' own tests import, which a fresh module cache need
// not hold and no build needs: -e lets it write go.mod and go.sum without
// them, and the offline build and run after it show that nothing else is
// missing.
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
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	goCmd(t, dir, "mod", "tidy", "-e")
	bin := filepath.Join(dir, "quickstart")
	goCmd(t, dir, "build", "-o", bin, ".")
	goCmd(t, dir, "build", "-o", filepath.Join(dir, "datahub-mock"), "github.com/catalogkit/datahub-go/mockserver/cmd/datahub-mock")

	out, err := exec.CommandContext(t.Context(), bin).CombinedOutput()
	if err != nil {
		t.Fatalf("the copy failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "wrote 7 aspects") {
		t.Errorf("the copy's output lacks \"wrote 7 aspects\":\n%s", out)
	}
}

// goCmd runs the go command in dir, outside any workspace and offline, and
// fails the test with its output when it fails.
func goCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local", "GOPROXY=off", "GOSUMDB=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s in a module of its own: %v\n%s", strings.Join(args, " "), err, out)
	}
}
