// Package testshared finds the project's shared reference folder for tests.
//
// CI clones the repository with the shared folder beside it (X/main and
// X/shared). Fidelity tests read DataHub's reference files from there: the
// GraphQL SDL, the PDL schemas, the entity registry and WIRE.md. Those tests
// must not pass by skipping in CI, so [Dir] fails the test when the folder is
// missing and the CI environment variable is set, and skips it otherwise.
package testshared

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir returns the shared folder beside the module root. When it is missing
// the test fails under CI and is skipped elsewhere.
func Dir(tb testing.TB) string {
	tb.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("testshared: cannot locate the module root")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("the shared reference folder is required in CI (beside the repository): %v", err)
		}
		tb.Skipf("shared reference folder not found, skipping outside CI: %v", err)
	}
	return dir
}

// Path returns the path of elem under the shared folder, as [Dir] finds it.
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	return filepath.Join(append([]string{Dir(tb)}, elem...)...)
}

// ReadFile reads the file at elem under the shared folder, failing the test
// when it cannot.
func ReadFile(tb testing.TB, elem ...string) []byte {
	tb.Helper()
	data, err := os.ReadFile(Path(tb, elem...))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}
