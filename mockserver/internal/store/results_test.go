package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResultsShareVersionText: the results of a batch carry each write's
// version, skipped and unchanged flags, the version texts in one
// allocation (a version of 100 or more was an allocation of its own), and
// a version below 100 takes none.
func TestResultsShareVersionText(t *testing.T) {
	ps := make([]prepared, 5)
	ps[0].out = outcome{version: 7}
	ps[1].out = outcome{version: 123456, unchanged: true}
	ps[2].out = outcome{skipped: true}
	ps[3].out = outcome{version: 1<<63 - 1}
	ps[4].out = outcome{version: 100}
	want := []Result{{Version: "7"}, {Version: "123456", Unchanged: true}, {Skipped: true}, {Version: "9223372036854775807"}, {Version: "100"}}
	if diff := cmp.Diff(want, results(ps)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if n := testing.AllocsPerRun(100, func() { results(ps) }); n != 2 {
		t.Errorf("results allocate %v times, want 2 (the results and their versions)", n)
	}
	small := ps[:1]
	if n := testing.AllocsPerRun(100, func() { results(small) }); n != 1 {
		t.Errorf("results of a version below 100 allocate %v times, want 1 (the results)", n)
	}
}
