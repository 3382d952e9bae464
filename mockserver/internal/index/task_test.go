package index

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
	"github.com/google/go-cmp/cmp"
)

// TestTruncateQueuesDeletions: a truncation task leaves the source
// documents to the rules core, queuing one deletion per batch as it falls
// due on the clock (the batch size as the limit, the last batch
// without one), and its own documents itself.
func TestTruncateQueuesDeletions(t *testing.T) {
	t.Parallel()
	clk := &testClock{now: time.UnixMilli(1_700_000_000_000)}
	st := store.OpenMemory(clk.Now)
	st.SetRules(testRules{}) // timeseries documents keyed by their timestampMillis
	x := New(st, Options{Clock: clk.Now})
	t.Cleanup(func() { x.Close(); _ = st.Close() })
	const u = "urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)"
	for i := range 5 {
		_, err := st.Apply([]store.Write{{URN: u, Aspect: "datasetProfile", Timeseries: true,
			Value: json.RawMessage(`{"timestampMillis":` + strconv.Itoa(i) + `}`)}})
		if err != nil {
			t.Fatal(err)
		}
	}
	x.Truncate(x.Plan("dataset", "datasetProfile", 2), false, 2)
	if d := x.TakeDeletions(); len(d) != 0 {
		t.Errorf("deleted before the first batch was due: %+v", d)
	}
	clk.Add(TaskBatchInterval)
	x.Sync()
	clk.Add(TaskBatchInterval)
	x.Sync()
	want := []Deletion{{"dataset", "datasetProfile", 2, 2}, {"dataset", "datasetProfile", 2, 0}}
	if diff := cmp.Diff(want, x.TakeDeletions()); diff != "" {
		t.Errorf("deletes (-want +got):\n%s", diff)
	}
	if docs, err := st.Timeseries(u, "datasetProfile", 0, 0, 0); err != nil || len(docs) != 5 {
		t.Errorf("the store has %d documents (%v): the index deleted them itself", len(docs), err)
	}
	if d := x.TakeDeletions(); d != nil {
		t.Errorf("deletions taken twice: %+v", d)
	}
	n := 0
	x.Each("dataset_datasetprofileaspect_v1", func(*Document) bool { n++; return true })
	if n != 2 {
		t.Errorf("the index keeps %d documents, want 2", n)
	}
}
