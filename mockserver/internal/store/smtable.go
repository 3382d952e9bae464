package store

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/internal/jsonx"
)

// A row of the current format follows its systemMetadata with a table of
// the members' value lengths, so that a write that updates the row (see
// nextSystemMetadata) finds its members without scanning the JSON: the
// keys are plain ASCII between quotes (marshal writes no other in its own
// output), so a key ends at the next quote and its value is the next so
// many bytes. The table is a uvarint count+1 followed by count uvarint
// lengths, in the members' order; a single 0 says there is none (a
// systemMetadata encoding/json wrote, or one not in marshal's form), and
// the JSON is then split as before.

// noTable is the table of a systemMetadata that has none.
var noTable = []byte{0}

// appendStored appends the systemMetadata field of a row holding o: its
// JSON as marshal writes it (see appendMarshalFrom, marshalled included),
// length-prefixed, and the table of its members. It sorts o.
func (o rawObject) appendStored(dst []byte, marshalled []byte) ([]byte, error) {
	dst, own, err := o.appendMarshalOwn(dst, true, marshalled)
	if err != nil || !own {
		return append(dst, noTable...), err
	}
	return appendTable(dst, o), nil
}

// appendTable appends the table of the members o, which marshal wrote in
// this order.
func appendTable(dst []byte, o rawObject) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(o))+1)
	for _, m := range o {
		dst = binary.AppendUvarint(dst, uint64(len(m.Value)))
	}
	return dst
}

// storedField is the systemMetadata field of a row holding sm: sm
// length-prefixed, and its table when sm is in marshal's form (see
// storedSplit).
func storedField(dst, sm []byte) []byte {
	dst = lpBytes(dst, sm)
	var room [16]jsonx.Member
	if ms, ok := storedSplit(room[:0], sm, true); ok && len(sm) > 0 {
		return appendTable(dst, ms)
	}
	return append(dst, noTable...)
}

// storedFieldSize is len(storedField(nil, sm)) for a table of n members
// each shorter than 128 bytes, about the room a row needs.
func storedFieldSize(smLen, n int) int { return uvarintLen(uint64(smLen)) + smLen + 1 + n }

// readTable reads a table from b and returns it (nil for none) and the
// rest; ok is false when b does not start with one.
func readTable(b []byte) (table, rest []byte, ok bool) {
	n, w := binary.Uvarint(b)
	if w <= 0 {
		return nil, nil, false
	}
	if n == 0 {
		return nil, b[w:], true
	}
	i := w
	for range n - 1 {
		if i < len(b) && b[i] < 0x80 {
			i++ // the usual length, below 128
			continue
		}
		_, w := binary.Uvarint(b[i:])
		if w <= 0 {
			return nil, nil, false
		}
		i += w
	}
	return b[:i:i], b[i:], true
}

// tableSplit is storedSplit of a systemMetadata sm whose table is table:
// it appends the same members to dst, reading the value lengths from the
// table instead of scanning the values, and refuses (returning dst as it
// came) a text and table that do not agree, which storedSplit then reads.
// With share set the keys share sm, like the values; otherwise they are
// memberKey's.
func tableSplit(dst rawObject, sm, table []byte, share bool) (rawObject, bool) {
	n := len(dst)
	count, w := binary.Uvarint(table)
	if w <= 0 || count == 0 || len(sm) < 2 || sm[0] != '{' || sm[len(sm)-1] != '}' {
		return dst, false
	}
	count--
	table = table[w:]
	if count == 0 {
		return dst, len(sm) == 2
	}
	var prev []byte
	i := 1
	for j := range count {
		vlen, w := uint64(0), 1
		if len(table) > 0 && table[0] < 0x80 {
			vlen = uint64(table[0]) // the usual length, below 128
		} else {
			vlen, w = binary.Uvarint(table)
		}
		if w <= 0 || i >= len(sm) || sm[i] != '"' {
			return dst[:n], false
		}
		table = table[w:]
		q := bytes.IndexByte(sm[i+1:], '"')
		if q < 0 {
			return dst[:n], false
		}
		key := sm[i+1 : i+1+q]
		for _, c := range key {
			if c < 0x20 || c >= utf8.RuneSelf || c == '\\' {
				return dst[:n], false // as nextKey
			}
		}
		start := i + q + 3 // past the quote and the colon
		if start > len(sm) || sm[start-1] != ':' || vlen == 0 || vlen > uint64(len(sm)-start) {
			return dst[:n], false
		}
		if prev != nil && string(prev) >= string(key) {
			return dst[:n], false
		}
		prev = key
		end := start + int(vlen)
		dst = append(dst, jsonx.Member{Key: splitKey(key, share), Value: sm[start:end:end]})
		switch {
		case j == count-1:
			if end != len(sm)-1 {
				return dst[:n], false
			}
		case sm[end] != ',':
			return dst[:n], false
		}
		i = end + 1
	}
	return dst, len(table) == 0
}
