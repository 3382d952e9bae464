package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// encodeV2 encodes r in row format 2, as stores written before format 3
// hold their rows: format 3 without the systemMetadata's table.
func encodeV2(r row) []byte {
	b := []byte{rowFormatV2}
	b = lpBytes(b, r.Value)
	b = binary.AppendVarint(b, r.CreatedOn)
	b = lp(b, r.CreatedBy)
	b = binary.LittleEndian.AppendUint64(b, r.Hash)
	b = binary.AppendUvarint(b, uint64(r.Version))
	return lpBytes(b, r.SystemMetadata)
}

// splitField reads back a systemMetadata field: its JSON and its table.
func splitField(t *testing.T, field []byte) (sm, table []byte) {
	t.Helper()
	sm, rest, ok := readLPBytes(field)
	if !ok {
		t.Fatalf("field %q: no length-prefixed JSON", field)
	}
	table, rest, ok = readTable(rest)
	if !ok || len(rest) != 0 {
		t.Fatalf("field %q: table %x, rest %x, ok %v", field, table, rest, ok)
	}
	return sm, table
}

// FuzzTableSplit writes systemMetadata members as a row holds them (the
// JSON and its table) and checks that reading them back through the table
// gives what scanning the JSON gives, whoever wrote it (encoding/json
// writes the members it cannot write itself, and then no table).
func FuzzTableSplit(f *testing.F) {
	f.Add("runId", `"r1"`, "lastObserved", `12`, "properties", `{"a":"b,c","d":{"e":[1,"}"]}}`)
	f.Add("version", `"2"`, "a<b", `1`, "x", `"\u2028"`)
	f.Add("k", `"quote \" and , comma"`, "k2", `[]`, "", `{}`)
	f.Add("long", `"`+strings.Repeat("x", 200)+`"`, "longer", `"`+strings.Repeat("y", 20000)+`"`, "z", `0`)
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2, k3, v3 string) {
		var o rawObject
		for _, m := range [][2]string{{k1, v1}, {k2, v2}, {k3, v3}} {
			if !json.Valid([]byte(m[1])) {
				return
			}
			o.set(m[0], json.RawMessage(m[1]))
		}
		field, err := o.appendStored(nil, nil)
		if err != nil {
			return
		}
		sm, table := splitField(t, field)
		if !json.Valid(sm) {
			t.Fatalf("%s is not JSON", sm)
		}
		want, wantOK := storedSplit(nil, sm, true)
		if table == nil {
			return // nothing to read through
		}
		got, ok := tableSplit(nil, sm, table, true)
		if !ok || !wantOK {
			t.Fatalf("%s with table %x: tableSplit ok %v, storedSplit ok %v", sm, table, ok, wantOK)
		}
		if diff := cmp.Diff(fmt.Sprintf("%q", want), fmt.Sprintf("%q", got)); diff != "" {
			t.Fatalf("%s: members (-storedSplit +tableSplit):\n%s", sm, diff)
		}
		shared, _ := tableSplit(nil, sm, table, false)
		if diff := cmp.Diff(fmt.Sprintf("%q", got), fmt.Sprintf("%q", shared)); diff != "" {
			t.Fatalf("%s: members (-shared keys +memberKey's):\n%s", sm, diff)
		}
	})
}

// TestTableSplitRefusesMismatch: a table that does not fit its JSON (a
// damaged row) is refused, and the JSON is then scanned.
func TestTableSplitRefusesMismatch(t *testing.T) {
	t.Parallel()
	sm := []byte(`{"a":"x,y","b":1}`)
	for _, table := range [][]byte{
		{3, 5, 2},       // a length one too long
		{3, 3, 1},       // one ending inside a string (before a comma)
		{2, 5},          // a member too few
		{4, 5, 1, 1},    // one too many
		{3, 5, 1, 0},    // a length after the last
		{3, 5, 0x80},    // a broken uvarint
		{1},             // no members, for a text that has some
		{3, 5, 1 << 6},  // past the end
		{3, 0, 5},       // an empty value
		{0xff, 0xff, 1}, // a count past the lengths
	} {
		if got, ok := tableSplit(nil, sm, table, true); ok {
			t.Errorf("table %x: accepted, members %q", table, got)
		}
	}
	if got, ok := tableSplit(nil, []byte(`{}`), []byte{1}, true); !ok || len(got) != 0 {
		t.Errorf("the table of {} = %q, %v; want no members", got, ok)
	}
}

