package kafka_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
)

// TestMainModuleHasNoKafkaDependency checks that SDK users who do not use
// Kafka do not download it: the main module's go.mod and go.sum name none
// of this module's Kafka and Avro libraries.
func TestMainModuleHasNoKafkaDependency(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, dep := range []string{"github.com/twmb/franz-go", "github.com/linkedin/goavro", "github.com/hamba/avro"} {
			if strings.Contains(string(data), dep) {
				t.Errorf("the main module's %s names %s; it belongs in emitter/kafka/go.mod only", name, dep)
			}
		}
	}
}

// TestMainModuleRequirementIsTheRelease checks that this module requires
// the main module by the version the main module says it is, so that an
// importer (who ignores this go.mod's replace) resolves a real release.
func TestMainModuleRequirementIsTheRelease(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	want := "v" + datahub.Version
	var got string
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == mainModule {
			got = f[1]
		}
		if len(f) >= 3 && f[0] == "require" && f[1] == mainModule {
			got = f[2]
		}
	}
	if got != want {
		t.Errorf("emitter/kafka/go.mod requires %s %q; want %q (datahub.Version): see RELEASING in the README", mainModule, got, want)
	}
}

const mainModule = "github.com/catalogkit/datahub-go"

// TestOutsideModuleBuilds builds a module outside this repository against
// both modules of the checkout, with the go.mod lines the README's Install
// section gives (their relative paths pointed at the checkout), and again
// in a workspace made with the README's go work command.
func TestOutsideModuleBuilds(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	goMod, workCmd := installLines(t, string(readme))
	const clone = "../datahub-go"
	if !strings.Contains(goMod, clone) || !strings.Contains(workCmd, clone) {
		t.Fatalf("the README's Install lines do not name the clone %s:\n%s\n%s", clone, goMod, workCmd)
	}
	goMod = strings.ReplaceAll(goMod, clone, filepath.ToSlash(root))
	workArgs := strings.Fields(strings.ReplaceAll(workCmd, clone, filepath.ToSlash(root)))

	const program = `package main

import (
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/kafka"
	"github.com/catalogkit/datahub-go/mockserver"
)

func main() {
	fmt.Println(datahub.Version, client.New, emitter.NewREST, kafka.New, mockserver.Listen)
}
`
	t.Run("require and replace", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/outside\n\ngo 1.26\n\n"+goMod)
		writeFile(t, filepath.Join(dir, "main.go"), program)
		goCmd(t, dir, "off", "build", "-o", os.DevNull, ".")
	})
	t.Run("workspace", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/outside\n\ngo 1.26\n")
		writeFile(t, filepath.Join(dir, "main.go"), program)
		if len(workArgs) < 3 || workArgs[0] != "go" || workArgs[1] != "work" {
			t.Fatalf("the README's workspace command is %q; want go work init ...", workCmd)
		}
		goCmd(t, dir, "", workArgs[1:]...)
		goCmd(t, dir, "", "build", "-o", os.DevNull, ".")
	})
}

// installLines returns the go.mod lines (the first fenced block with a
// replace directive) and the go work command of the README's Install
// section.
func installLines(t *testing.T, readme string) (goMod, workCmd string) {
	t.Helper()
	_, section, ok := strings.Cut(readme, "\n## Install\n")
	if !ok {
		t.Fatal("the README has no Install section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	blocks := strings.Split(section, "```")
	for i := 1; i < len(blocks); i += 2 {
		block := blocks[i]
		if strings.Contains(block, "replace (") && goMod == "" {
			_, goMod, _ = strings.Cut(block, "\n")
		}
		for line := range strings.Lines(block) {
			if strings.HasPrefix(line, "go work init") {
				workCmd = strings.TrimSpace(line)
			}
		}
	}
	if goMod == "" || workCmd == "" {
		t.Fatalf("the README's Install section lacks the go.mod lines or the go work command:\n%s", section)
	}
	return goMod, workCmd
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// goCmd runs the go command in dir with the module proxy only, GOWORK set
// to gowork ("" finds dir's go.work; "off" adds -mod=mod, which workspace
// mode refuses, so that go.sum is filled), and fails the test with its
// output when it fails.
func goCmd(t *testing.T, dir, gowork string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "go", args...)
	cmd.Dir = dir
	flags := ""
	if gowork == "off" {
		flags = "-mod=mod"
	}
	cmd.Env = append(os.Environ(), "GOWORK="+gowork, "GOFLAGS="+flags, "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
}
