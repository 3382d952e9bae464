package store

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBatchDeleteEntity: a delete in a batch is part of its transaction.
func TestBatchDeleteEntity(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		a := "urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)"
		b := "urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)"
		w := func(u string) Write {
			return Write{URN: u, Aspect: props, Value: json.RawMessage(`{"description":"x"}`), KeyAspect: dsKey, KeyValue: json.RawMessage(`{}`)}
		}
		mustApply(t, s, w(b))
		before := allRows(t, s)
		failing := w(a)
		failing.Check = ifVersion("7")
		_, err := s.Apply([]Write{w(a), {URN: b, DeleteEntity: true}, failing})
		var ce *CheckError
		if !errors.As(err, &ce) || ce.Index != 2 || !errors.Is(err, errStale) {
			t.Fatalf("Apply = %v, want the CheckError of item 2", err)
		}
		if diff := cmp.Diff(before, allRows(t, s)); diff != "" {
			t.Errorf("a failed batch changed the store (-before +after):\n%s", diff)
		}
		sub := s.Subscribe()
		defer sub.Close()
		mustApply(t, s, w(a), Write{URN: b, DeleteEntity: true})
		if s.Exists(b) || !s.Exists(a) {
			t.Errorf("after the batch: Exists(a) = %t, Exists(b) = %t", s.Exists(a), s.Exists(b))
		}
		var got []string
		for _, e := range drain(sub) {
			if e.Kind != EventUpsert {
				got = append(got, e.Kind.String()+" "+e.URN+" "+e.Aspect)
			}
		}
		want := []string{"deleteAspect " + b + " " + dsKey, "deleteAspect " + b + " " + props, "deleteEntity " + b + " "}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("delete events of the batch (-want +got):\n%s", diff)
		}
	})
}

// TestWriteCheck: Check sees the state before the write (earlier batch
// items included) and its error fails the batch as a CheckError.
func TestWriteCheck(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		u := "urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)"
		var seen []Current
		refuse := errors.New("refused")
		check := func(fail bool) func(Current) error {
			return func(c Current) error {
				seen = append(seen, c)
				if fail {
					return refuse
				}
				return nil
			}
		}
		w := func(v string, fail bool) Write {
			return Write{URN: u, Aspect: props, Value: json.RawMessage(v), Check: check(fail)}
		}
		mustApply(t, s, w(`{"description":"1"}`, false), w(`{"description":"2"}`, false))
		_, err := s.Apply([]Write{w(`{"description":"3"}`, false), w(`{"description":"4"}`, true)})
		var ce *CheckError
		if !errors.As(err, &ce) || ce.Index != 1 || !errors.Is(err, refuse) {
			t.Fatalf("Apply = %v, want the CheckError of item 1", err)
		}
		var got []string
		for _, c := range seen {
			got = append(got, c.Version)
			if c.Exists == c.CreatedOn.IsZero() {
				t.Errorf("Current %+v: CreatedOn set iff the aspect exists", c)
			}
		}
		if diff := cmp.Diff([]string{"", "1", "2", "3"}, got); diff != "" {
			t.Errorf("versions seen by Check (-want +got):\n%s", diff)
		}
		if a, err := s.Get(u, props, 0); err != nil || string(a.Value) != `{"description":"2"}` {
			t.Errorf("latest = %s, %v; want the value before the failed batch", a.Value, err)
		}
	})
}
