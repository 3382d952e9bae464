package client

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// newTestClient returns a client of s. Its idle connections are closed
// before s (cleanups run last-in first-out): http.Server.Shutdown waits up
// to 5 s for connections dialed but never used, which a burst of
// concurrent requests leaves behind.
func newTestClient(t testing.TB, s *mockserver.Server, opts ...Option) *Client {
	t.Helper()
	c, err := New(s.URL(), append([]Option{testshared.EndpointOption()}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// The mock operations the client's requests are counted and failed under,
// in this process's endpoint (testshared.EnvEndpoint): the end-to-end
// tests name these, so that one suite runs over Rest.li and over OpenAPI.
var (
	// opWrite is an UPSERT write; opBatchWrite a write of several.
	opWrite      = pick(mockserver.OpIngestProposal, mockserver.OpV3Write)
	opBatchWrite = pick(mockserver.OpIngestProposalBatch, mockserver.OpV3Write)
	// opPatchWrite is a PATCH write.
	opPatchWrite = pick(mockserver.OpIngestProposal, mockserver.OpV3Patch)
	// opGetAspect is a read of one aspect (GetAspect).
	opGetAspect = pick(mockserver.OpGetAspect, mockserver.OpV3GetAspect)
	// opExists is an existence check (Exists).
	opExists = pick(mockserver.OpGetAspect, mockserver.OpV3Head)
	// opGetEntity is a read of an entity or a versioned aspect.
	opGetEntity = pick(mockserver.OpGetEntity, mockserver.OpV3GetEntity)
)

// writeRequests counts the client's write requests of either kind.
func writeRequests(s *mockserver.Server) int {
	n := s.RequestCount(opWrite)
	if opBatchWrite != opWrite {
		n += s.RequestCount(opBatchWrite)
	}
	return n
}

// validationStatus is the status of a refused aspect value: Rest.li's 422,
// OpenAPI's 400 ("Validation Error").
var validationStatus = map[bool]int{false: http.StatusUnprocessableEntity, true: http.StatusBadRequest}[testshared.OverOpenAPI()]

// pick returns restli, or overOpenAPI when this process runs the suite over
// OpenAPI.
func pick(restli, overOpenAPI mockserver.Op) mockserver.Op {
	if testshared.OverOpenAPI() {
		return overOpenAPI
	}
	return restli
}

// isWrite reports whether r is a write of the client (ingestProposal, or an
// OpenAPI write).
func isWrite(r *http.Request) bool {
	return strings.Contains(r.URL.RawQuery, "ingestProposal") || (strings.Contains(r.URL.Path, "/openapi/v3/entity/") && r.Method != http.MethodGet && r.Method != http.MethodHead)
}

// fixedClock makes c stamp every write with t.
func fixedClock(c *Client, t time.Time) { c.now = func() time.Time { return t } }

var testTime = time.UnixMilli(1_700_000_000_000)

func tableURN(t testing.TB, name string) urn.MLFeatureTable {
	t.Helper()
	u, err := urn.NewMLFeatureTable("feast", name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func featureURN(t testing.TB, ns, name string) urn.MLFeature {
	t.Helper()
	u, err := urn.NewMLFeature(ns, name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// putTable stores a feature table with a description, so that it exists.
func putTable(t testing.TB, s *mockserver.Server, u urn.MLFeatureTable, features ...string) {
	t.Helper()
	if err := s.PutAspect(u.String(), aspects.MLFeatureTableProperties{Description: aspects.Ptr("t"), MLFeatures: features}); err != nil {
		t.Fatal(err)
	}
}

func featureNames(n int, ns string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("urn:li:mlFeature:(%s,f%02d)", ns, i)
	}
	return out
}

func mustGetTable(t testing.TB, s *mockserver.Server, u urn.MLFeatureTable) *aspects.MLFeatureTableProperties {
	t.Helper()
	a, err := s.GetAspect(u.String(), "mlFeatureTableProperties")
	if err != nil {
		t.Fatal(err)
	}
	return a.(*aspects.MLFeatureTableProperties)
}

// addConcurrently adds the features named in want to table, one goroutine
// each, and checks that every call succeeded and the stored table lists
// them all.
func addConcurrently(t *testing.T, s *mockserver.Server, c *Client, table urn.MLFeatureTable, want []string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, len(want))
	for i := range want {
		f := urn.MustParse(want[i]).(urn.MLFeature)
		wg.Go(func() { errs[i] = c.AddFeatureToTable(t.Context(), table, f) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	got := slices.Sorted(slices.Values(mustGetTable(t, s, table).MLFeatures))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("features (-want +got):\n%s", diff)
	}
}
