package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"time"
)

// Stored values are a format byte followed by length-prefixed fields. The
// JSON they hold is already compact, so storing it needs no re-encoding.
//
// A row of format 3 holds its value (length-prefixed), createdOn (varint),
// createdBy (length-prefixed), the jsonx.Hash of its value (8 bytes), its
// version (uvarint), its systemMetadata (length-prefixed) and the table of
// the systemMetadata's members (see smtable.go): a write reads the version
// without parsing systemMetadata, tells a changed value from the hashes,
// finds the members it carries over without scanning them, and builds the
// row before it takes the writer lock (see preRow). A row of format 2,
// written before, is the same without the table; one of format 1 holds
// value and systemMetadata (length-prefixed), createdOn and createdBy, its
// version and hash read as 0, unknown. Both still decode.
const (
	rowFormat   byte = 3
	rowFormatV2 byte = 2
	rowFormatV1 byte = 1
	docFormat   byte = 1
)

var errCorrupt = errors.New("store: corrupt stored value")

// row is the stored form of one versioned row, in both backends.
type row struct {
	Value          json.RawMessage
	SystemMetadata json.RawMessage
	CreatedOn      int64 // Unix milliseconds
	CreatedBy      string
	// Version is the version the row reports (see rowVersion), 0 when
	// unknown: then it comes from SystemMetadata.
	Version int64
	// Hash is jsonx.Hash(Value), 0 when unknown.
	Hash uint64
}

func (r row) encode() []byte {
	b, _ := r.encodeShared()
	return b
}

// encodeShared encodes r and returns, beside the encoding, r with its JSON
// sharing the encoding's memory (what the stored row decodes to).
func (r row) encodeShared() ([]byte, row) {
	return encodeRow(r.Value, r.CreatedOn, r.CreatedBy, r.Hash, r.Version, storedField(nil, r.SystemMetadata))
}

// rowHeadSize is the size of the fields of a row that precede its
// version.
func rowHeadSize(value []byte, createdOn int64, createdBy string) int {
	return 1 + uvarintLen(uint64(len(value))) + len(value) + varintLen(createdOn) +
		uvarintLen(uint64(len(createdBy))) + len(createdBy) + 8
}

// encodeRow encodes a row of format 3 in memory of its size, with sm the
// systemMetadata field (see appendStored), and returns it and the row it
// decodes to, sharing its memory.
func encodeRow(value []byte, createdOn int64, createdBy string, hash uint64, version int64, sm []byte) ([]byte, row) {
	size := rowHeadSize(value, createdOn, createdBy) + uvarintLen(uint64(max(version, 0))) + len(sm)
	h := appendRowHead(make([]byte, 0, size), value, createdOn, createdBy, hash)
	b, built, _ := h.finish(version, sm)
	return b, built
}

// rowHead is a row of format 3 encoded up to its hash, with room for the
// rest. A write that is not built before the writer lock holds one until
// the lock, so it keeps only what finish needs.
type rowHead struct {
	b                    []byte
	valueStart, valueEnd int
	createdOn            int64
	createdBy            string
	hash                 uint64
}

// newRowHead encodes the fields of a row that precede its version, with
// room for smSize bytes of systemMetadata field (see storedFieldSize).
func newRowHead(value []byte, createdOn int64, createdBy string, hash uint64, smSize int) rowHead {
	// Room for a version below 2^21.
	size := rowHeadSize(value, createdOn, createdBy) + 3 + smSize
	return appendRowHead(make([]byte, 0, size), value, createdOn, createdBy, hash)
}

// appendRowHead appends the fields of a row that precede its version to
// b.
func appendRowHead(b, value []byte, createdOn int64, createdBy string, hash uint64) rowHead {
	b = append(b, rowFormat)
	b = binary.AppendUvarint(b, uint64(len(value)))
	h := rowHead{valueStart: len(b), createdOn: createdOn, createdBy: createdBy, hash: hash}
	b = append(b, value...)
	h.valueEnd = len(b)
	b = binary.AppendVarint(b, createdOn)
	b = lp(b, createdBy)
	h.b = binary.LittleEndian.AppendUint64(b, hash)
	return h
}

