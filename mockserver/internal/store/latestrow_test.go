package store

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/jsonx"
)

// latestRowSeeds are stored rows of every format, and of lengths that
// take one, two and three bytes.
func latestRowSeeds() [][]byte {
	sm := json.RawMessage(`{"lastObserved":1700000000000,"runId":"r","version":"3"}`)
	long := json.RawMessage(`{"description":"` + strings.Repeat("x", 20000) + `"}`)
	longSM := json.RawMessage(`{"a":"` + strings.Repeat("y", 200) + `","b":1}`)
	var out [][]byte
	for _, r := range []row{
		{Value: json.RawMessage(`{"a":1}`), SystemMetadata: sm, CreatedOn: 1700000000000, CreatedBy: "urn:li:corpuser:x", Version: 3, Hash: 42},
		{Value: json.RawMessage(`{"a":1}`), CreatedOn: -5, Version: 1},
		{Value: json.RawMessage(`{"a":1}`), SystemMetadata: openAPISM, CreatedOn: 1700000000000, CreatedBy: "urn:li:corpuser:x", Version: 300, Hash: 42},
		{Value: long, SystemMetadata: longSM, CreatedOn: 0, CreatedBy: strings.Repeat("z", 300), Version: 1 << 20, Hash: 7},
		{Value: json.RawMessage(`{}`), SystemMetadata: json.RawMessage(`{"b":1,"a":2}`), Version: 200}, // no table
	} {
		out = append(out, r.encode())
	}
	v1 := []byte{rowFormatV1}
	v1 = lpBytes(v1, []byte(`{"a":1}`))
	v1 = lpBytes(v1, sm)
	v1 = append(v1, 2)
	v1 = lp(v1, "me")
	out = append(out, v1)
	v2 := append([]byte(nil), out[0]...)
	v2[0] = rowFormatV2
	out = append(out, v2[:len(v2)-4]) // the table cut: of format 2, corrupt
	return append(out, nil, []byte{rowFormat}, []byte{9})
}

// openAPISM is the systemMetadata of an OpenAPI write as the mock stores
// it: its properties member, with the telemetry properties, is longer
// than 127 bytes, so that its length in the row's table takes two bytes.
var openAPISM = json.RawMessage(`{"lastObserved":1700000000000,"lastRunId":"no-run-id-provided",` +
	`"properties":{"clientId":"datahub-go","clientVersion":"0.1.0","eventSource":"OPENAPI","sourceIP":"127.0.0.1",` +
	`"telemetryTraceId":"0006616ffa26f4b1df380d9f02fa3e44"},"runId":"no-run-id-provided","schemaVersion":1,"version":"300"}`)

// FuzzDecodeLatestRow checks that decodeLatestRow, with its quick reading
// of the usual row, decodes any bytes as decodeRowTable does.
func FuzzDecodeLatestRow(f *testing.F) {
	for _, s := range latestRowSeeds() {
		f.Add(s)
		for _, cut := range []int{1, 2, 5, 9} {
			if len(s) > cut {
				f.Add(s[:len(s)-cut])
			}
		}
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		wantRow, wantTable, wantErr := decodeRowTable(v, false)
		gotRow, gotTable, gotErr := decodeLatestRow(v)
		if (gotErr != nil) != (wantErr != nil) {
			t.Fatalf("err = %v, decodeRowTable's %v (%x)", gotErr, wantErr, v)
		}
		if !reflect.DeepEqual(gotRow, wantRow) || !bytes.Equal(gotTable, wantTable) || (gotTable == nil) != (wantTable == nil) {
			t.Fatalf("= %+v %x, decodeRowTable's %+v %x (%x)", gotRow, gotTable, wantRow, wantTable, v)
		}
	})
}

// TestQuickLatestRowReadsTheUsualRow: the rows a write usually finds, of
// the current format with short lengths and a table, an OpenAPI write's
// with a two-byte length in its table among them, take the quick path
// (were it never taken, FuzzDecodeLatestRow would compare decodeRowTable
// with itself).
func TestQuickLatestRowReadsTheUsualRow(t *testing.T) {
	t.Parallel()
	seeds := latestRowSeeds()
	for _, v := range seeds[:3] {
		if _, _, ok := quickLatestRow(v); !ok {
			t.Errorf("quickLatestRow(%x) refused", v)
		}
	}
	// The same of smFieldSpan's reading of a field without readTable.
	field := storedField(nil, openAPISM)
	n, w := shortUvarint(field)
	if w == 0 {
		t.Fatalf("field %x: no short length", field)
	}
	if _, ok := twoByteTable(field[w+int(n):]); !ok {
		t.Errorf("twoByteTable(%x) refused", field[w+int(n):])
	}
}

