package store

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// backendsForKV opens each raw backend, so their shared semantics can be
// checked below the versioning code.
func backendsForKV(t *testing.T) map[string]backend {
	t.Helper()
	b, err := openBoltBackend(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	m := newMemBackend()
	t.Cleanup(func() { _ = b.close(); _ = m.close() })
	return map[string]backend{"memory": m, "bolt": b}
}

func dump(t *testing.T, kv backend, b bucket) []string {
	t.Helper()
	var out []string
	err := kv.view(func(tx txn) error {
		return tx.scan(b, nil, nil, func(k, v []byte) (bool, error) {
			out = append(out, string(k)+"="+string(v))
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBackendRollbackAndScan(t *testing.T) {
	t.Parallel()
	for name, kv := range backendsForKV(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := kv.update(func(tx txn) error {
				for _, k := range []string{"a1", "a2", "a3", "b1", "c1"} {
					if err := tx.put(aspectRows, []byte(k), []byte("v"+k)); err != nil {
						return err
					}
				}
				return tx.put(entities, []byte("e"), []byte("key"))
			})
			if err != nil {
				t.Fatal(err)
			}
			before := [][]string{dump(t, kv, aspectRows), dump(t, kv, entities)}
			boom := errors.New("boom")
			err = kv.update(func(tx txn) error {
				_ = tx.put(aspectRows, []byte("a2"), []byte("changed"))
				_ = tx.put(aspectRows, []byte("a0"), []byte("new"))
				_ = tx.del(aspectRows, []byte("b1"))
				_ = tx.del(aspectRows, []byte("zz")) // absent
				_ = tx.clear(entities)
				_ = tx.put(entities, []byte("f"), []byte("other"))
				if got := string(tx.get(aspectRows, []byte("a2"))); got != "changed" {
					t.Errorf("own write not visible: %q", got)
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("update err = %v", err)
			}
			if diff := cmp.Diff(before, [][]string{dump(t, kv, aspectRows), dump(t, kv, entities)}); diff != "" {
				t.Errorf("rolled-back update changed state (-before +after):\n%s", diff)
			}
			// The same key changed several times, a key made and removed, a
			// bucket cleared after writes and written again.
			err = kv.update(func(tx txn) error {
				_ = tx.put(aspectRows, []byte("a2"), []byte("once"))
				_ = tx.put(aspectRows, []byte("a2"), []byte("twice"))
				_ = tx.put(aspectRows, []byte("n"), []byte("new"))
				_ = tx.del(aspectRows, []byte("n"))
				_ = tx.del(aspectRows, []byte("a1"))
				_ = tx.put(aspectRows, []byte("a1"), []byte("back"))
				_ = tx.clear(aspectRows)
				_ = tx.put(aspectRows, []byte("a3"), []byte("after clear"))
				_ = tx.clear(aspectRows)
				_ = tx.put(aspectRows, []byte("b1"), []byte("after second clear"))
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("update err = %v", err)
			}
			if diff := cmp.Diff(before, [][]string{dump(t, kv, aspectRows), dump(t, kv, entities)}); diff != "" {
				t.Errorf("second rolled-back update changed state (-before +after):\n%s", diff)
			}
			err = kv.view(func(tx txn) error {
				if err := tx.put(aspectRows, []byte("x"), nil); !errors.Is(err, errReadOnly) {
					t.Errorf("put in view: %v", err)
				}
				var got []string
				err := tx.scan(aspectRows, []byte("a"), []byte("a2"), func(k, _ []byte) (bool, error) {
					got = append(got, string(k))
					return len(got) < 5, nil
				})
				if diff := cmp.Diff([]string{"a2", "a3"}, got); diff != "" {
					t.Errorf("scan prefix a from a2 (-want +got):\n%s", diff)
				}
				got = nil
				_ = tx.scan(aspectRows, nil, nil, func(k, _ []byte) (bool, error) {
					got = append(got, string(k))
					return len(got) < 2, nil
				})
				if diff := cmp.Diff([]string{"a1", "a2"}, got); diff != "" {
					t.Errorf("scan stopped early (-want +got):\n%s", diff)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestRowKeys(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 300) // a two-byte length prefix
	tests := []struct {
		urn, aspect string
		version     int64
	}{
		{dsURN, props, 0},
		{"urn:li:x:\x00odd", "a\x00b", 7},
		{long, long, 1 << 40},
		{"", "", 0},
	}
	for _, tc := range tests {
		u, a, v, ok := parseRowKey(rowKey(tc.urn, tc.aspect, tc.version))
		if diff := cmp.Diff([]any{tc.urn, tc.aspect, tc.version, true}, []any{u, a, v, ok}); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	}
	// One URN's prefix never matches another URN that merely starts with it.
	if strings.HasPrefix(string(rowKey(dsURN+"x", props, 0)), string(urnPrefix(dsURN))) {
		t.Error("urnPrefix matches a longer URN")
	}
	for _, bad := range [][]byte{nil, {5, 'a'}, append(aspectPrefix("u", "a"), 1, 2)} {
		if _, _, _, ok := parseRowKey(bad); ok {
			t.Errorf("parseRowKey(%q) ok", bad)
		}
	}
}

func TestRowEncoding(t *testing.T) {
	t.Parallel()
	rows := []row{
		{Value: []byte(`{"a":1}`), SystemMetadata: []byte(`{"version":"1"}`), CreatedOn: 1700000000123, CreatedBy: "urn:li:corpuser:x"},
		{Value: []byte(`{}`), CreatedOn: -5},
	}
	for _, r := range rows {
		got, err := decodeRow(r.encode())
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(r, got); diff != "" {
			t.Errorf("row round trip (-want +got):\n%s", diff)
		}
	}
	d := doc{Value: []byte(`{"timestampMillis":1}`), SystemMetadata: []byte(`{}`)}
	if got, err := decodeDoc(d.encode()); err != nil || !cmp.Equal(d, got) {
		t.Errorf("doc round trip = %+v, %v", got, err)
	}
	enc := rows[0].encode()
	for _, bad := range [][]byte{nil, {9}, enc[:len(enc)-1], append(enc[:len(enc):len(enc)], 0)} {
		if _, err := decodeRow(bad); !errors.Is(err, errCorrupt) {
			t.Errorf("decodeRow(%q) err = %v", bad, err)
		}
		if _, err := decodeDoc(bad); !errors.Is(err, errCorrupt) {
			t.Errorf("decodeDoc(%q) err = %v", bad, err)
		}
	}
}

// TestBackendPutNew: putNew behaves as put whether or not the key exists
// (indexed or not by the memory backend), and rolls back as put does.
func TestBackendPutNew(t *testing.T) {
	t.Parallel()
	for name, kv := range backendsForKV(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := kv.update(func(tx txn) error {
				_ = tx.put(aspectRows, []byte("a"), []byte("put"))
				_ = tx.putNew(aspectRows, []byte("b"), []byte("new"))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			before := dump(t, kv, aspectRows)
			boom := errors.New("boom")
			err = kv.update(func(tx txn) error {
				_ = tx.putNew(aspectRows, []byte("a"), []byte("a again")) // indexed
				_ = tx.putNew(aspectRows, []byte("b"), []byte("b again")) // not indexed
				_ = tx.put(aspectRows, []byte("b"), []byte("b put"))
				_ = tx.putNew(aspectRows, []byte("c"), []byte("c new"))
				_ = tx.del(aspectRows, []byte("c"))
				_ = tx.putNew(aspectRows, []byte("c"), []byte("c back"))
				_ = tx.del(aspectRows, []byte("b"))
				_ = tx.putNew(aspectRows, []byte("b"), []byte("b back"))
				got := []string{string(tx.get(aspectRows, []byte("a"))), string(tx.get(aspectRows, []byte("b"))),
					string(tx.get(aspectRows, []byte("c")))}
				if diff := cmp.Diff([]string{"a again", "b back", "c back"}, got); diff != "" {
					t.Errorf("inside the update (-want +got):\n%s", diff)
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("update err = %v", err)
			}
			if diff := cmp.Diff(before, dump(t, kv, aspectRows)); diff != "" {
				t.Errorf("rolled-back update changed state (-before +after):\n%s", diff)
			}
			err = kv.update(func(tx txn) error {
				_ = tx.putNew(aspectRows, []byte("b"), []byte("b2"))
				_ = tx.put(aspectRows, []byte("a"), []byte("a2"))
				return tx.put(aspectRows, []byte("b"), []byte("b3"))
			})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"a=a2", "b=b3"}, dump(t, kv, aspectRows)); diff != "" {
				t.Errorf("after the update (-want +got):\n%s", diff)
			}
			err = kv.view(func(tx txn) error {
				if got := string(tx.get(aspectRows, []byte("b"))); got != "b3" {
					t.Errorf("get b = %q", got)
				}
				if err := tx.putNew(aspectRows, []byte("x"), nil); !errors.Is(err, errReadOnly) {
					t.Errorf("putNew in view: %v", err)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
