package conformance_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/mockserver/conformance"
)

// datahubFixtures are DataHub's fixture globs, as DataHub's test_openapi.py
// names them.
var datahubFixtures = []string{"v1/*.json", "v2/*.json", "v3/*.json", "openlineage/*.json"}

func loadDataHub(t *testing.T) []conformance.Fixture {
	t.Helper()
	fs, err := conformance.Load(os.DirFS("testdata/datahub"), datahubFixtures...)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) == 0 {
		t.Fatal("no fixtures under testdata/datahub")
	}
	return fs
}

// loadOwn loads this module's fixtures (testdata/datahub-go).
func loadOwn(t *testing.T) []conformance.Fixture {
	t.Helper()
	fs, err := conformance.Load(os.DirFS("testdata/datahub-go"), "*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) == 0 {
		t.Fatal("no fixtures under testdata/datahub-go")
	}
	for i := range fs {
		fs[i].Name = "datahub-go/" + fs[i].Name
	}
	return fs
}

func noWait(context.Context) error { return nil }

// tickingClock starts at the current time and moves 1 ms each time it is
// read, so that two writes never share a millisecond, as the writes of a
// fixture sent over the network to a GMS do not: the timeline groups the
// changes of one millisecond into one transaction.
func tickingClock() func() time.Time {
	start := time.Now()
	var n atomic.Int64
	return func() time.Time { return start.Add(time.Duration(n.Add(1)) * time.Millisecond) }
}

// ciToken is the token the fixtures run with. DataHub's CI runs them with
// metadata service authentication on and a token of its root user,
// urn:li:corpuser:datahub; a configured token that is not a DataHub token
// acts for that user on the mock too.
const ciToken = "conformance-token"

// runMock runs each fixture on a fresh mock server, as a fresh GMS would
// see it, authenticated as DataHub's CI is, and returns the results in
// fixture order.
func runMock(t *testing.T, fixtures []conformance.Fixture) [][]conformance.Result {
	t.Helper()
	out := make([][]conformance.Result, len(fixtures))
	var wg sync.WaitGroup
	for i, f := range fixtures {
		s := mockserver.Start(t, mockserver.WithClock(tickingClock()), mockserver.WithBootstrap(true),
			mockserver.WithToken(ciToken))
		wg.Go(func() {
			res, err := conformance.Run(t.Context(), conformance.Target{URL: s.URL(), Token: ciToken, Wait: noWait}, f)
			if err != nil {
				t.Errorf("%s: %v", f.Name, err)
			}
			out[i] = res
		})
	}
	wg.Wait()
	return out
}

// TestMock runs DataHub's OpenAPI fixtures against the mock. A step fails
// the test unless it passes or mockSkips names it; a step on the skip list
// that passes fails the test too, so that the list only holds what still
// differs.
func TestMock(t *testing.T) {
	t.Parallel()
	fixtures := loadDataHub(t)
	runs := runMock(t, fixtures)
	known := map[string]bool{}
	pass, total := 0, 0
	for fi, res := range runs {
		for _, r := range res {
			known[r.ID()] = true
			if r.Skipped != "" || r.Waited {
				continue
			}
			total++
			reason, skipped := mockSkips[r.ID()]
			switch {
			case r.Passed():
				pass++
				if skipped {
					t.Errorf("%s passes on the mock now: take it off mockSkips (%q)", r.ID(), reason)
				}
			case !skipped:
				t.Errorf("%s", r)
			}
		}
		_ = fi
	}
	for id, reason := range mockSkips {
		if !known[id] {
			t.Errorf("mockSkips names %s, which no fixture has", id)
		}
		if strings.TrimSpace(reason) == "" {
			t.Errorf("mockSkips[%s] gives no reason", id)
		}
	}
	t.Logf("DataHub's OpenAPI fixtures on the mock: %d of %d steps pass, %d on the skip list", pass, total, len(mockSkips))
}

// TestOwnFixtures runs this module's fixtures, in DataHub's format, for the
// routes DataHub's fixtures do not cover (testdata/datahub-go): every step
// passes on the mock.
func TestOwnFixtures(t *testing.T) {
	t.Parallel()
	fixtures := loadOwn(t)
	steps := 0
	for _, res := range runMock(t, fixtures) {
		for _, r := range res {
			steps++
			if !r.Passed() && !r.Waited {
				t.Errorf("%s", r)
			}
		}
	}
	t.Logf("%d fixtures, %d steps", len(fixtures), steps)
}
