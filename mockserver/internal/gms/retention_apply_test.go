package gms_test

import (
	"fmt"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// TestApplyRetentionPolicies: applyRetention restricted to an aspect (and
// a URN) trims that aspect's history under whichever policy applies, the
// most specific first (entity and aspect, entity and "*", "*" and aspect,
// "*" and "*"), and handles no row when none applies.
func TestApplyRetentionPolicies(t *testing.T) {
	t.Parallel()
	const other = "urn:li:dataset:(urn:li:dataPlatform:hive,other,PROD)"
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		name, policy string // policy: "entity,aspect" of the dataHubRetention, "" none
		urn          *string
		rows         int
	}{
		{"no policy", "", nil, 0},
		{"no policy, one URN", "", str(ds), 0},
		{"entity and aspect", "dataset,datasetProperties", nil, 4},
		{"entity and aspect, one URN", "dataset,datasetProperties", str(ds), 2},
		{"entity and any aspect", "dataset,*", nil, 4},
		{"any entity and aspect", "*,datasetProperties", str(other), 2},
		{"any", "*,*", nil, 4},
		{"another aspect's policy", "dataset,globalTags", nil, 0},
		{"another entity's policy", "chart,*", nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newCore(t, gms.Options{})
			ctx := t.Context()
			if tc.policy != "" {
				p := gms.Proposal{EntityType: "dataHubRetention", EntityURN: "urn:li:dataHubRetention:(" + tc.policy + ")", ChangeType: "UPSERT",
					AspectName: "dataHubRetentionConfig", Aspect: []byte(`{"retention":{"version":{"maxVersions":2}}}`), ContentType: "application/json"}
				if err := c.Ingest(ctx, []gms.Proposal{p}, gms.IngestOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 4 { // versions 1..4 of each: 3 history rows, 2 past the policy
				for _, u := range []string{ds, other} {
					if err := c.Ingest(ctx, []gms.Proposal{upsert(u, "datasetProperties", fmt.Sprintf(`{"description":"v%d"}`, i))}, gms.IngestOptions{}); err != nil {
						t.Fatal(err)
					}
				}
			}
			res, err := c.ApplyRetention(ctx, gms.RetentionArgs{Count: 100, AttemptWithVersion: 1, Aspect: str("datasetProperties"), URN: tc.urn})
			if err != nil {
				t.Fatal(err)
			}
			if res.RowsHandled != tc.rows {
				t.Errorf("rowsHandled = %d, want %d", res.RowsHandled, tc.rows)
			}
		})
	}
}

// BenchmarkApplyRetentionNoPolicy is applyRetention of one aspect on a
// store of 5,000 datasets with no policy for it: a few policy reads, no
// count of the store's versions.
func BenchmarkApplyRetentionNoPolicy(b *testing.B) {
	st := store.OpenMemory(nil)
	c := gms.New(st, gms.Options{})
	b.Cleanup(func() { _ = c.Close(); _ = st.Close() })
	var ps []gms.Proposal
	for i := range 5000 {
		ps = append(ps, upsert(fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,t%d,PROD)", i), "datasetProperties", `{"name":"t"}`))
	}
	if err := c.Ingest(b.Context(), ps, gms.IngestOptions{Batch: true}); err != nil {
		b.Fatal(err)
	}
	aspect := "datasetProperties"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.ApplyRetention(b.Context(), gms.RetentionArgs{Count: 100, Aspect: &aspect}); err != nil {
			b.Fatal(err)
		}
	}
}
