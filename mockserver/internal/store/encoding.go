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
// A row of format 2 is a row of format 1 (value, systemMetadata, createdOn,
// createdBy) followed by the row's version as a uvarint and the
// jsonx.Hash of its value as 8 bytes, so that a write reads the version
// without parsing systemMetadata and tells a changed value from the hashes.
// Rows of format 1, written before, still decode: their version and hash
// read as 0, unknown.
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
	b := make([]byte, 0, 1+len(r.Value)+len(r.SystemMetadata)+len(r.CreatedBy)+40)
	b = append(b, rowFormat)
	b = lpBytes(b, r.Value)
	value := b[len(b)-len(r.Value) : len(b) : len(b)]
	b = lpBytes(b, r.SystemMetadata)
	sm := b[len(b)-len(r.SystemMetadata) : len(b) : len(b)]
	b = binary.AppendVarint(b, r.CreatedOn)
	b = lp(b, r.CreatedBy)
	b = binary.AppendUvarint(b, uint64(max(r.Version, 0)))
	b = binary.LittleEndian.AppendUint64(b, r.Hash)
	r.Value, r.SystemMetadata = nilIfEmpty(value), nilIfEmpty(sm)
	return b, r
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
	if len(v) == 0 || v[0] != rowFormat && v[0] != rowFormatV1 {
		return row{}, errCorrupt
	}
	value, rest, ok := readLPBytes(v[1:])
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
	if !ok {
		return row{}, errCorrupt
	}
	r := row{Value: nilIfEmpty(value), SystemMetadata: nilIfEmpty(sm), CreatedOn: createdOn}
	if createdBy {
		r.CreatedBy = string(by)
	}
	if v[0] == rowFormatV1 {
		if len(rest) != 0 {
			return row{}, errCorrupt
		}
		return r, nil
	}
	version, n := binary.Uvarint(rest)
	if n <= 0 || version > math.MaxInt64 || len(rest) != n+8 {
		return row{}, errCorrupt
	}
	r.Version, r.Hash = int64(version), binary.LittleEndian.Uint64(rest[n:])
	return r, nil
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
