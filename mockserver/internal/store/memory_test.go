package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// TestHistoryRowsShareAllocations: a history row that hangs off its latest
// row is copied into its history's chunks, so that versions do not each
// cost allocations (and objects the garbage collector traces) of their own.
// (Not parallel: AllocsPerRun counts the allocations of the whole process.)
func TestHistoryRowsShareAllocations(t *testing.T) {
	const perUpdate = 1024
	kv := newMemBackend()
	latest := rowKey("urn:li:x", "a", 0)
	if err := kv.update(func(tx txn) error { return tx.put(aspectRows, latest, []byte("v0")) }); err != nil {
		t.Fatal(err)
	}
	val := bytes.Repeat([]byte("v"), 300)
	ver := int64(0)
	allocs := testing.AllocsPerRun(5, func() {
		err := kv.update(func(tx txn) error {
			for range perUpdate {
				ver++
				if err := tx.putNew(aspectRows, rowKey("urn:li:x", "a", ver), val); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	// rowKey allocates each key: one per row is the test's own.
	if own := allocs - perUpdate; own > perUpdate/8 {
		t.Errorf("%d history rows took %.0f allocations besides their keys, want at most %d", perUpdate, own, perUpdate/8)
	}
}

// TestHistoryChunks writes history rows of sizes around the chunk size,
// commits some updates and rolls others back, and checks that what gets and
// scans read matches a backend that keeps every row in its tree.
func TestHistoryChunks(t *testing.T) {
	t.Parallel()
	fast, slow := newMemBackend(), newMemBackend()
	slow.plain = true
	slow.buckets[aspectRows].hangs = false
	sizes := []int{1, 10, 1000, histChunk - 1, histChunk, histChunk + 1, 3 * histChunk, 7, 20000, 40000, 50000}
	boom := errors.New("boom")
	ver := int64(0)
	for round := range 12 {
		rollback := round%3 == 2
		run := func(tx txn) error {
			if err := tx.put(aspectRows, rowKey("urn:li:x", "a", 0), fmt.Appendf(nil, "latest %d", round)); err != nil {
				return err
			}
			for i, n := range sizes {
				v := ver + int64(i) + 1
				val := bytes.Repeat([]byte{byte('a' + (round+i)%26)}, (n+round)%(4*histChunk)+1)
				if err := tx.putNew(aspectRows, rowKey("urn:li:x", "a", v), val); err != nil {
					return err
				}
			}
			// Rewrite one version written before (or just now).
			if err := tx.putNew(aspectRows, rowKey("urn:li:x", "a", ver/2+1), fmt.Appendf(nil, "again %d", round)); err != nil {
				return err
			}
			if rollback {
				return boom
			}
			return nil
		}
		errF := fast.update(run)
		errS := slow.update(run)
		if !errors.Is(errF, boom) && errF != nil || !errors.Is(errS, boom) && errS != nil {
			t.Fatalf("round %d: %v, slow path %v", round, errF, errS)
		}
		if !rollback {
			ver += int64(len(sizes))
		}
		var g, w []string
		_ = fast.view(func(tx txn) error { g, _ = dumpTxn(tx, nil, nil, 0); return nil })
		_ = slow.view(func(tx txn) error { w, _ = dumpTxn(tx, nil, nil, 0); return nil })
		if !slices.Equal(g, w) {
			t.Fatalf("round %d (rollback %v): scan differs from the slow path", round, rollback)
		}
		for v := range ver + 2 {
			k := rowKey("urn:li:x", "a", v)
			var a, b []byte
			_ = fast.view(func(tx txn) error { a = tx.get(aspectRows, k); return nil })
			_ = slow.view(func(tx txn) error { b = tx.get(aspectRows, k); return nil })
			if !bytes.Equal(a, b) {
				t.Fatalf("round %d: get version %d: %d bytes, slow path %d", round, v, len(a), len(b))
			}
		}
	}
	// The fast path did hang them: its tree holds the latest row only.
	if n := fast.buckets[aspectRows].tree.Len(); n != 1 {
		t.Errorf("the tree holds %d rows, want 1 (history rows hang off the latest row)", n)
	}
}