// finish appends version and the systemMetadata field sm (see
// appendStored), and returns the encoding and the row it decodes to,
// sharing its memory. It may use h's memory: h is not used again.
func (h rowHead) finish(version int64, sm []byte) ([]byte, row, error) {
	b := binary.AppendUvarint(h.b, uint64(max(version, 0)))
	start := len(b)
	b = append(b, sm...)
	json, ok := smFieldJSON(b[start:])
	if !ok {
		return nil, row{}, errCorrupt // sm is other than one field
	}
	r := row{Value: nilIfEmpty(b[h.valueStart:h.valueEnd:h.valueEnd]), SystemMetadata: nilIfEmpty(json[:len(json):len(json)]),
		CreatedOn: h.createdOn, CreatedBy: h.createdBy, Version: version, Hash: h.hash}
	return b, r, nil
}

// smFieldJSON is the JSON of f, a systemMetadata field (see
// appendStored); ok is false when f is other than one field.
func smFieldJSON(f []byte) (json []byte, ok bool) {
	start, end, ok := smFieldSpan(f)
	return f[start:end], ok
}

// smFieldSpan is where smFieldJSON's JSON is in f: f[start:end].
func smFieldSpan(f []byte) (start, end int, ok bool) {
	if n, w := shortUvarint(f); w != 0 && n <= uint64(len(f)-w) {
		end := w + int(n)
		if _, ok := shortTable(f[end:]); ok {
			return w, end, true
		}
		if _, ok := twoByteTable(f[end:]); ok {
			return w, end, true
		}
	}
	json, table, ok := readLPBytes(f)
	if !ok {
		return 0, 0, false
	}
	if _, rest, ok := readTable(table); !ok || len(rest) != 0 {
		return 0, 0, false
	}
	end = len(f) - len(table)
	return end - len(json), end, true
}

// decodeRow decodes a stored row into private copies.
func decodeRow(v []byte) (row, error) {
	r, err := decodeRowShared(v)
	if err != nil {
		return row{}, err
	}
	r.Value, r.SystemMetadata = rawCopy(r.Value), rawCopy(r.SystemMetadata)
	return r, nil
}

// decodeRowShared decodes a stored row whose Value and SystemMetadata share
// v's memory.
func decodeRowShared(v []byte) (row, error) { return decodeRowParts(v, true) }

// decodeRowParts is decodeRowShared, leaving CreatedBy empty (it is the one
// field decoding copies) unless createdBy is set.
func decodeRowParts(v []byte, createdBy bool) (row, error) {
	r, _, err := decodeRowTable(v, createdBy)
	return r, err
}

// decodeRowTable is decodeRowParts, also returning the table of the row's
// systemMetadata (nil when it has none).
func decodeRowTable(v []byte, createdBy bool) (row, []byte, error) {
	if len(v) == 0 {
		return row{}, nil, errCorrupt
	}
	switch v[0] {
	case rowFormat, rowFormatV2:
		r, rest, err := decodeRowV2(v[1:], createdBy)
		if err != nil {
			return row{}, nil, err
		}
		var table []byte
		if v[0] == rowFormat {
			var ok bool
			if table, rest, ok = readTable(rest); !ok {
				return row{}, nil, errCorrupt
			}
		}
		if len(rest) != 0 {
			return row{}, nil, errCorrupt
		}
		return r, table, nil
	case rowFormatV1:
		r, err := decodeRowV1(v[1:], createdBy)
		return r, nil, err
	}
	return row{}, nil, errCorrupt
}

