package datahub_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// projectFiles are references to files that users of the SDK do not have
// (the project's notes kept beside the checkout). User-facing docs state
// the rule itself or link DataHub's public documentation instead.
var projectFiles = regexp.MustCompile(`(?i)\b(SPEC|WIRE(-2)?|DECISIONS|REVIEW|STYLE)\.md\b|\.\./shared\b|the specification this|interface spec|service specification`)

// TestDocsCiteNoProjectFiles checks the module's user-facing docs, every
// Markdown file and every Go file that go doc shows (all but tests other
// than examples, and internal packages), for references to files users do
// not have. A //go:generate directive is not documentation: it runs where the
// reference files are, for the module's developers.
func TestDocsCiteNoProjectFiles(t *testing.T) {
	t.Parallel()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "internal" || d.Name() == "testdata" || (strings.HasPrefix(d.Name(), ".") && path != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		userFacing := strings.HasSuffix(name, ".md") ||
			strings.HasSuffix(name, ".go") && (!strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "example"))
		if !userFacing {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "//go:generate ") {
				continue // a directive for the module's developers, not documentation go doc shows
			}
			if m := projectFiles.FindString(line); m != "" {
				t.Errorf("%s:%d cites %q, which users do not have: state the rule or link DataHub's docs\n\t%s", path, i+1, m, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked %d files; the walk missed the module", checked)
	}
}

// TestReadmeRunsTheMockBuilt checks that the README starts the standalone
// mock from a built binary, not with go run (killing a go run process
// leaves its server running and holding the -data lock), and keeps its
// data outside the checkout.
func TestReadmeRunsTheMockBuilt(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"README.md", filepath.Join("mockserver", "README.md")} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if strings.Contains(text, "go run ./mockserver/cmd/datahub-mock") {
			t.Errorf("%s runs the mock with go run; show go build, then the binary", name)
		}
		if regexp.MustCompile(`-data \./`).MatchString(text) {
			t.Errorf("%s writes the mock's -data into the checkout", name)
		}
		if !mockBuild.MatchString(text) {
			t.Errorf("%s does not show how to build the mock", name)
		}
	}
	// The top README builds it from the reader's module, outside the checkout.
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if m := mockBuild.FindStringSubmatch(string(data)); m == nil || !strings.HasPrefix(m[1], "/") || !strings.HasPrefix(m[2], "github.com/") {
		t.Errorf("README.md builds the mock with %q; build it by its package path from the reader's module, to an absolute path", m)
	}
}

// mockBuild is a go build of the standalone mock: in a checkout, or by its
// package path from another module.
var mockBuild = regexp.MustCompile(`go build -o (\S+) (\./mockserver/cmd/datahub-mock|github\.com/catalogkit/datahub-go/mockserver/cmd/datahub-mock)\b`)
