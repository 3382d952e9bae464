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
// A row of format 2 holds its value (length-prefixed), createdOn (varint),
// createdBy (length-prefixed), the jsonx.Hash of its value (8 bytes), its
// version (uvarint) and its systemMetadata (length-prefixed): a write reads the
// version without parsing systemMetadata, tells a changed value from the
// hashes, and builds all of the row but the last two fields before it takes
// the writer lock (see rowHead). A row of format 1, written before, holds
// value and systemMetadata (length-prefixed), createdOn and createdBy; it
// still decodes, its version and hash as 0, unknown.
const (
	rowFormat   byte = 2
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
	h := newRowHead(r.Value, r.CreatedOn, r.CreatedBy, r.Hash, binary.MaxVarintLen64+len(r.SystemMetadata))
	b, built, _ := h.finish(r.Version, func(b []byte) ([]byte, error) { return lpBytes(b, r.SystemMetadata), nil })
	return b, built
}

// rowHead is a row of format 2 encoded up to its hash, with room for the
// rest. Every write of a batch holds one until the writer lock, so it keeps
// only what finish needs.
type rowHead struct {
	b                    []byte
	valueStart, valueEnd int
	createdOn            int64
	createdBy            string
	hash                 uint64
}

// newRowHead encodes the fields of a row that precede its version, with
// room for smSize bytes of length-prefixed systemMetadata.
func newRowHead(value []byte, createdOn int64, createdBy string, hash uint64, smSize int) rowHead {
	// The row is kept as allocated: room for a version below 2^21 and no
	// more than smSize.
	size := 1 + uvarintLen(uint64(len(value))) + len(value) + binary.MaxVarintLen64 +
		uvarintLen(uint64(len(createdBy))) + len(createdBy) + 8 + 3 + smSize
	b := make([]byte, 0, size)
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

// finish appends version and the length-prefixed systemMetadata appendSM
// appends, and returns the encoding and the row it decodes to, sharing its
// memory. It may use h's memory: h is not used again.
func (h rowHead) finish(version int64, appendSM func([]byte) ([]byte, error)) ([]byte, row, error) {
	b := binary.AppendUvarint(h.b, uint64(max(version, 0)))
	start := len(b)
	b, err := appendSM(b)
	if err != nil {
		return nil, row{}, err
	}
	sm, rest, ok := readLPBytes(b[start:])
	if !ok || len(rest) != 0 {
		return nil, row{}, errCorrupt // appendSM appended other than one field
	}
	smStart := len(b) - len(sm)
	r := row{Value: nilIfEmpty(b[h.valueStart:h.valueEnd:h.valueEnd]), SystemMetadata: nilIfEmpty(b[smStart:len(b):len(b)]),
		CreatedOn: h.createdOn, CreatedBy: h.createdBy, Version: version, Hash: h.hash}
	return b, r, nil
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
	if len(v) == 0 {
		return row{}, errCorrupt
	}
	switch v[0] {
	case rowFormat:
		return decodeRowV2(v[1:], createdBy)
	case rowFormatV1:
		return decodeRowV1(v[1:], createdBy)
	}
	return row{}, errCorrupt
}

func decodeRowV2(v []byte, createdBy bool) (row, error) {
	value, rest, ok := readLPBytes(v)
	if !ok {
		return row{}, errCorrupt
	}
	value = value[:len(value):len(value)]
	createdOn, n := binary.Varint(rest)
	if n <= 0 {
		return row{}, errCorrupt
	}
	by, rest, ok := readLPBytes(rest[n:])
	if !ok || len(rest) < 8 {
		return row{}, errCorrupt
	}
	hash := binary.LittleEndian.Uint64(rest)
	version, n := binary.Uvarint(rest[8:])
	if n <= 0 || version > math.MaxInt64 {
		return row{}, errCorrupt
	}
	sm, rest, ok := readLPBytes(rest[8+n:])
	if !ok || len(rest) != 0 {
		return row{}, errCorrupt
	}
	r := row{Value: nilIfEmpty(value), SystemMetadata: nilIfEmpty(sm[:len(sm):len(sm)]), CreatedOn: createdOn,
		Version: int64(version), Hash: hash}
	if createdBy {
		r.CreatedBy = string(by)
	}
	return r, nil
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
	return Aspect{URN: urn, Name: name, Version: version, Value: r.Value,
		SystemMetadata: r.SystemMetadata, CreatedOn: time.UnixMilli(r.CreatedOn).UTC(), CreatedBy: r.CreatedBy}
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
