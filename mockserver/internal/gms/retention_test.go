package gms_test

import (
	"fmt"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestRetention: GMS's default version retention keeps the latest 20
// versions of an aspect (failed before: every version stayed), and no
// history at all of dataHubExecutionRequestResult (failed before: version
// 1 and 2 read back), whose latest still carries its version number.
func TestRetention(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{})
	ctx := t.Context()
	for i := range gms.DefaultMaxVersions + 2 { // versions 1..22
		if err := c.Ingest(ctx, []gms.Proposal{upsert(ds, "datasetProperties", fmt.Sprintf(`{"description":"v%d"}`, i+1))}, gms.IngestOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for v := int64(1); v <= 21; v++ {
		_, err := c.GetAspect(ctx, ds, "datasetProperties", v)
		if gone := v <= 2; gone != (kindOf(err) == gms.NotFound) {
			t.Errorf("history version %d: err = %v, want gone=%v", v, err, gone)
		}
	}
	const er = "urn:li:dataHubExecutionRequest:x"
	for _, st := range []string{"PENDING", "RUNNING", "COMPLETED"} {
		p := gms.Proposal{EntityType: "dataHubExecutionRequest", EntityURN: er, ChangeType: "UPSERT",
			AspectName: "dataHubExecutionRequestResult", Aspect: []byte(`{"status":"` + st + `"}`), ContentType: "application/json"}
		if err := c.Ingest(ctx, []gms.Proposal{p}, gms.IngestOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []int64{1, 2} {
		if _, err := c.GetAspect(ctx, er, "dataHubExecutionRequestResult", v); kindOf(err) != gms.NotFound {
			t.Errorf("execution request result version %d: %v, want NotFound", v, err)
		}
	}
	a, err := c.GetEnvelopedAspect(ctx, er, "dataHubExecutionRequestResult", 3)
	if err != nil || string(a.Value) != `{"status":"COMPLETED"}` {
		t.Errorf("version 3 (the latest) = %s, %v", a.Value, err)
	}
}
