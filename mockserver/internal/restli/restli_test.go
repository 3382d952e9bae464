package restli

import (
	"net/url"
	"slices"
	"testing"
)

// TestBatchIDs checks the keys of a BATCH_GET in both protocols, URNs
// with commas and parentheses kept whole.
func TestBatchIDs(t *testing.T) {
	t.Parallel()
	ds := "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"ids=List(" + url.QueryEscape(ds) + ",urn%3Ali%3Acorpuser%3Ax)", []string{ds, "urn:li:corpuser:x"}},
		{"ids=" + url.QueryEscape(ds) + "&ids=urn%3Ali%3Acorpuser%3Ax&aspects=List(status)", []string{ds, "urn:li:corpuser:x"}},
		{"ids=List((urn:a,versionStamp:b),(urn:c))", []string{"(urn:a,versionStamp:b)", "(urn:c)"}},
		{"aspects=List(status)", nil},
	} {
		c := &Call{RawQuery: tc.query}
		if got := c.batchIDs(); !slices.Equal(got, tc.want) {
			t.Errorf("batchIDs(%s) = %q, want %q", tc.query, got, tc.want)
		}
	}
}

// TestVersionedKey checks the parsing of a VersionedUrn key.
func TestVersionedKey(t *testing.T) {
	t.Parallel()
	u, stamp, ok := versionedKey("(urn:urn%3Ali%3Acorpuser%3Ax,versionStamp:status%3A2%3Bownership%3A0)")
	if !ok || u != "urn:li:corpuser:x" || stamp["status"] != 2 || stamp["ownership"] != 0 || len(stamp) != 2 {
		t.Errorf("versionedKey = %q %v %v", u, stamp, ok)
	}
	for _, bad := range []string{"urn:li:corpuser:x", "(versionStamp:status%3A1)", "(urn:x,versionStamp:status%3Anope)"} {
		if _, _, ok := versionedKey(bad); ok {
			t.Errorf("versionedKey(%q) accepted", bad)
		}
	}
}