// TestRowsHoldTables: the rows a write stores carry their systemMetadata's
// table, through which the next write reads the members; a row of format
// 2 (written before the table) still decodes, and is read by scanning.
func TestRowsHoldTables(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		w := upsert(`{"description":"a"}`)
		w.SystemMetadata = json.RawMessage(`{"runId":"r","lastObserved":7,"properties":{"a":"b"}}`)
		mustApply(t, s, w)
		w.Value = json.RawMessage(`{"description":"b"}`)
		mustApply(t, s, w)
		err := s.kv.view(func(tx txn) error {
			for _, k := range [][]byte{rowKey(dsURN, props, 0), rowKey(dsURN, props, 1), rowKey(dsURN, dsKey, 0)} {
				r, table, err := decodeRowTable(tx.get(aspectRows, k), true)
				if err != nil {
					return err
				}
				members, ok := tableSplit(nil, r.SystemMetadata, table, true)
				want, _ := storedSplit(nil, r.SystemMetadata, true)
				if !ok || fmt.Sprintf("%q", members) != fmt.Sprintf("%q", want) {
					t.Errorf("row %q: %s with table %x: %q, %v; want %q", k, r.SystemMetadata, table, members, ok, want)
				}
				v2, err := decodeRow(encodeV2(r))
				if err != nil {
					return err
				}
				if diff := cmp.Diff(r, v2); diff != "" {
					t.Errorf("row %q of format 2 (-format 3 +format 2):\n%s", k, diff)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// TestFormat2Rows: a store whose rows are of format 2 (written before the
// systemMetadata's table) versions, compares and reads like one written
// now.
func TestFormat2Rows(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		now, old := open(stepClock()), open(stepClock())
		for i, v := range []string{`{"description":"a"}`, `{"description":"a"}`, `{"description":"b"}`, `{"description":"c"}`} {
			w := upsert(v)
			w.SystemMetadata = json.RawMessage(fmt.Sprintf(`{"runId":"run-%d","properties":{"p":"%d"}}`, i/2, i))
			want := mustApply(t, now, w)
			rewriteRows(t, old, encodeV2)
			got := mustApply(t, old, w)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("step %d: results on format 2 rows (-format 3 +format 2):\n%s", i, diff)
			}
		}
		for v := int64(0); v <= 2; v++ {
			if diff := cmp.Diff(mustGet(t, now, dsURN, props, v), mustGet(t, old, dsURN, props, v)); diff != "" {
				t.Errorf("version %d (-format 3 +format 2):\n%s", v, diff)
			}
		}
	})
}

// rewriteRows re-encodes every row of s with encode.
func rewriteRows(t *testing.T, s *Store, encode func(row) []byte) {
	t.Helper()
	err := s.kv.update(func(tx txn) error {
		var keys, vals [][]byte
		err := tx.scan(aspectRows, nil, nil, func(k, v []byte) (bool, error) {
			r, err := decodeRow(v)
			if err != nil {
				return false, err
			}
			keys, vals = append(keys, append([]byte(nil), k...)), append(vals, encode(r))
			return true, nil
		})
		if err != nil {
			return err
		}
		for i := range keys {
			if err := tx.put(aspectRows, keys[i], vals[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// FuzzReadTable checks readTable, which reads a one-byte length in line,
// against reading every length with binary.Uvarint.
func FuzzReadTable(f *testing.F) {
	f.Add([]byte{0, 1})
	f.Add([]byte{4, 1, 0x80, 1, 127, 9})
	f.Add([]byte{3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 5})
	f.Add([]byte{5, 1, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		ref := func(b []byte) (table, rest []byte, ok bool) {
			n, w := binary.Uvarint(b)
			if w <= 0 {
				return nil, nil, false
			}
			if n == 0 {
				return nil, b[w:], true
			}
			i := w
			for k := uint64(1); k < n; k++ {
				_, w := binary.Uvarint(b[i:])
				if w <= 0 {
					return nil, nil, false
				}
				i += w
			}
			return b[:i:i], b[i:], true
		}
		table, rest, ok := readTable(b)
		wt, wr, wok := ref(b)
		if ok != wok || !bytes.Equal(table, wt) || !bytes.Equal(rest, wr) || (table == nil) != (wt == nil) {
			t.Fatalf("readTable(%x) = %x, %x, %v; want %x, %x, %v", b, table, rest, ok, wt, wr, wok)
		}
	})
}
