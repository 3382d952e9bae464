package conformance_test

import (
	"os"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/conformance"
)

// TestGMS runs DataHub's fixtures and this module's against the GMS at
// DATAHUB_CONFORMANCE_URL (with DATAHUB_CONFORMANCE_TOKEN when set) and
// against the mock, and logs each side's pass count and every step where
// the two differ. It fails only when the GMS cannot be reached; where a
// real DataHub and the mock differ is information, printed with -v.
func TestGMS(t *testing.T) {
	base := os.Getenv("DATAHUB_CONFORMANCE_URL")
	if base == "" {
		t.Skip("DATAHUB_CONFORMANCE_URL is not set: no GMS to run the fixtures against")
	}
	fixtures := append(loadDataHub(t), loadOwn(t)...)
	target := conformance.Target{URL: base, Token: os.Getenv("DATAHUB_CONFORMANCE_TOKEN")}
	var gms, mock []conformance.Result
	for _, f := range fixtures {
		res, err := conformance.Run(t.Context(), target, f)
		if err != nil {
			t.Fatal(err)
		}
		gms = append(gms, res...)
	}
	for _, res := range runMock(t, fixtures) {
		mock = append(mock, res...)
	}
	count := func(rs []conformance.Result) (pass, total int) {
		for _, r := range rs {
			if r.Skipped == "" && !r.Waited {
				total++
				if r.Passed() {
					pass++
				}
			}
			if strings.HasPrefix(r.Failure, "request failed") {
				t.Errorf("%s", r)
			}
		}
		return pass, total
	}
	gp, gt := count(gms)
	mp, mt := count(mock)
	t.Logf("%s: %d of %d steps pass; the mock: %d of %d", base, gp, gt, mp, mt)
	for _, r := range gms {
		if !r.Passed() && r.Skipped == "" && !r.Waited {
			t.Logf("GMS fails %s", r)
		}
	}
	for _, line := range conformance.Contrast("gms", gms, "mock", mock, fixtures) {
		t.Log(line)
	}
}
