package emitter

import (
	"bytes"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// checkDatasetText fails t when the text the encoder writes for d differs
// from d.String()'s escaped.
func checkDatasetText(t *testing.T, d urn.Dataset) {
	t.Helper()
	s := d.String()
	if !directURN(d) {
		if s != "" {
			t.Errorf("%q: not written directly, though its text is not empty", s)
		}
		return
	}
	p := Proposal{URN: d, Aspect: aspects.Status{}}
	enc, err := appendProposalSM([]byte("x"), &p, "", 1, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	head := append([]byte(`x{"entityType":`), `"dataset","entityUrn":`...)
	if want := appendString(head, s); !bytes.HasPrefix(enc, want) || enc[len(want)] != ',' {
		t.Errorf("%q: head written as %s, want %s", s, enc, want)
	}
}

// TestDatasetTextMatchesString holds the dataset text the encoder writes
// to urn.Dataset.String.
func TestDatasetTextMatchesString(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ platform, name, env string }{
		{"hive", "db.table", "PROD"},
		{"urn:li:dataPlatform:kafka", "topic", "dev"},
		{"hive", `we"ird\name`, ""},
		{"hive", "tab\tle\x01", "PROD"},
		{"hive", "naïve ✓ 𝄞", "PROD"},
		{"my platform", "a b", "QA"},
		{"hive", strings.Repeat("long.name_", 30), "PROD"},
	} {
		d, err := urn.NewDataset(tc.platform, tc.name, tc.env)
		if err != nil {
			t.Fatalf("NewDataset(%q, %q, %q): %v", tc.platform, tc.name, tc.env, err)
		}
		checkDatasetText(t, d)
	}
	for _, s := range []string{"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)", "urn:li:dataset:(,x,PROD)"} {
		if d, err := urn.ParseDataset(s); err == nil {
			checkDatasetText(t, d)
		}
	}
	checkDatasetText(t, urn.Dataset{})
}

// FuzzDatasetText is TestDatasetTextMatchesString for any dataset URN the
// urn package builds or parses.
func FuzzDatasetText(f *testing.F) {
	f.Add("hive", "db.table", "PROD", "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)")
	f.Add("", `"\`, "dev", "urn:li:dataset:(,x,PROD)")
	f.Add("h\xffive", "n\xe2\x82", "PROD", "urn:li:dataset:(urn:li:dataPlatform:\xc3,\xe2\x82,PROD)")
	f.Fuzz(func(t *testing.T, platform, name, env, s string) {
		if d, err := urn.NewDataset(platform, name, env); err == nil {
			checkDatasetText(t, d)
		}
		if d, err := urn.ParseDataset(s); err == nil {
			checkDatasetText(t, d)
		}
	})
}
