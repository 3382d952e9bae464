package store

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestHistRingBoundedByRetention: an aspect whose retention keeps 3
// versions (2 history rows) holds its history in a ring of 3 entries (the
// rows kept and the one added before the oldest goes) once it has slid
// many times, not the 4 that growth by half again makes; the rows read
// back are the two newest versions before the latest. It failed before
// the ring knew retention's bound (4 entries).
func TestHistRingBoundedByRetention(t *testing.T) {
	t.Parallel()
	s := OpenMemory(stepClock())
	s.SetRules(retainRules{defaultRules})
	t.Cleanup(func() { _ = s.Close() })
	for v := range 40 {
		w := Write{URN: urnN(0), Aspect: props, Value: json.RawMessage(fmt.Sprintf(`{"description":"%d"}`, v)),
			KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)}
		if _, err := s.Apply([]Write{w}); err != nil {
			t.Fatal(err)
		}
	}
	var ring, n int
	_ = s.kv.view(func(tx txn) error {
		c := tx.(*memTxn).b.buckets[aspectRows].treeCell(rowKey(urnN(0), props, 0))
		ring, n = len(c.h.ring), c.h.len()
		return nil
	})
	if n != 2 || ring != 3 {
		t.Errorf("%d history rows in a ring of %d entries, want 2 in 3", n, ring)
	}
	for ver, want := range map[int64]string{0: `{"description":"39"}`, 39: `{"description":"38"}`, 38: `{"description":"37"}`} {
		a, err := s.Get(urnN(0), props, ver)
		if err != nil || string(a.Value) != want {
			t.Errorf("version %d = %s, %v; want %s", ver, a.Value, err, want)
		}
	}
}
