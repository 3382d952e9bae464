package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"testing"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/google/go-cmp/cmp"
)

// encodeV1 encodes r in row format 1, as stores written before format 2
// hold their rows.
func encodeV1(r row) []byte {
	b := []byte{rowFormatV1}
	b = lpBytes(b, r.Value)
	b = lpBytes(b, r.SystemMetadata)
	b = binary.AppendVarint(b, r.CreatedOn)
	return lp(b, r.CreatedBy)
}

func TestRowFormats(t *testing.T) {
	t.Parallel()
	r := row{Value: []byte(`{"a":1}`), SystemMetadata: []byte(`{"version":"3"}`), CreatedOn: 1700000000123, CreatedBy: "urn:li:corpuser:x"}
	got, err := decodeRow(encodeV1(r))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, got); diff != "" {
		t.Errorf("format 1 row (-want +got):\n%s", diff)
	}
	if v := rowVersion(got); v != 3 {
		t.Errorf("rowVersion of a format 1 row = %d, want 3 (from systemMetadata)", v)
	}
	r.Version, r.Hash = 3, jsonx.Hash(r.Value)
	enc := r.encode()
	if enc[0] != rowFormat {
		t.Errorf("encode writes format %d, want %d", enc[0], rowFormat)
	}
	if got, err = decodeRow(enc); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, got); diff != "" {
		t.Errorf("format 2 row (-want +got):\n%s", diff)
	}
	v1 := encodeV1(r)
	for _, bad := range [][]byte{
		append(v1[:len(v1):len(v1)], 0),                          // format 1 with trailing bytes
		enc[:len(enc)-8],                                         // format 2 without its hash
		append(enc[:len(enc):len(enc)], 0),                       // trailing bytes
		append(append([]byte{rowFormat}, v1[1:]...), 0xff, 0xff), // bad version varint
	} {
		if _, err := decodeRow(bad); err == nil {
			t.Errorf("decodeRow(%q) = nil error", bad)
		}
	}
}

// downgradeRows rewrites every row of s in format 1, as a store written
// before format 2 holds them.
func downgradeRows(t *testing.T, s *Store) {
	t.Helper()
	err := s.kv.update(func(tx txn) error {
		var keys, vals [][]byte
		err := tx.scan(aspectRows, nil, nil, func(k, v []byte) (bool, error) {
			r, err := decodeRow(v)
			if err != nil {
				return false, err
			}
			keys, vals = append(keys, append([]byte(nil), k...)), append(vals, encodeV1(r))
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

// TestFormat1Rows: a store whose rows are of format 1 (written before the
// version and hash were stored) versions, compares and reads like one
// written now.
func TestFormat1Rows(t *testing.T) {
	t.Parallel()
	steps := []string{
		`{"description":"a","customProperties":{"k":"v"}}`,
		`{"customProperties":{"k":"v"},"description":"a"}`, // same data: unchanged
		`{"description":"b"}`,
		`{"description":"b","description":"c"}`, // a repeated key: the last wins
		`{"description":"c"}`,                   // unchanged
		`{"description":"\u0063"}`,              // unchanged
		`{"description":"d"}`,
	}
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		now, old := open(stepClock()), open(stepClock())
		for i, v := range steps {
			w := upsert(v)
			w.SystemMetadata = json.RawMessage(`{"runId":"run-` + string(rune('a'+i)) + `"}`)
			want := mustApply(t, now, w)
			downgradeRows(t, old)
			got := mustApply(t, old, w)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("step %d %s: results on format 1 rows (-format 2 +format 1):\n%s", i, v, diff)
			}
		}
		for v := int64(0); v <= 3; v++ {
			if diff := cmp.Diff(mustGet(t, now, dsURN, props, v), mustGet(t, old, dsURN, props, v)); diff != "" {
				t.Errorf("version %d (-format 2 +format 1):\n%s", v, diff)
			}
		}
	})
}

// TestUnchangedWithoutHash: a value whose hash is unknown (a repeated key)
// or that is written differently is still compared as data.
func TestUnchangedWithoutHash(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		for i, tc := range []struct {
			value     string
			version   string
			unchanged bool
		}{
			{`{"description":"a","description":"b"}`, "1", false},
			{`{"description":"b"}`, "1", true},
			{`{ "description" : "\u0062" }`, "1", true},
			{`{"description":"c","description":"b"}`, "1", true},
			{`{"description":"b","description":"c"}`, "2", false},
		} {
			res := mustApply(t, s, upsert(tc.value))
			if res[0].Version != tc.version || res[0].Unchanged != tc.unchanged {
				t.Errorf("write %d %s = %+v, want version %s, unchanged %v", i, tc.value, res[0], tc.version, tc.unchanged)
			}
		}
	})
}

// TestSystemMetadataErrors pins the errors of a systemMetadata the store
// cannot take, whichever check finds the fault.
func TestSystemMetadataErrors(t *testing.T) {
	t.Parallel()
	s := OpenMemory(stepClock())
	defer s.Close()
	const item = "store: invalid write: item 1: "
	for _, tc := range []struct{ sm, want string }{
		{`[1]`, item + dsURN + " " + props + ": systemMetadata is not a JSON object"},
		{`"x"`, item + dsURN + " " + props + ": systemMetadata is not a JSON object"},
		{`{"a":1} x`, item + dsURN + " " + props + ": systemMetadata is not a JSON object"},
		{`{"a":`, item + dsURN + " " + props + ": systemMetadata is not a JSON object"},
		{` `, item + "systemMetadata: unexpected end of JSON input"},
		{`{"lastObserved":"x"}`, item + "systemMetadata.lastObserved: json: cannot unmarshal string into Go value of type int64"},
	} {
		w := upsert(`{"description":"a"}`)
		w.SystemMetadata = json.RawMessage(tc.sm)
		_, err := s.Apply([]Write{upsert(`{"description":"b"}`), w})
		if err == nil || err.Error() != tc.want || !errors.Is(err, ErrInvalidWrite) {
			t.Errorf("systemMetadata %s: Apply err = %v, want %s", tc.sm, err, tc.want)
		}
	}
	if all := allRows(t, s); len(all) != 0 {
		t.Errorf("failed batches wrote %d rows", len(all))
	}
}
