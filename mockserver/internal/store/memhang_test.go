package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"
	"unsafe"
)

// hangOpKeys are the keys FuzzMemHang writes: row keys of two URNs (one a
// prefix of the other) and two aspects at versions 0 to 3, and a few keys
// that are not row keys.
func hangOpKeys() [][]byte {
	var keys [][]byte
	for _, u := range []string{"urn:li:x", "urn:li:xy"} {
		for _, a := range []string{"a", "ab"} {
			for v := range int64(4) {
				keys = append(keys, rowKey(u, a, v))
			}
		}
	}
	return append(keys, []byte("a2"), append(aspectPrefix("urn:li:x", "a"), 0, 0, 0, 0, 0, 0, 0, 0, 7))
}

// dumpTxn is every key and value of aspectRows, in scan order.
func dumpTxn(tx txn, prefix, from []byte, limit int) ([]string, error) {
	var out []string
	err := tx.scan(aspectRows, prefix, from, func(k, v []byte) (bool, error) {
		out = append(out, fmt.Sprintf("%x=%s", k, v))
		return limit <= 0 || len(out) < limit, nil
	})
	return out, err
}

// FuzzMemHang runs the same operations on a memory backend whose history
// rows hang off their latest rows (the fast path) and on one that keeps
// every row in its tree (the slow path), and compares what they read back,
// inside updates and after commits and rollbacks.
func FuzzMemHang(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 0, 2, 0, 3, 9, 0, 2, 0, 0, 0, 1, 3})
	f.Add([]byte{0, 4, 0, 5, 0, 6, 2, 4, 0, 4, 9, 1, 0, 16, 0, 1, 3, 0, 8})
	f.Add([]byte{0, 0, 1, 1, 1, 2, 2, 0, 1, 3, 0, 0, 4, 0, 9, 2, 2, 1, 5, 0, 17, 3, 1})
	keys := hangOpKeys()
	prefixes := [][]byte{nil, urnPrefix("urn:li:x"), aspectPrefix("urn:li:x", "a"), aspectPrefix("urn:li:xy", "ab")}
	f.Fuzz(func(t *testing.T, ops []byte) {
		fast, slow := newMemBackend(), newMemBackend()
		slow.plain = true
		slow.buckets[aspectRows].hangs = false
		boom := errors.New("boom")
		n := 0
		for len(ops) >= 2 && n < 64 {
			n++
			rollback := ops[0]&0x80 != 0
			var steps [][2]byte
			for len(ops) >= 2 {
				op := [2]byte{ops[0], ops[1]}
				ops = ops[2:]
				if op[0]&0x0f == 9 {
					break // end of update
				}
				steps = append(steps, op)
			}
			run := func(ft, st txn) error {
				for i, op := range steps {
					key := keys[int(op[1])%len(keys)]
					val := []byte(fmt.Sprintf("v%d.%d", n, i))
					switch op[0] & 0x0f {
					case 0, 5:
						_, _ = ft.put(aspectRows, key, val), st.put(aspectRows, key, val)
					case 1, 6:
						_, _ = ft.putNew(aspectRows, key, val), st.putNew(aspectRows, key, val)
					case 2:
						_, _ = ft.del(aspectRows, key), st.del(aspectRows, key)
					case 3:
						p := prefixes[int(op[1])%len(prefixes)]
						a, _ := deletePrefix(ft, aspectRows, p)
						b, _ := deletePrefix(st, aspectRows, p)
						if a != b {
							t.Fatalf("update %d step %d: deletePrefix %x: %d rows, slow path %d", n, i, p, a, b)
						}
					case 4:
						if op[1]%16 == 0 {
							_, _ = ft.clear(aspectRows), st.clear(aspectRows)
						}
					}
					if g, w := ft.get(aspectRows, key), st.get(aspectRows, key); string(g) != string(w) {
						t.Fatalf("update %d step %d: get %x = %q, slow path %q", n, i, key, g, w)
					}
					p := prefixes[int(op[0]>>4)%len(prefixes)]
					from := keys[int(op[1]>>2)%len(keys)]
					limit := int(op[0]>>6) % 3
					g, _ := dumpTxn(ft, p, from, limit)
					w, _ := dumpTxn(st, p, from, limit)
					if !slices.Equal(g, w) {
						t.Fatalf("update %d step %d: scan %x from %x = %q, slow path %q", n, i, p, from, g, w)
					}
				}
				if rollback {
					return boom
				}
				return nil
			}
			errF := fast.update(func(ft txn) error {
				return slow.update(func(st txn) error { return run(ft, st) })
			})
			if rollback != errors.Is(errF, boom) {
				t.Fatalf("update %d: err = %v", n, errF)
			}
			var g, w []string
			_ = fast.view(func(tx txn) error { g, _ = dumpTxn(tx, nil, nil, 0); return nil })
			_ = slow.view(func(tx txn) error { w, _ = dumpTxn(tx, nil, nil, 0); return nil })
			if !slices.Equal(g, w) {
				t.Fatalf("after update %d (rollback %v): %q, slow path %q", n, rollback, g, w)
			}
			for _, k := range keys {
				var a, b []byte
				_ = fast.view(func(tx txn) error { a = tx.get(aspectRows, k); return nil })
				_ = slow.view(func(tx txn) error { b = tx.get(aspectRows, k); return nil })
				if string(a) != string(b) {
					t.Fatalf("after update %d: get %x = %q, slow path %q", n, k, a, b)
				}
			}
		}
	})
}

