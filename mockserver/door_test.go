package mockserver

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The packages of the mock's state and rules: the rules core (gms) and
// what it is built on. Every other package under internal is a protocol
// adapter.
var corePackages = []string{"gms", "index", "store", "jsonx", "like", "metatest", "patch"}

// The packages only the core may import.
var behindTheDoor = []string{
	"github.com/catalogkit/datahub-go/mockserver/internal/store",
	"github.com/catalogkit/datahub-go/mockserver/internal/index",
}

// TestAdaptersHoldOnlyTheCore checks that no protocol adapter imports the
// store or the search index: adapters reach them through gms.Core alone,
// whose methods apply the due async writes first. The adapters are every
// package under internal that is not the core's, and this package's files
// except server.go, which opens the store and hands it to the core.
func TestAdaptersHoldOnlyTheCore(t *testing.T) {
	t.Parallel()
	dirs, err := os.ReadDir("internal")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	check := func(dir string, skip func(name string) bool) {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") || skip(filepath.Base(f)) {
				continue
			}
			checked++
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range af.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				if slices.Contains(behindTheDoor, path) {
					t.Errorf("%s imports %s: an adapter reaches the store and the index through gms.Core only", f, path)
				}
			}
		}
	}
	for _, d := range dirs {
		if d.IsDir() && !slices.Contains(corePackages, d.Name()) {
			check(filepath.Join("internal", d.Name()), func(string) bool { return false })
		}
	}
	check(".", func(name string) bool { return name == "server.go" })
	if checked == 0 {
		t.Fatal("no adapter file found")
	}
}
