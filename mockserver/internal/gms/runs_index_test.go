package gms_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestRunsFollowIndex checks that a run's rows are found through the
// index's record of each row's run (as GMS's system metadata index answers
// them): a write shows in describe and list once the index has it.
func TestRunsFollowIndex(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	clk := &clock{now: time.UnixMilli(1_700_000_000_000)}
	c := newCore(t, gms.Options{Clock: clk.Now, AsyncLag: time.Second, NoDefaultAspects: true})
	p := upsert(ds, "datasetProperties", `{"name":"t"}`)
	p.SystemMetadata = json.RawMessage(`{"runId":"run-1","lastObserved":5}`)
	if err := c.Ingest(ctx, []gms.Proposal{p}, gms.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	rows, err := c.RunRows(ctx, "run-1", 0, -1, false)
	if err != nil || len(rows) != 0 {
		t.Fatalf("RunRows before the index has the write = %v, %v; want none", rows, err)
	}
	clk.Advance(time.Second)
	rows, err = c.RunRows(ctx, "run-1", 0, -1, false)
	// the key aspect GMS writes with the entity's first aspect, then the aspect
	if err != nil || len(rows) != 2 || rows[0].Aspect != "datasetKey" || !rows[0].KeyAspect ||
		rows[1].URN != ds || rows[1].Aspect != "datasetProperties" || rows[1].Timestamp != 5 {
		t.Fatalf("RunRows = %+v, %v", rows, err)
	}
	runs, err := c.Runs(ctx, 0, 10, false)
	if err != nil || len(runs) != 1 || runs[0].RunID != "run-1" || runs[0].Rows != 2 {
		t.Fatalf("Runs = %+v, %v", runs, err)
	}
}
