package store

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// FuzzMoveToHistory gives two memory backends the same changes of one
// aspect's latest row, one through moveToHistory and one through the
// three steps it stands for (hangVer, unhangVer, setCell), in updates that
// commit or roll back, and compares what they read back after each.
func FuzzMoveToHistory(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0x40, 0, 0})
	f.Add([]byte{1, 2, 3, 5, 9, 0x81, 17, 33, 0x43, 65, 2, 0xc1, 0, 7, 0x80})
	f.Fuzz(func(t *testing.T, ops []byte) {
		fast, slow := newMemBackend(), newMemBackend()
		key := rowKey("urn:li:x", "a", 0)
		boom := errors.New("boom")
		for _, kv := range []*memBackend{fast, slow} {
			if err := kv.update(func(tx txn) error { return tx.put(aspectRows, key, []byte("v0")) }); err != nil {
				t.Fatal(err)
			}
		}
		ver := uint64(0)
		for step := 0; len(ops) > 0 && step < 64; step++ {
			op := ops[0]
			ops = ops[1:]
			n := 1 + int(op&3) // moves in this update
			rollback := op&0x80 != 0
			start := ver
			run := func(three bool) func(tx txn) error {
				return func(tx txn) error {
					m := tx.(*memTxn)
					v := start
					for j := range n {
						v++
						at := v
						if op&0x40 != 0 && j == 0 && v > 2 {
							at = v - 2 // a version the history may hold
						}
						keep := uint64(op>>2&7) + 1 // 1..8 history rows
						var drop uint64
						if at > keep {
							drop = at - keep
						}
						c := m.b.buckets[aspectRows].treeCell(key)
						val := fmt.Appendf(nil, "v%d", v)
						if !three {
							m.moveToHistory(aspectRows, c, at, drop, val)
							continue
						}
						m.hangVer(aspectRows, c, at, c.val)
						if drop != 0 {
							m.unhangVer(aspectRows, c, drop)
						}
						m.setCell(aspectRows, c, val)
					}
					if rollback {
						return boom
					}
					return nil
				}
			}
			errF, errS := fast.update(run(false)), slow.update(run(true))
			if !errors.Is(errF, boom) && errF != nil || !errors.Is(errS, boom) && errS != nil {
				t.Fatalf("step %d: %v, three steps %v", step, errF, errS)
			}
			if !rollback {
				ver += uint64(n)
			}
			var g, w []string
			_ = fast.view(func(tx txn) error { g, _ = dumpTxn(tx, nil, nil, 0); return nil })
			_ = slow.view(func(tx txn) error { w, _ = dumpTxn(tx, nil, nil, 0); return nil })
			if !slices.Equal(g, w) {
				t.Fatalf("step %d (rollback %v): rows %q, three steps %q", step, rollback, g, w)
			}
		}
	})
}
