package index

import (
	"slices"
	"testing"
)

// TestReferrers checks the postings of the entities that name a URN in a
// @Relationship field (lineage or not), as writes, rewrites and deletes
// change them.
func TestReferrers(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	const owner = "urn:li:corpuser:jo"
	lineage := func(up string) string {
		return `{"upstreams":[{"dataset":"` + up + `","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}]}`
	}
	put(t, st, ds("u"), "upstreamLineage", lineage(ds("t")))
	put(t, st, ds("v"), "upstreamLineage", lineage(ds("t")))
	put(t, st, ds("v"), "ownership", `{"owners":[{"owner":"`+owner+`","type":"DATAOWNER"}]}`)
	check := func(u string, want ...string) {
		t.Helper()
		if got := x.Referrers(u); !slices.Equal(got, want) {
			t.Errorf("Referrers(%s) = %v, want %v", u, got, want)
		}
	}
	check(ds("t"), ds("u"), ds("v"))
	check(owner, ds("v"))
	check(ds("u"))
	put(t, st, ds("u"), "upstreamLineage", lineage(ds("w")))
	check(ds("t"), ds("v"))
	check(ds("w"), ds("u"))
	if _, _, err := st.DeleteEntity(ds("v")); err != nil {
		t.Fatal(err)
	}
	check(ds("t"))
	check(owner)
}
