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

// TestCheckTargetThenIngest checks that Ingest, which takes the checks
// CheckTarget made of a URN instead of making them again, still makes every
// check that is not about the URN alone.
func TestCheckTargetThenIngest(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{})
	const u = "urn:li:dataset:(urn:li:dataPlatform:hive,db.target,PROD)"
	if _, err := gms.CheckTarget(u); err != nil {
		t.Fatal(err)
	}
	p := upsert(u, "status", `{"removed":false}`)
	p.EntityType = "chart"
	if err := c.Ingest(t.Context(), []gms.Proposal{p}, gms.IngestOptions{}); kindOf(err) != gms.Invalid {
		t.Errorf("Ingest with another entityType = %v, want invalid", err)
	}
	p = upsert(u, "chartInfo", `{}`)
	if err := c.Ingest(t.Context(), []gms.Proposal{p}, gms.IngestOptions{}); kindOf(err) != gms.UnknownAspect {
		t.Errorf("Ingest of another entity's aspect = %v, want unknown aspect", err)
	}
	p = upsert(u, "status", `{"removed":false}`)
	if err := c.Ingest(t.Context(), []gms.Proposal{p}, gms.IngestOptions{}); err != nil {
		t.Fatalf("Ingest = %v", err)
	}
	if ok, err := c.Exists(t.Context(), u); err != nil || !ok {
		t.Errorf("Exists = %v, %v; want true (the key aspect written from the remembered key)", ok, err)
	}
}
