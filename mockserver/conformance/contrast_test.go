package conformance_test

import (
	"os"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/mockserver/conformance"
)

// TestContrast: two servers that differ in one behaviour (the mock with
// and without alternateMCPValidation) differ in exactly the steps of
// DataHub's exceptions fixture that check it, and Contrast names them.
func TestContrast(t *testing.T) {
	t.Parallel()
	fs, err := conformance.Load(os.DirFS("testdata/datahub"), "v3/exceptions.json")
	if err != nil || len(fs) != 1 {
		t.Fatalf("Load = %d fixtures, %v", len(fs), err)
	}
	run := func(opts ...mockserver.Option) []conformance.Result {
		s := mockserver.Start(t, opts...)
		res, err := conformance.Run(t.Context(), conformance.Target{URL: s.URL(), Wait: noWait}, fs[0])
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	strict, lenient := run(), run(mockserver.WithAlternateMCPValidation(false))
	lines := conformance.Contrast("strict", strict, "lenient", lenient, fs)
	var ids []string
	for _, l := range lines {
		ids = append(ids, strings.Fields(l)[0])
	}
	if want := "v3/exceptions.json[6] v3/exceptions.json[7]"; strings.Join(ids, " ") != want {
		t.Errorf("Contrast names %v, want %s:\n%s", ids, want, strings.Join(lines, "\n"))
	}
	if len(lines) > 0 && !strings.Contains(lines[0], "strict passes, lenient fails (status 200, want one of [400])") {
		t.Errorf("line: %s", lines[0])
	}
}
