package store

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// preBuildBatches are batches of writes that cover every way a row built
// before the writer lock is used or dropped: first versions (with their
// entities' key rows), new versions, an aspect written twice in one batch
// (the second finds another latest row), an unchanged value (refreshed
// under the lock), a write with a Check and one with a Transform (never
// built before the lock).
func preBuildBatches() [][]Write {
	w := func(u, v, run string) Write {
		return Write{URN: u, Aspect: props, Value: json.RawMessage(v), KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV),
			SystemMetadata: json.RawMessage(`{"runId":"` + run + `","lastObserved":5}`)}
	}
	a, b := urnN(1), urnN(2)
	check := w(b, `{"description":"checked"}`, "r4")
	check.Check = func(Current) error { return nil }
	tr := w(a, `{}`, "r4")
	tr.Transform = func(cur json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"description":"transformed"}`), nil
	}
	return [][]Write{
		{w(a, `{"description":"1"}`, "r1"), w(b, `{"description":"1"}`, "r1")},
		{w(a, `{"description":"2"}`, "r2"), w(a, `{"description":"3"}`, "r2"), w(b, `{"description":"1"}`, "r2")},
		{w(b, `{"description":"2"}`, "r3"), w(a, `{"description":"3"}`, "r3")},
		{check, tr, w(b, `{"description":"4"}`, "r5")},
		{w(b, `{"description":"4"}`, "r5")}, // unchanged, from the same run
	}
}

// everyRow is every row of the store, history included.
func everyRow(t *testing.T, s *Store) []Aspect {
	t.Helper()
	var out []Aspect
	for _, l := range allRows(t, s) {
		out = append(out, l)
		latest, _ := strconv.ParseInt(sysMeta(t, l.SystemMetadata)["version"].(string), 10, 64)
		for v := int64(1); v < latest; v++ {
			out = append(out, mustGet(t, s, l.URN, l.Name, v))
		}
	}
	return out
}

// TestPreBuiltRowsAreTheLockedOnes checks that the memory store, which
// builds rows before its writer lock, stores exactly the rows, history
// included, and answers the results of the bbolt store, which builds them
// all under the lock.
func TestPreBuiltRowsAreTheLockedOnes(t *testing.T) {
	t.Parallel()
	mem, bolt := backends[0].open(t, stepClock()), backends[1].open(t, stepClock())
	for i, batch := range preBuildBatches() {
		rm, rb := mustApply(t, mem, batch...), mustApply(t, bolt, batch...)
		if diff := cmp.Diff(rb, rm); diff != "" {
			t.Errorf("batch %d: results (-bolt +memory):\n%s", i, diff)
		}
	}
	if diff := cmp.Diff(everyRow(t, bolt), everyRow(t, mem)); diff != "" {
		t.Errorf("rows (-bolt +memory):\n%s", diff)
	}
}

// TestPreBuildBuildsEligibleWrites checks which writes of a batch get
// their row before the writer lock: those without a Check or a Transform,
// on the latest row they find then; a write of an unchanged value gets
// the latest row refreshed.
func TestPreBuildBuildsEligibleWrites(t *testing.T) {
	t.Parallel()
	s := OpenMemory(stepClock())
	t.Cleanup(func() { _ = s.Close() })
	batches := preBuildBatches()
	mustApply(t, s, batches[0]...)
	mustApply(t, s, batches[1]...)
	ws := batches[3]
	ps, bm := prepare(ws, t0, s.rules)
	defer bm.release(ps)
	s.preBuild(ws, ps, bm.chunks)
	var got []bool
	for i := range ps {
		got = append(got, ps[i].pre.ok)
	}
	if want := []bool{false, false, true}; !cmp.Equal(got, want) {
		t.Errorf("built before the lock = %v, want %v", got, want)
	}
	// An unchanged value gets the latest row refreshed.
	ws = []Write{batches[1][2]}
	ps2, bm2 := prepare(ws, t0, s.rules)
	defer bm2.release(ps2)
	s.preBuild(ws, ps2, bm2.chunks)
	if pre := ps2[0].pre; !pre.ok || !pre.unchanged || pre.version != 1 {
		t.Errorf("an unchanged write: built %v, unchanged %v, version %d; want true, true, 1", pre.ok, pre.unchanged, pre.version)
	}
}

// TestPreBuildConcurrentWriters has 4 writers update the same aspects at
// once, so that rows built before the lock often find another latest row
// under it: every write must still make its own version, numbered without
// gaps, each with the value written.
func TestPreBuildConcurrentWriters(t *testing.T) {
	t.Parallel()
	const writers, rounds, aspects = 4, 25, 10
	s := OpenMemory(nil)
	t.Cleanup(func() { _ = s.Close() })
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for r := range rounds {
				batch := make([]Write, aspects)
				for a := range batch {
					batch[a] = Write{URN: urnN(a), Aspect: props, KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV),
						Value: json.RawMessage(fmt.Sprintf(`{"description":"%d-%d"}`, g, r))}
				}
				if _, err := s.Apply(batch); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	for a := range aspects {
		seen := map[string]bool{}
		for v := int64(1); v <= writers*rounds; v++ {
			var row Aspect
			if v < writers*rounds {
				row = mustGet(t, s, urnN(a), props, v)
			} else {
				row = mustGet(t, s, urnN(a), props, 0)
				if got := sysMeta(t, row.SystemMetadata)["version"]; got != strconv.Itoa(writers*rounds) {
					t.Errorf("%s: latest version %v, want %d", urnN(a), got, writers*rounds)
				}
			}
			if seen[string(row.Value)] {
				t.Errorf("%s: value %s stored twice", urnN(a), row.Value)
			}
			seen[string(row.Value)] = true
		}
	}
}

// TestLargeBatch writes batches of 192 writes, with an aspect written at
// both ends and systemMetadata of more members than prepare gives room
// for: every write must land with its own value, keys and systemMetadata,
// in batch order, as on the bbolt store.
func TestLargeBatch(t *testing.T) {
	t.Parallel()
	const n = 192
	batch := func(round int) []Write {
		ws := make([]Write, n)
		for i := range ws {
			u := urnN(i)
			if i == n-1 {
				u = urnN(0) // the first write's aspect again
			}
			sm := fmt.Sprintf(`{"runId":"run-%d-%d","lastObserved":%d,"properties":{"i":"%d"},"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}`, round, i, i, i)
			ws[i] = Write{URN: u, Aspect: props, KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV),
				Value: json.RawMessage(fmt.Sprintf(`{"description":"%d-%d"}`, round, i)), SystemMetadata: json.RawMessage(sm)}
		}
		return ws
	}
	mem, bolt := backends[0].open(t, stepClock()), backends[1].open(t, stepClock())
	for round := range 3 {
		rm, rb := mustApply(t, mem, batch(round)...), mustApply(t, bolt, batch(round)...)
		if diff := cmp.Diff(rb, rm); diff != "" {
			t.Fatalf("round %d: results (-bolt +memory):\n%s", round, diff)
		}
		for i := 1; i < n-1; i++ {
			a := mustGet(t, mem, urnN(i), props, 0)
			if want := fmt.Sprintf(`{"description":"%d-%d"}`, round, i); string(a.Value) != want {
				t.Errorf("round %d: %s = %s, want %s", round, urnN(i), a.Value, want)
			}
			if got, want := sysMeta(t, a.SystemMetadata)["runId"], fmt.Sprintf("run-%d-%d", round, i); got != want {
				t.Errorf("round %d: %s runId %v, want %s", round, urnN(i), got, want)
			}
		}
		if a := mustGet(t, mem, urnN(0), props, 0); string(a.Value) != fmt.Sprintf(`{"description":"%d-%d"}`, round, n-1) {
			t.Errorf("round %d: %s = %s, want the last write", round, urnN(0), a.Value)
		}
	}
	if diff := cmp.Diff(everyRow(t, bolt), everyRow(t, mem)); diff != "" {
		t.Errorf("rows (-bolt +memory):\n%s", diff)
	}
}
