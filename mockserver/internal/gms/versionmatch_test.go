package gms_test

import (
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestGetEnvelopedAspectReadsLatestByItsVersion: after two writes the
// latest row carries version "2" and no history row 2 exists; GMS's OpenAPI
// read of version 2 answers the latest (failed before: NotFound), version 1
// the history row, version 3 nothing.
func TestGetEnvelopedAspectReadsLatestByItsVersion(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{})
	ctx := t.Context()
	for _, v := range []string{`{"tags":[{"tag":"urn:li:tag:a"}]}`, `{"tags":[{"tag":"urn:li:tag:b"}]}`} {
		if err := c.Ingest(ctx, []gms.Proposal{upsert(ds, "globalTags", v)}, gms.IngestOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for v, want := range map[int64]string{0: "urn:li:tag:b", 1: "urn:li:tag:a", 2: "urn:li:tag:b", 3: ""} {
		a, err := c.GetEnvelopedAspect(ctx, ds, "globalTags", v)
		switch {
		case want == "" && kindOf(err) != gms.NotFound:
			t.Errorf("version %d: err = %v, want NotFound", v, err)
		case want != "" && err != nil:
			t.Errorf("version %d: %v", v, err)
		case want != "" && !strings.Contains(string(a.Value), want):
			t.Errorf("version %d = %s, want %s", v, a.Value, want)
		}
	}
	// Rest.li's read keeps reading the history row only.
	if _, err := c.GetAspect(ctx, ds, "globalTags", 2); kindOf(err) != gms.NotFound {
		t.Errorf("GetAspect version 2: err = %v, want NotFound", err)
	}
}
