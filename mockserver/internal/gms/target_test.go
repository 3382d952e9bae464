package gms_test

import (
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestCheckTargetAnswersAsCheckURN checks that CheckTarget refuses exactly
// the URNs CheckURN refuses, with its error, and finds the entity of the
// others in any case.
func TestCheckTargetAnswersAsCheckURN(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		urn    string
		entity string // "" when unknown
	}{
		{ds, "dataset"},
		{"urn:li:corpuser:a", "corpuser"},
		{"urn:li:noSuchEntity:x", ""},
		{"urn:li:dataset:bad", ""},
		{"urn:li:DATASET:(urn:li:dataPlatform:hive,db.t,PROD)", ""},
		{"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,NOPE)", ""},
		{" " + ds, ""},
	} {
		t.Run(tc.urn, func(t *testing.T) {
			t.Parallel()
			for range 2 { // the second time from what the first remembered
				_, want := gms.CheckURN(tc.urn)
				got, err := gms.CheckTarget(tc.urn)
				if (err == nil) != (want == nil) || err != nil && *err != *want {
					t.Fatalf("CheckTarget error = %v, want %v", err, want)
				}
				if err != nil {
					continue
				}
				if got.URN != tc.urn || got.Known != (tc.entity != "") || got.Entity.Name != tc.entity {
					t.Errorf("CheckTarget = %q %v %q, want %q %v %q", got.URN, got.Known, got.Entity.Name, tc.urn, tc.entity != "", tc.entity)
				}
			}
		})
	}
}

// TestProposalTargetOfAnotherURN checks that a proposal whose Target is
// not its EntityURN's gets every check of its EntityURN: the Target spares
// only the URN it was made for.
func TestProposalTargetOfAnotherURN(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{})
	target, err := gms.CheckTarget(ds)
	if err != nil {
		t.Fatal(err)
	}
	p := upsert("urn:li:dataset:bad", "status", `{"removed":false}`)
	p.Target = &target
	if err := c.Ingest(t.Context(), []gms.Proposal{p}, gms.IngestOptions{}); kindOf(err) != gms.BadArgument {
		t.Fatalf("Ingest = %v, want a bad argument", err)
	}
	p = upsert(ds, "status", `{"removed":false}`)
	p.Target = &target
	if err := c.Ingest(t.Context(), []gms.Proposal{p}, gms.IngestOptions{}); err != nil {
		t.Fatalf("Ingest with its own Target = %v", err)
	}
}
