package store

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRefreshKeepsCreated: an unchanged value from a new run refreshes only
// systemMetadata; the row keeps its createdOn and createdBy, in the store and
// in its event.
func TestRefreshKeepsCreated(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		w := upsert(`{"description":"a"}`)
		w.Actor, w.SystemMetadata = "urn:li:corpuser:first", json.RawMessage(`{"runId":"run-1"}`)
		mustApply(t, s, w)
		before := mustGet(t, s, dsURN, props, 0)
		sub := s.Subscribe()
		defer sub.Close()
		w.Actor, w.SystemMetadata = "urn:li:corpuser:second", json.RawMessage(`{"runId":"run-2"}`)
		if res := mustApply(t, s, w); !res[0].Unchanged {
			t.Fatalf("second write = %+v, want unchanged", res[0])
		}
		after := mustGet(t, s, dsURN, props, 0)
		if sysMeta(t, after.SystemMetadata)["runId"] != "run-2" {
			t.Errorf("systemMetadata not refreshed: %s", after.SystemMetadata)
		}
		want := []any{before.CreatedOn, before.CreatedBy}
		if diff := cmp.Diff(want, []any{after.CreatedOn, after.CreatedBy}); diff != "" {
			t.Errorf("refreshed row (-before +after):\n%s", diff)
		}
		e, ok := sub.TryNext()
		if !ok {
			t.Fatal("no event for the refresh")
		}
		if diff := cmp.Diff(want, []any{e.Row.CreatedOn, e.Row.CreatedBy}); diff != "" {
			t.Errorf("refresh event row (-before +event):\n%s", diff)
		}
	})
}

// TestBatchEventsCarryEachRowsCreatedOn: in one batch of changed and
// unchanged values in turn, each upsert event carries its own row's
// createdOn (the batch's time for a new version, the kept one for a
// refreshed row), as the store holds it, though events of a batch make a
// row's time once for rows of one createdOn.
func TestBatchEventsCarryEachRowsCreatedOn(t *testing.T) {
	t.Parallel()
	s := OpenMemory(stepClock())
	t.Cleanup(func() { _ = s.Close() })
	urns := []string{urnN(1), urnN(2), urnN(3), urnN(4), urnN(5)}
	batch := func(run string, values ...string) []Write {
		ws := make([]Write, len(urns))
		for i, u := range urns {
			ws[i] = Write{URN: u, Aspect: props, Value: json.RawMessage(`{"description":"` + values[i] + `"}`),
				KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV), SystemMetadata: json.RawMessage(`{"runId":"` + run + `"}`)}
		}
		return ws
	}
	mustApply(t, s, batch("r1", "a", "a", "a", "a", "a")...)
	sub := s.Subscribe()
	defer sub.Close()
	res := mustApply(t, s, batch("r2", "b", "a", "a", "b", "a")...) // changed, unchanged, unchanged, changed, unchanged
	events := drain(sub)
	if len(events) != len(urns) {
		t.Fatalf("%d events, want %d: %+v", len(events), len(urns), events)
	}
	var times []int64
	for i, e := range events {
		a := mustGet(t, s, e.URN, props, 0)
		if !e.Row.CreatedOn.Equal(a.CreatedOn) || e.Row.CreatedOn.Location() != a.CreatedOn.Location() {
			t.Errorf("event %d (%s, unchanged %v): createdOn %v, stored %v", i, e.URN, res[i].Unchanged, e.Row.CreatedOn, a.CreatedOn)
		}
		times = append(times, e.Row.CreatedOn.UnixMilli())
	}
	if times[0] == times[1] || times[1] != times[2] || times[3] != times[0] || times[4] != times[1] {
		t.Errorf("createdOn of the events %v: want the batch's time for 0 and 3, the first batch's for 1, 2 and 4", times)
	}
}
