package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// runWrite is an upsert of datasetProperties by run id run.
func runWrite(value, run string) Write {
	w := upsert(value)
	w.SystemMetadata = json.RawMessage(`{"runId":"` + run + `"}`)
	return w
}

func byRun(run string) func(json.RawMessage) bool {
	return func(sm json.RawMessage) bool { return bytes.Contains(sm, []byte(`"runId":"`+run+`"`)) }
}

// TestRollbackAspect checks that the versions a run wrote last go, the
// newest version of another run becomes the latest again, and an aspect
// only the run wrote goes or, with keep, stays.
func TestRollbackAspect(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		mustApply(t, s, runWrite(`{"description":"a1"}`, "a"))
		mustApply(t, s, runWrite(`{"description":"a2"}`, "a"))
		mustApply(t, s, runWrite(`{"description":"b1"}`, "b"))
		mustApply(t, s, runWrite(`{"description":"b2"}`, "b"))
		// Another run's rollback leaves it alone.
		if o, err := s.RollbackAspect(dsURN, props, byRun("c"), false); err != nil || o.Matched {
			t.Fatalf("rollback of c = %+v, %v", o, err)
		}
		o, err := s.RollbackAspect(dsURN, props, byRun("b"), false)
		if err != nil || !o.Matched || !o.Restored || o.Removed != 2 {
			t.Fatalf("rollback of b = %+v, %v", o, err)
		}
		if got := mustGet(t, s, dsURN, props, 0); string(got.Value) != `{"description":"a2"}` {
			t.Errorf("latest after rollback = %s, want a2", got.Value)
		}
		if _, err := s.Get(dsURN, props, 3); !errors.Is(err, ErrNotFound) {
			t.Errorf("history row 3 (b1) survived the rollback: %v", err)
		}
		// With keep, an aspect only run a wrote stays.
		o, err = s.RollbackAspect(dsURN, props, byRun("a"), true)
		if err != nil || !o.NoSurvivor || o.Removed != 0 {
			t.Fatalf("rollback of a with keep = %+v, %v", o, err)
		}
		if got := mustGet(t, s, dsURN, props, 0); string(got.Value) != `{"description":"a2"}` {
			t.Errorf("keep changed the latest to %s", got.Value)
		}
		o, err = s.RollbackAspect(dsURN, props, byRun("a"), false)
		if err != nil || o.Removed != 2 || o.Restored {
			t.Fatalf("rollback of a = %+v, %v", o, err)
		}
		if _, err := s.Get(dsURN, props, 0); !errors.Is(err, ErrNotFound) {
			t.Errorf("the aspect survived the rollback of the only run that wrote it: %v", err)
		}
	})
}

// TestTrimHistoryAndCounts checks version counts and history trimming.
func TestTrimHistoryAndCounts(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		for _, v := range []string{`{"description":"1"}`, `{"description":"2"}`, `{"description":"3"}`, `{"description":"4"}`} {
			mustApply(t, s, upsert(v))
		}
		counts, err := s.VersionCounts(dsURN, props)
		if err != nil || len(counts) != 1 || counts[0].Versions != 4 {
			t.Fatalf("VersionCounts = %+v, %v", counts, err)
		}
		n, err := s.TrimHistory(dsURN, props, 2)
		if err != nil || n != 2 {
			t.Fatalf("TrimHistory = %d, %v, want 2 removed", n, err)
		}
		if got := mustGet(t, s, dsURN, props, 3); string(got.Value) != `{"description":"3"}` {
			t.Errorf("the newest history row = %s", got.Value)
		}
		if _, err := s.Get(dsURN, props, 2); !errors.Is(err, ErrNotFound) {
			t.Errorf("version 2 survived: %v", err)
		}
		if got := mustGet(t, s, dsURN, props, 0); string(got.Value) != `{"description":"4"}` {
			t.Errorf("latest = %s", got.Value)
		}
	})
}