// FuzzSMFieldJSON checks smFieldJSON, which reads the usual field
// without walking its table, against reading it in full.
func FuzzSMFieldJSON(f *testing.F) {
	for _, sm := range []string{`{"a":"1","b":2}`, `{}`, ``, `{"a":"` + strings.Repeat("q", 300) + `"}`, `{"b":1,"a":2}`,
		string(openAPISM), `{"a":"` + strings.Repeat("q", 20000) + `"}`} {
		field := storedField(nil, []byte(sm))
		f.Add(field)
		f.Add(append(field, 0))
		f.Add(field[:len(field)-1])
	}
	f.Add(lpBytes(nil, []byte(`{"a":1}`)))
	f.Fuzz(func(t *testing.T, field []byte) {
		want, rest, ok := readLPBytes(field)
		if ok {
			_, rest, ok = readTable(rest)
			ok = ok && len(rest) == 0
		}
		got, gotOK := smFieldJSON(field)
		if gotOK != ok || (ok && !bytes.Equal(got, want)) {
			t.Fatalf("smFieldJSON(%x) = %q %v, want %q %v", field, got, gotOK, want, ok)
		}
	})
}

// TestFinishRefusesOtherThanOneField: a row finished with bytes that are
// not one systemMetadata field is refused, on the quick path and off it.
func TestFinishRefusesOtherThanOneField(t *testing.T) {
	t.Parallel()
	field := storedField(nil, []byte(`{"a":"1","b":2}`))
	for _, bad := range [][]byte{append(append([]byte(nil), field...), 0), field[:len(field)-1], {0x80}, nil} {
		h := newRowHead([]byte(`{"x":1}`), 1, "me", jsonx.Hash([]byte(`{"x":1}`)), 0)
		if _, _, err := h.finish(2, bad); err == nil {
			t.Errorf("finish(%x) accepted", bad)
		}
	}
	h := newRowHead([]byte(`{"x":1}`), 1, "me", 5, 0)
	b, r, err := h.finish(2, field)
	if err != nil || string(r.SystemMetadata) != `{"a":"1","b":2}` || r.Version != 2 {
		t.Fatalf("finish = %+v, %v", r, err)
	}
	if d, err := decodeRowShared(b); err != nil || !reflect.DeepEqual(d, row{Value: r.Value, SystemMetadata: r.SystemMetadata,
		CreatedOn: 1, CreatedBy: "me", Version: 2, Hash: 5}) {
		t.Fatalf("decoded %+v, %v", d, err)
	}
}

// FuzzEncodeStampedRow checks that a row encoded with its createdOn and
// createdBy from a rowStamp, which keeps the last pair's encoding, is
// encodeRow's, bytes and decoded row, for rows of a chunk in turn.
func FuzzEncodeStampedRow(f *testing.F) {
	f.Add([]byte(`{"a":1}`), int64(1700000000000), "urn:li:corpuser:datahub", uint64(9), int64(2), `{"runId":"r","version":"2"}`, int64(1700000000000), "urn:li:corpuser:datahub")
	f.Add([]byte(`{"a":"`+strings.Repeat("v", 300)+`"}`), int64(-1), "", uint64(0), int64(300), `{"b":1,"a":2}`, int64(-1), "x")
	f.Add([]byte(`{}`), int64(0), strings.Repeat("a", 200), uint64(1), int64(-3), `{"a":"`+strings.Repeat("q", 300)+`"}`, int64(5), strings.Repeat("a", 200))
	f.Fuzz(func(t *testing.T, value []byte, on int64, by string, hash uint64, version int64, sm string, on2 int64, by2 string) {
		var stamp rowStamp
		field := storedField(nil, []byte(sm))
		for _, c := range []struct {
			on int64
			by string
		}{{on, by}, {on2, by2}, {on2, by2}, {on, by}} {
			want, wantRow := encodeRow(value, c.on, c.by, hash, version, field)
			got, gotRow, err := encodeStampedRow(value, stamp.of(c.on, c.by), c.on, c.by, hash, version, field)
			if err != nil || !bytes.Equal(got, want) || !reflect.DeepEqual(gotRow, wantRow) {
				t.Fatalf("encodeStampedRow = %x %+v %v, encodeRow's %x %+v", got, gotRow, err, want, wantRow)
			}
		}
	})
}