// TestHistoryRowsShareAllocations: a history row that hangs off its latest
// row references the value put (the latest row it replaced), so that a
// version costs no allocation of its own when it moves to history.
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

// bigRow is a large row size for the history tests (16 KiB, the size of
// the chunks history rows were once copied into).
const bigRow = 16 << 10

// TestHistoryChunks writes history rows of sizes around bigRow,
// commits some updates and rolls others back, and checks that what gets and
// scans read matches a backend that keeps every row in its tree.
func TestHistoryChunks(t *testing.T) {
	t.Parallel()
	fast, slow := newMemBackend(), newMemBackend()
	slow.plain = true
	slow.buckets[aspectRows].hangs = false
	sizes := []int{1, 10, 1000, bigRow - 1, bigRow, bigRow + 1, 3 * bigRow, 7, 20000, 40000, 50000}
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
				val := bytes.Repeat([]byte{byte('a' + (round+i)%26)}, (n+round)%(4*bigRow)+1)
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

// TestHistoryChunksKeepRetainedRows writes one aspect many times, deleting
// the history row that retention puts past its versions with each write
// (as retain does), and checks that what its history references stays
// within a few times the rows it keeps, in committed updates and in ones
// rolled back. It failed when history rows were copied into chunks that
// were never compacted: a deleted row's bytes stayed in them, so an aspect
// written N times held N rows however few it kept.
func TestHistoryChunksKeepRetainedRows(t *testing.T) {
	t.Parallel()
	const keep, rowSize, writes = 20, 300, 2000
	fast, slow := newMemBackend(), newMemBackend()
	slow.plain = true
	slow.buckets[aspectRows].hangs = false
	latest := rowKey("urn:li:x", "a", 0)
	boom := errors.New("boom")
	for n := range writes + writes/7 {
		// Every 7th update is rolled back, then made again.
		v, rollback := int64(n-n/8+1), n%8 == 7
		run := func(tx txn) error {
			if err := tx.put(aspectRows, latest, fmt.Appendf(nil, "latest %d", v)); err != nil {
				return err
			}
			val := bytes.Repeat([]byte{byte('a' + v%26)}, rowSize+int(v%5))
			if err := tx.putNew(aspectRows, rowKey("urn:li:x", "a", v), val); err != nil {
				return err
			}
			if v > keep {
				if err := tx.del(aspectRows, rowKey("urn:li:x", "a", v-keep)); err != nil {
					return err
				}
			}
			if rollback {
				return boom
			}
			return nil
		}
		errF, errS := fast.update(run), slow.update(run)
		if !errors.Is(errF, boom) && errF != nil || !errors.Is(errS, boom) && errS != nil {
			t.Fatalf("write %d: %v, slow path %v", v, errF, errS)
		}
		if n%100 == 0 || rollback {
			var g, w []string
			_ = fast.view(func(tx txn) error { g, _ = dumpTxn(tx, nil, nil, 0); return nil })
			_ = slow.view(func(tx txn) error { w, _ = dumpTxn(tx, nil, nil, 0); return nil })
			if !slices.Equal(g, w) {
				t.Fatalf("after write %d (rollback %v): %d rows, slow path %d", v, rollback, len(g), len(w))
			}
		}
	}
	var held int
	_ = fast.view(func(tx txn) error {
		tx.(*memTxn).b.buckets[aspectRows].tree.Ascend(func(it memItem) bool {
			if it.c.h != nil {
				h := it.c.h
				held += cap(h.ring) * int(unsafe.Sizeof(histRow{}))
				h.each(0, func(e histRow) bool {
					held += cap(e.val)
					return true
				})
			}
			return true
		})
		return nil
	})
	if bound := 4*keep*(rowSize+5) + bigRow; held > bound {
		t.Errorf("the history of %d rows of about %d bytes references %d bytes, want at most %d", keep, rowSize, held, bound)
	}
}

// TestUpdateReturnsRolledBackLog: an update that fails hands back the undo
// entries it logged, for update to clear after the writer lock (dropping
// their references to old values). It failed when the log was cleared
// after the rollback had already cut it to length 0: the entries, and the
// values they referenced, stayed in the kept log.
func TestUpdateReturnsRolledBackLog(t *testing.T) {
	t.Parallel()
	kv := newMemBackend()
	boom := errors.New("boom")
	log, err := kv.updateLocked(func(tx txn) error {
		for i := range 3 {
			if err := tx.put(aspectRows, rowKey("urn:li:x", "a", 0), fmt.Appendf(nil, "v%d", i)); err != nil {
				return err
			}
		}
		return boom
	}, nil)
	if !errors.Is(err, boom) {
		t.Fatalf("update = %v, want %v", err, boom)
	}
	if len(log) != 3 {
		t.Errorf("the update handed back %d undo entries, want the 3 it logged", len(log))
	}
	if v := func() (v []byte) {
		_ = kv.view(func(tx txn) error { v = tx.get(aspectRows, rowKey("urn:li:x", "a", 0)); return nil })
		return v
	}(); v != nil {
		t.Errorf("after the rollback the row is %q, want none", v)
	}
}
