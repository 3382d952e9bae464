package index

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
	"github.com/google/go-cmp/cmp"
)

// TestFollowLeavesWritesToReads: a writer's Follow leaves fewer than
// followAt pending changes to the next read, which sees every one of them
// (read-your-writes); from followAt on, Follow applies them.
func TestFollowLeavesWritesToReads(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	urn := func(i int) string { return fmt.Sprintf("urn:li:corpuser:u%05d", i) }
	for i := range 10 {
		put(t, st, urn(i), "status", `{"removed":false}`)
		x.Follow()
	}
	if n := x.sub.Len(); n != 10 {
		t.Errorf("pending after 10 writes and Follow = %d, want 10", n)
	}
	if _, ok := x.Get("corpuserindex_v2", urn(9)); !ok {
		t.Error("a read after the writes does not see the last one")
	}
	if n := x.sub.Len(); n != 0 {
		t.Errorf("pending after a read = %d, want 0", n)
	}
	ws := make([]store.Write, followAt)
	for i := range ws {
		ws[i] = store.Write{URN: urn(i), Aspect: "status", Value: json.RawMessage(`{"removed":true}`)}
	}
	if _, err := st.Apply(ws); err != nil {
		t.Fatal(err)
	}
	x.Follow()
	if n := x.sub.Len(); n != 0 {
		t.Errorf("pending after %d writes and Follow = %d, want 0", followAt, n)
	}
}

// TestCatchUpAppliesLastUpserts writes the aspects of a few entities again
// and again, with deletes of aspects and entities between, and checks that
// an index that catches up once (applying only the last upsert of each
// row) ends with the documents and runs of one that applies every change
// as it comes.
func TestCatchUpAppliesLastUpserts(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	each := New(st, Options{Clock: x.opts.Clock})
	t.Cleanup(each.Close)
	urns := []string{"urn:li:corpuser:a", "urn:li:corpuser:b", "urn:li:dataset:(urn:li:dataPlatform:hive,c,PROD)"}
	for i := range 300 {
		u := urns[i%len(urns)]
		switch {
		case i%37 == 0:
			if _, _, err := st.DeleteEntity(u); err != nil {
				t.Fatal(err)
			}
		case i%11 == 0:
			if _, err := st.DeleteAspect(u, "globalTags"); err != nil {
				t.Fatal(err)
			}
		default:
			sm := fmt.Sprintf(`{"runId":"run-%d"}`, i%4)
			aspect := []string{"status", "globalTags", "ownership"}[i%3]
			if err := st.Put(store.Aspect{URN: u, Name: aspect, Value: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)),
				SystemMetadata: json.RawMessage(sm)}); err != nil {
				t.Fatal(err)
			}
		}
		each.Sync()
	}
	want, got := dumpIndex(each), dumpIndex(x)
	if diff := cmp.Diff(want, got, cmp.Transformer("sorted", sortedLines)); diff != "" {
		t.Errorf("caught up once (-one by one +once):\n%s", diff)
	}
	if x.replaced == 0 || each.replaced != 0 {
		t.Errorf("upserts left out: %d caught up once, %d one by one; want some, none", x.replaced, each.replaced)
	}
}

// sortedLines is lines sorted, for comparing unordered dumps.
func sortedLines(lines []string) string {
	return strings.Join(slices.Sorted(slices.Values(lines)), "\n")
}

// BenchmarkCatchUpRewrites measures a catch-up of followAt upserts that
// write 800 rows again and again (about five times each): the cost of
// finding the last upsert of each row and applying those.
func BenchmarkCatchUpRewrites(b *testing.B) {
	st := store.OpenMemory(nil)
	b.Cleanup(func() { _ = st.Close() })
	x := New(st, Options{})
	b.Cleanup(x.Close)
	due := make([]store.Event, followAt)
	for i := range due {
		due[i] = store.Event{Kind: store.EventUpsert, URN: fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.table_%04d,PROD)", i%800),
			Aspect: "datasetProperties", Row: store.Aspect{Value: json.RawMessage(fmt.Sprintf(`{"name":"t%d"}`, i)),
				SystemMetadata: json.RawMessage(`{"runId":"r1","lastObserved":5}`)}}
	}
	work := make([]store.Event, len(due))
	for b.Loop() {
		copy(work, due)
		x.mu.Lock()
		x.applyDue(work)
		x.mu.Unlock()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(due)), "ns/event")
}
