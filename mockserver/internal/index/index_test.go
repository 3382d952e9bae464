package index

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/like"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
	"github.com/google/go-cmp/cmp"
)

// testClock is a settable clock.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func newTest(t *testing.T, lag time.Duration) (*store.Store, *Index, *testClock) {
	t.Helper()
	clk := &testClock{now: time.UnixMilli(1_700_000_000_000)}
	st := store.OpenMemory(clk.Now)
	st.SetRules(testRules{}) // timeseries documents keyed by their timestampMillis
	x := New(st, Options{Clock: clk.Now, Lag: lag})
	t.Cleanup(func() { x.Close(); _ = st.Close() })
	return st, x, clk
}

func put(t *testing.T, st *store.Store, urn, aspect, value string) {
	t.Helper()
	if err := st.Put(store.Aspect{URN: urn, Name: aspect, Value: json.RawMessage(value)}); err != nil {
		t.Fatal(err)
	}
}

func TestLagPauseReset(t *testing.T) {
	t.Parallel()
	st, x, clk := newTest(t, 2*time.Second)
	const u = "urn:li:corpuser:a"
	put(t, st, u, "status", `{"removed":false}`)
	if _, ok := x.Get("corpuserindex_v2", u); ok {
		t.Fatal("indexed before the lag")
	}
	clk.Add(2 * time.Second)
	d, ok := x.Get("corpuserindex_v2", u)
	if !ok || string(d.Aspects["status"]) != `{"removed":false}` || d.Size != len(u)+len("status")+len(`{"removed":false}`) {
		t.Fatalf("document = %+v, %v", d, ok)
	}
	x.SetPaused(true)
	put(t, st, u, "status", `{"removed":true}`)
	clk.Add(2 * time.Second)
	if d, _ := x.Get("corpuserindex_v2", u); string(d.Aspects["status"]) != `{"removed":false}` {
		t.Errorf("paused index changed: %s", d.Aspects["status"])
	}
	if applied, dropped := x.Stats(); applied != 1 || dropped != 1 {
		t.Errorf("stats = %d applied, %d dropped", applied, dropped)
	}
	x.SetPaused(false)
	if err := st.Reset(); err != nil {
		t.Fatal(err)
	}
	clk.Add(2 * time.Second)
	if got := x.Indices(); len(got) != 0 {
		t.Errorf("indices after reset = %+v", got)
	}
}

func TestTimeseriesIndexAndTruncate(t *testing.T) {
	t.Parallel()
	st, x, clk := newTest(t, 0)
	const u = "urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)"
	for i := range 5 {
		_, err := st.Apply([]store.Write{{URN: u, Aspect: "datasetProfile", Timeseries: true,
			Value: json.RawMessage(`{"timestampMillis":` + string(rune('0'+i)) + `}`)}})
		if err != nil {
			t.Fatal(err)
		}
	}
	var ms []int64
	x.Each("dataset_datasetprofileaspect_v1", func(d *Document) bool { ms = append(ms, d.TimestampMillis); return true })
	if diff := cmp.Diff([]int64{0, 1, 2, 3, 4}, ms); diff != "" {
		t.Errorf("documents (-want +got):\n%s", diff)
	}
	p := x.Plan("dataset", "datasetProfile", 2)
	if p.ToDelete != 3 || p.Total != 5 {
		t.Errorf("plan = %+v", p)
	}
	id := x.Truncate(p, false, 2)
	node, n, _ := strings.Cut(id, ":")
	num, err := strconv.ParseInt(n, 10, 64)
	if err != nil || node != DefaultNodeID {
		t.Fatalf("task id %q", id)
	}
	clk.Add(TaskBatchInterval)
	if s, _ := x.Task(node, num); s.Completed || s.Deleted != 2 {
		t.Errorf("after one batch = %+v", s)
	}
	clk.Add(TaskBatchInterval)
	if s, _ := x.Task(node, num); !s.Completed || s.Deleted != 3 || s.Batches != 2 {
		t.Errorf("after two batches = %+v", s)
	}
	for _, d := range x.TakeDeletions() { // as the rules core does at its barrier
		if _, err := st.DeleteDocuments("urn:li:"+d.EntityType+":", d.Aspect, truncationBatch(d.EndTimeMillis, d.Limit)); err != nil {
			t.Fatal(err)
		}
	}
	docs, err := st.Timeseries(u, "datasetProfile", 0, 0, 0)
	if err != nil || len(docs) != 2 {
		t.Errorf("store keeps %d documents (%v), want 2", len(docs), err)
	}
	if _, ok := x.Task("other", num); ok {
		t.Errorf("a task of another node was found")
	}
}

func TestLikePattern(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, s string
		want       bool
	}{
		{"urn:li:dataset:%", "urn:li:dataset:(a,b,PROD)", true},
		{"urn:li:dataset:%", "urn:li:chart:(a,b)", false},
		{"%t_", "xt1", true},
		{"%t_", "xt12", false},
		{`100\%`, "100%", true},
		{`100\%`, "1000", false},
		{"a.b", "aXb", false},
		{"%", "line\nbreak", true},
	} {
		if got := like.Compile(tc.pattern).Match(tc.s); got != tc.want {
			t.Errorf("LIKE %q on %q = %v", tc.pattern, tc.s, got)
		}
	}
	if got := like.Compile(`urn:li:data_set%`).Prefix(); got != "urn:li:data" {
		t.Errorf("likePrefix = %q", got)
	}
}
