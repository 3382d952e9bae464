// Package wire holds the JSON helpers the mock's protocol adapters share:
// decoding request bodies without reflection where the text allows (a
// [Doc] with its outline), and encoding answers without HTML escaping.
package wire

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// MarshalJSON encodes v without HTML escaping, so that embedded raw aspect
// JSON goes out as stored.
func MarshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// IsNull reports whether v is the JSON null.
func IsNull(v json.RawMessage) bool {
	return string(bytes.TrimSpace(v)) == "null"
}

// IsObjectText reports whether v is a JSON object, for a value taken from a document that already
// decoded as JSON (every member of a decoded body is valid JSON).
func IsObjectText(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && v[0] == '{'
}

// UnmarshalObject is json.Unmarshal of raw into a map of its members' JSON
// text, without reflection when raw is a valid object (the members then
// share raw's memory); anything else goes to encoding/json for its answer.
func UnmarshalObject(raw []byte) (Map, error) {
	return UnmarshalObjectInto(make(Map, 0, 8), raw)
}

// UnmarshalObjectInto is UnmarshalObject appending to the empty buffer buf
// (which a caller may keep on its stack).
func UnmarshalObjectInto(buf Map, raw []byte) (Map, error) {
	if ms, ok := pdl.AppendMembers(buf, raw); ok {
		return ms, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, err
	}
	out := make(Map, 0, len(m))
	for k, v := range m {
		out = append(out, pdl.Member{Key: k, Value: v})
	}
	return out, nil
}

// Doc is the document a request's values come from: with its outline
// when it has one (a valid body), whose recorded objects and arrays split
// without another scan; the zero Doc splits every value afresh. With a
// memo, what one proposal decodes serves the next.
type Doc struct {
	O    *pdl.Outline
	Memo *Memo
}

// Memo is what the decode of one document keeps from proposal to
// proposal: the last systemMetadata that conformed (a batch's proposals
// often carry the same one), and memory for the aspect values, taken in
// chunks rather than one allocation per value.
type Memo struct {
	sm, smCompact []byte // the document's text and its compaction
	values        []byte // the current chunk of the values' memory
	Chunk         int    // the size of a new chunk after the first
	started       bool   // the first chunk was made (see newChunk)
}

// firstChunk is the most a Memo's first chunk takes (the next ones take
// Chunk), so that a document whose values repeat (and share their
// decoding) takes little memory for them.
const firstChunk = 2 << 10

// newChunk makes m's next chunk of values' memory, with room for n bytes
// at least.
func (m *Memo) newChunk(n int) {
	size := m.Chunk
	if !m.started {
		size, m.started = min(m.Chunk, firstChunk), true
	}
	m.values = make([]byte, 0, max(size, n))
}

// MaxValueChunk is the largest chunk a Memo takes for aspect values.
const MaxValueChunk = 32 << 10

// CheckSystemMetadata is gms.CheckSystemMetadata for v, a value of d; a
// repeat of the last systemMetadata that conformed gets the same compaction
// (shared: nothing changes a proposal's values in place).
func (d Doc) CheckSystemMetadata(v []byte) ([]byte, error) {
	m := d.Memo
	if m != nil && m.sm != nil && bytes.Equal(v, m.sm) {
		return m.smCompact, nil
	}
	c, err := gms.CheckSystemMetadata(v)
	if err == nil && m != nil {
		c = c[:len(c):len(c)] // shared: an append makes a copy
		m.sm, m.smCompact = v, c
	}
	return c, err
}

// UnquoteBytes is pdl.UnquoteJSONBytes for lit, a value of d, in the
// memo's chunk of memory when there is one; the bytes are capped at their
// length, so that an append to them never reaches the next value.
func (d Doc) UnquoteBytes(lit []byte) ([]byte, bool) {
	m := d.Memo
	if m == nil {
		return pdl.UnquoteJSONBytes(lit)
	}
	if cap(m.values)-len(m.values) < len(lit) { // a decoding is as long as lit but for invalid UTF-8
		m.newChunk(len(lit))
	}
	start := len(m.values)
	b, ok := pdl.AppendUnquoted(m.values, lit)
	if !ok {
		return nil, false
	}
	m.values = b
	return b[start:len(b):len(b)], true
}

// Object is UnmarshalObjectInto for raw, a value of d.
func (d Doc) Object(buf Map, raw []byte) (Map, error) {
	if d.O != nil {
		if ms, ok := d.O.AppendMembers(buf, raw); ok {
			if ms == nil {
				ms = Map{} // an empty object
			}
			return ms, nil
		}
	}
	return UnmarshalObjectInto(buf, raw)
}

// Text is UnmarshalString for raw, a value of d.
func (d Doc) Text(raw []byte) (string, error) {
	if d.O != nil {
		if s, ok := d.O.Unquote(raw); ok {
			return s, nil
		}
	}
	return UnmarshalString(raw)
}

// Array is UnmarshalArray for raw, a value of d.
func (d Doc) Array(raw []byte) ([][]byte, error) {
	if d.O != nil {
		if es, ok := d.O.Elements(raw); ok {
			return es, nil
		}
	}
	raws, err := UnmarshalArray(raw)
	es := make([][]byte, len(raws))
	for i, r := range raws {
		es[i] = r
	}
	return es, err
}

// Map is a JSON object as its members in order; a repeated key's last
// value counts, as in a decoded map. It serves the small objects of a
// request, where a scan is cheaper than a map.
type Map []pdl.Member

// Get returns the value of key, as a map index does.
func (m Map) Get(key string) (json.RawMessage, bool) {
	for i := len(m) - 1; i >= 0; i-- {
		if m[i].Key == key {
			return m[i].Value, true
		}
	}
	return nil, false
}

// SortedKeys returns the distinct keys in order.
func (m Map) SortedKeys() []string {
	keys := make([]string, len(m))
	for i, mb := range m {
		keys[i] = mb.Key
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// UnmarshalString is json.Unmarshal of raw into a string, without
// reflection for a string literal.
func UnmarshalString(raw []byte) (string, error) {
	if s, ok := pdl.UnquoteJSON(bytes.TrimSpace(raw)); ok {
		return s, nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// UnmarshalArray is json.Unmarshal of raw into a list of its elements' JSON
// text, without reflection for a valid array.
func UnmarshalArray(raw []byte) ([]json.RawMessage, error) {
	if es, ok := pdl.ArrayElements(raw); ok {
		out := make([]json.RawMessage, len(es))
		for i, e := range es {
			out[i] = e
		}
		return out, nil
	}
	var out []json.RawMessage
	err := json.Unmarshal(raw, &out)
	return out, err
}

// AuditStamp is com.linkedin.common.AuditStamp: when and by whom.
type AuditStamp struct {
	Time  int64  `json:"time"`
	Actor string `json:"actor"`
}

// Outlines are the outlines the adapters parse request bodies into, kept
// for the next request: nothing decoded keeps one.
var Outlines = sync.Pool{New: func() any { return new(pdl.Outline) }}

// MaxKeptBody is the largest buffer an adapter keeps for the next request.
const MaxKeptBody = 4 << 20
