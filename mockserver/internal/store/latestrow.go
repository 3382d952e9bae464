package store

import (
	"encoding/binary"
	"math"
)

// A write built before the writer lock (see preRow) decodes the aspect's
// latest row for its value's hash, its version, its systemMetadata and
// that one's table. Most rows are of the current format with lengths of
// one or two bytes, a table of one-byte lengths and a createdOn of six;
// decodeLatestRow reads those in line, and hands any other row to
// decodeRowTable, whose answer it gives in every case (FuzzDecodeLatestRow
// compares the two).

// decodeLatestRow is decodeRowTable(v, false).
func decodeLatestRow(v []byte) (row, []byte, error) {
	if r, table, ok := quickLatestRow(v); ok {
		return r, table, nil
	}
	return decodeRowTable(v, false)
}

// quickLatestRow decodes, as decodeRowTable would, a row of format 3
// whose lengths and version take at most two bytes each and whose table
// one byte its count and at most two a length; ok is false for any other
// row (then decodeRowTable decides).
func quickLatestRow(v []byte) (r row, table []byte, ok bool) {
	if len(v) == 0 || v[0] != rowFormat {
		return row{}, nil, false
	}
	i := 1
	n, w := shortUvarint(v[i:])
	if w == 0 || n > uint64(len(v)-i-w) {
		return row{}, nil, false
	}
	i += w
	value := v[i : i+int(n) : i+int(n)]
	i += int(n)
	// createdOn, a zigzag varint of at most 10 bytes.
	var u uint64
	var s uint
	for j := 0; ; j++ {
		if i >= len(v) || j == binary.MaxVarintLen64 {
			return row{}, nil, false
		}
		b := v[i]
		i++
		if b < 0x80 {
			if j == binary.MaxVarintLen64-1 && b > 1 {
				return row{}, nil, false // overflow: binary.Varint refuses it
			}
			u |= uint64(b) << s
			break
		}
		u |= uint64(b&0x7f) << s
		s += 7
	}
	createdOn := int64(u >> 1)
	if u&1 != 0 {
		createdOn = ^createdOn
	}
	n, w = shortUvarint(v[i:])
	if w == 0 || n > uint64(len(v)-i-w) {
		return row{}, nil, false
	}
	i += w + int(n) // createdBy, not decoded
	if len(v)-i < 8 {
		return row{}, nil, false
	}
	hash := binary.LittleEndian.Uint64(v[i:])
	i += 8
	version, w := shortUvarint(v[i:])
	if w == 0 || version > math.MaxInt64 {
		return row{}, nil, false
	}
	i += w
	n, w = shortUvarint(v[i:])
	if w == 0 || n > uint64(len(v)-i-w) {
		return row{}, nil, false
	}
	i += w
	sm := v[i : i+int(n) : i+int(n)]
	i += int(n)
	table, ok = shortTable(v[i:])
	if !ok {
		if table, ok = twoByteTable(v[i:]); !ok {
			return row{}, nil, false
		}
	}
	return row{Value: nilIfEmpty(value), SystemMetadata: nilIfEmpty(sm), CreatedOn: createdOn, Version: int64(version),
		Hash: hash}, table, true
}

// shortUvarint is binary.Uvarint of a uvarint of one or two bytes; w is 0
// for any other (then the caller asks binary.Uvarint's reader).
func shortUvarint(b []byte) (v uint64, w int) {
	if len(b) > 0 && b[0] < 0x80 {
		return uint64(b[0]), 1
	}
	if len(b) > 1 && b[1] < 0x80 {
		return uint64(b[0]&0x7f) | uint64(b[1])<<7, 2
	}
	return 0, 0
}

// shortTable is readTable of b, a row's end, when b is one table (see
// smtable.go) of a count and lengths of one byte each: the table as
// readTable returns it (nil for none); ok is false for anything else
// (then twoByteTable may read it).
func shortTable(b []byte) ([]byte, bool) {
	if len(b) == 0 || b[0] >= 0x80 {
		return nil, false
	}
	if b[0] == 0 {
		return nil, len(b) == 1
	}
	if len(b) != int(b[0]) {
		return nil, false
	}
	for _, c := range b[1:] {
		if c >= 0x80 {
			return nil, false
		}
	}
	return b[:len(b):len(b)], true
}

// twoByteTable is readTable of b, a row's end, when b is one table of a
// count of one byte and lengths of one or two bytes each (a member of 128
// bytes or more, such as the properties with the telemetry ones that an
// OpenAPI write stamps, takes two); ok is false for anything else. It is
// asked after shortTable, which reads the usual table in fewer steps.
func twoByteTable(b []byte) ([]byte, bool) {
	if len(b) == 0 || b[0] >= 0x80 {
		return nil, false
	}
	if b[0] == 0 {
		return nil, len(b) == 1
	}
	i := 1
	for range b[0] - 1 {
		switch {
		case i < len(b) && b[i] < 0x80:
			i++
		case i+1 < len(b) && b[i+1] < 0x80:
			i += 2
		default:
			return nil, false
		}
	}
	if i != len(b) {
		return nil, false
	}
	return b[:len(b):len(b)], true
}

// A row's createdOn and createdBy are the batch's time and, most often,
// one actor for every write of the batch: a chunk of preBuild encodes them
// once (rowStamp) and copies them into each row it builds.

// rowStamp is the encoding of a row's createdOn and createdBy (see
// appendRowHead) for the last pair a chunk asked for.
type rowStamp struct {
	ok        bool
	createdOn int64
	createdBy string
	b         []byte
}

// of returns the encoding of createdOn and createdBy, valid until the
// next call.
func (s *rowStamp) of(createdOn int64, createdBy string) []byte {
	if !s.ok || s.createdOn != createdOn || s.createdBy != createdBy {
		b := binary.AppendVarint(s.b[:0], createdOn)
		s.b = lp(b, createdBy)
		s.ok, s.createdOn, s.createdBy = true, createdOn, createdBy
	}
	return s.b
}

// encodeStampedRow is encodeRow with createdOn and createdBy encoded as
// stamp (rowStamp.of), and sm a field appendStored or storedField wrote.
func encodeStampedRow(value []byte, stamp []byte, createdOn int64, createdBy string, hash uint64, version int64,
	sm []byte) ([]byte, row, error) {
	jsonStart, jsonEnd, ok := smFieldSpan(sm)
	if !ok {
		return nil, row{}, errCorrupt
	}
	size := 1 + uvarintLen(uint64(len(value))) + len(value) + len(stamp) + 8 + uvarintLen(uint64(max(version, 0))) + len(sm)
	b := make([]byte, 0, size)
	b = append(b, rowFormat)
	b = binary.AppendUvarint(b, uint64(len(value)))
	valueStart := len(b)
	b = append(b, value...)
	valueEnd := len(b)
	b = append(b, stamp...)
	b = binary.LittleEndian.AppendUint64(b, hash)
	b = binary.AppendUvarint(b, uint64(max(version, 0)))
	smStart, smEnd := len(b)+jsonStart, len(b)+jsonEnd
	b = append(b, sm...)
	return b, row{Value: nilIfEmpty(b[valueStart:valueEnd:valueEnd]), SystemMetadata: nilIfEmpty(b[smStart:smEnd:smEnd]),
		CreatedOn: createdOn, CreatedBy: createdBy, Version: version, Hash: hash}, nil
}
