package gms_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestBatchRewrittenValues writes a batch of ownership values the hooks
// rewrite (their compaction and the rewritten value share the batch's
// arena), among values they leave as they are, values already compact
// and status values, each its own: every stored value is the one the same
// proposal stores on its own, and a rewritten one reads as GMS's hook
// writes it.
func TestBatchRewrittenValues(t *testing.T) {
	t.Parallel()
	const n = 300
	ps := make([]gms.Proposal, n)
	for i := range ps {
		u := fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.rw%d,PROD)", i)
		owner := fmt.Sprintf("urn:li:corpuser:rw%d", i)
		switch i % 4 {
		case 0: // Python's spacing: compacted, then rewritten
			ps[i] = upsert(u, "ownership", fmt.Sprintf(`{"owners": [{"owner": %q, "type": "DATAOWNER"}], "ownerTypes": {}, "lastModified": {"time": %d, "actor": %[1]q}}`, owner, i))
		case 1: // compact, without ownerTypes: rewritten only
			ps[i] = upsert(u, "ownership", fmt.Sprintf(`{"owners":[{"owner":%q,"type":"TECHNICAL_OWNER"},{"owner":"urn:li:corpuser:x","type":"CUSTOM","typeUrn":"urn:li:ownershipType:a.b"}],"lastModified":{"time":%d,"actor":%[1]q}}`, owner, i))
		case 2: // its ownerTypes already as the hook writes them: compacted only
			ps[i] = upsert(u, "ownership", fmt.Sprintf(`{"owners": [{"owner": %q, "type": "DATAOWNER"}], "ownerTypes": {"urn:li:ownershipType:__system__dataowner": [%[1]q]}, "lastModified": {"time": %d, "actor": %[1]q}}`, owner, i))
		default:
			ps[i] = upsert(u, "status", fmt.Sprintf(`{"removed": %v}`, i%8 == 3))
		}
	}
	ctx := context.Background()
	batch := newCore(t, gms.Options{})
	if err := batch.Ingest(ctx, ps, gms.IngestOptions{Batch: true}); err != nil {
		t.Fatal(err)
	}
	alone := newCore(t, gms.Options{})
	for i, p := range ps {
		if err := alone.Ingest(ctx, []gms.Proposal{p}, gms.IngestOptions{}); err != nil {
			t.Fatalf("proposal %d alone: %v", i, err)
		}
		got, err := batch.GetAspect(ctx, p.EntityURN, p.AspectName, 0)
		if err != nil {
			t.Fatalf("proposal %d: %v", i, err)
		}
		want, err := alone.GetAspect(ctx, p.EntityURN, p.AspectName, 0)
		if err != nil {
			t.Fatalf("proposal %d alone: %v", i, err)
		}
		if string(got.Value) != string(want.Value) {
			t.Errorf("proposal %d: the batch stored\n%s\nalone\n%s", i, got.Value, want.Value)
		}
	}
	got, err := batch.GetAspect(ctx, ps[4].EntityURN, "ownership", 0)
	want := `{"owners":[{"owner":"urn:li:corpuser:rw4","type":"DATAOWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__dataowner":["urn:li:corpuser:rw4"]},"lastModified":{"time":4,"actor":"urn:li:corpuser:rw4"}}`
	if err != nil || string(got.Value) != want {
		t.Errorf("proposal 4 = %s, %v\nwant %s", got.Value, err, want)
	}
}
