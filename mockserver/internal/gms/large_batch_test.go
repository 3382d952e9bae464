package gms_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestLargeBatchRefusal validates a batch of 200 proposals with bad items
// at its start and end: the refusal names them all in index order, its
// kind and index are the first one's, and nothing is written; the same
// batch made good is written whole, in order.
func TestLargeBatchRefusal(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{})
	const n = 200
	ps := make([]gms.Proposal, n)
	for i := range ps {
		ps[i] = upsert(fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.t%d,PROD)", i), "status", `{"removed":false}`)
	}
	bad := []int{3, 150, 199}
	for _, i := range bad {
		ps[i].AspectName = "nope"
	}
	var want string
	for k, i := range bad {
		if k > 0 {
			want += "; "
		}
		want += fmt.Sprintf("[%d] Unknown aspect nope for entity dataset", i)
	}
	want = fmt.Sprintf(gms.MsgBatchInvalid, len(bad), n, want)
	err := c.Ingest(context.Background(), ps, gms.IngestOptions{Batch: true})
	var e *gms.Error
	if !errors.As(err, &e) || e.Message != want || e.Kind != gms.UnknownAspect || e.Index != bad[0] {
		t.Fatalf("Ingest = %#v,\nwant kind %v, index %d and %q", err, gms.UnknownAspect, bad[0], want)
	}
	if _, err := c.GetAspect(context.Background(), ps[0].EntityURN, "status", 0); err == nil {
		t.Error("a refused batch wrote its first item")
	}
	for _, i := range bad {
		ps[i].AspectName = "status"
	}
	ps[n-1].EntityURN = ps[0].EntityURN // written again by the last proposal
	ps[n-1].Aspect = []byte(`{"removed":true}`)
	if err := c.Ingest(context.Background(), ps, gms.IngestOptions{Batch: true}); err != nil {
		t.Fatal(err)
	}
	a, err := c.GetAspect(context.Background(), ps[0].EntityURN, "status", 0)
	if err != nil || string(a.Value) != `{"removed":true}` {
		t.Errorf("GetAspect = %s, %v; want the batch's last write", a.Value, err)
	}
}
