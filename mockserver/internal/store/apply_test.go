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