// decodeRowV2 decodes the fields of a row of format 2, which a row of
// format 3 starts with, and returns the rest.
func decodeRowV2(v []byte, createdBy bool) (row, []byte, error) {
	value, rest, ok := readLPBytes(v)
	if !ok {
		return row{}, nil, errCorrupt
	}
	value = value[:len(value):len(value)]
	createdOn, n := binary.Varint(rest)
	if n <= 0 {
		return row{}, nil, errCorrupt
	}
	by, rest, ok := readLPBytes(rest[n:])
	if !ok || len(rest) < 8 {
		return row{}, nil, errCorrupt
	}
	hash := binary.LittleEndian.Uint64(rest)
	version, n := binary.Uvarint(rest[8:])
	if n <= 0 || version > math.MaxInt64 {
		return row{}, nil, errCorrupt
	}
	sm, rest, ok := readLPBytes(rest[8+n:])
	if !ok {
		return row{}, nil, errCorrupt
	}
	r := row{Value: nilIfEmpty(value), SystemMetadata: nilIfEmpty(sm[:len(sm):len(sm)]), CreatedOn: createdOn,
		Version: int64(version), Hash: hash}
	if createdBy {
		r.CreatedBy = string(by)
	}
	return r, rest, nil
}

func decodeRowV1(v []byte, createdBy bool) (row, error) {
	value, rest, ok := readLPBytes(v)
	if !ok {
		return row{}, errCorrupt
	}
	sm, rest, ok := readLPBytes(rest)
	if !ok {
		return row{}, errCorrupt
	}
	createdOn, n := binary.Varint(rest)
	if n <= 0 {
		return row{}, errCorrupt
	}
	by, rest, ok := readLPBytes(rest[n:])
	if !ok || len(rest) != 0 {
		return row{}, errCorrupt
	}
	r := row{Value: nilIfEmpty(value), SystemMetadata: nilIfEmpty(sm), CreatedOn: createdOn}
	if createdBy {
		r.CreatedBy = string(by)
	}
	return r, nil
}

// varintLen is the length of binary.AppendVarint(nil, v).
func varintLen(v int64) int {
	u := uint64(v) << 1
	if v < 0 {
		u = ^u
	}
	return uvarintLen(u)
}

// uvarintLen is the length of binary.AppendUvarint(nil, v).
func uvarintLen(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

func nilIfEmpty(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return b
}

// aspect converts a decoded row; the decoded slices are already private.
func (r row) aspect(urn, name string, version int64) Aspect {
	return r.aspectOn(urn, name, version, time.UnixMilli(r.CreatedOn).UTC())
}

// aspectOn is aspect with its createdOn given as on, which is
// time.UnixMilli(r.CreatedOn).UTC().
func (r *row) aspectOn(urn, name string, version int64, on time.Time) Aspect {
	return Aspect{URN: urn, Name: name, Version: version, Value: r.Value,
		SystemMetadata: r.SystemMetadata, CreatedOn: on, CreatedBy: r.CreatedBy}
}

// doc is the stored form of one timeseries document.
type doc struct {
	Value          json.RawMessage
	SystemMetadata json.RawMessage
}

func (d doc) encode() []byte {
	b := make([]byte, 0, 1+len(d.Value)+len(d.SystemMetadata)+8)
	b = append(b, docFormat)
	b = lpBytes(b, d.Value)
	return lpBytes(b, d.SystemMetadata)
}

func decodeDoc(v []byte) (doc, error) {
	if len(v) == 0 || v[0] != docFormat {
		return doc{}, errCorrupt
	}
	value, rest, ok := readLPBytes(v[1:])
	if !ok {
		return doc{}, errCorrupt
	}
	sm, rest, ok := readLPBytes(rest)
	if !ok || len(rest) != 0 {
		return doc{}, errCorrupt
	}
	return doc{Value: rawCopy(value), SystemMetadata: rawCopy(sm)}, nil
}

// rawCopy copies stored bytes (bbolt's are only valid inside the
// transaction); nil for none.
func rawCopy(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return bytes.Clone(b)
}
