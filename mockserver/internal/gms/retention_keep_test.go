package gms

import "testing"

// TestKeepVersionsEveryRetainOne: KeepVersions, which looks only aspect
// names of retainOne's lengths up, keeps one version of every aspect of
// retainOne on its entity type, and the default of the same aspect on
// another entity type and of other aspects, the short ones of those
// lengths included.
func TestKeepVersionsEveryRetainOne(t *testing.T) {
	t.Parallel()
	var r Rules
	for k := range retainOne {
		urn := "urn:li:" + k[0] + ":x"
		if got := r.KeepVersions(urn, k[1]); got != 1 {
			t.Errorf("KeepVersions(%s, %s) = %d, want 1", urn, k[1], got)
		}
		if got := r.KeepVersions("urn:li:dataset:x", k[1]); got != DefaultMaxVersions {
			t.Errorf("KeepVersions(dataset, %s) = %d, want %d", k[1], got, DefaultMaxVersions)
		}
		same := make([]byte, len(k[1])) // an aspect name of the same length
		for i := range same {
			same[i] = 'a'
		}
		if got := r.KeepVersions(urn, string(same)); got != DefaultMaxVersions {
			t.Errorf("KeepVersions(%s, %s) = %d, want %d", urn, same, got, DefaultMaxVersions)
		}
	}
	for _, a := range []string{"", "status", "ownership", "datasetProperties", string(make([]byte, 70))} {
		if got := r.KeepVersions("urn:li:dataHubExecutionRequest:x", a); got != DefaultMaxVersions {
			t.Errorf("KeepVersions(%q) = %d, want %d", a, got, DefaultMaxVersions)
		}
	}
}
