package gms

import (
	"bytes"
	"sync/atomic"

	"github.com/catalogkit/datahub-go/internal/jsonx"
)

// The telemetry of a traced request's writes without splitting objects
// into members: the caller's properties are written as JSON text once per
// request (telemetryText), and a systemMetadata or properties object in
// compact text with plain keys (the shape every client sends and the
// store writes) is read once, in place. Anything else takes the general
// functions (Caller.telemetryGeneral, updateTelemetryGeneral), whose
// results these equal (FuzzTelemetryQuick, FuzzUpdateTelemetryQuick).

// textMember is a member of a JSON object: its key (plain: see plainKeyEnd)
// and its "key":value text.
type textMember struct {
	key, text []byte
}

// telemetryText is a traced caller's telemetry properties (see
// Caller.telemetry) as members, in key order: eventSource (when the caller
// has an API), sourceIP, telemetryTraceId.
type telemetryText struct {
	caller  Caller
	members []textMember
	room    [3]textMember // members' memory
	size    int           // their texts' length with a comma each
	// lastIn and lastOut are the last systemMetadata stamp gave new text,
	// and that text.
	lastIn, lastOut []byte
}

// newTelemetryText writes k's telemetry properties; k.TraceID is not "".
func newTelemetryText(k Caller) *telemetryText {
	t := &telemetryText{caller: k}
	var keys [3]string
	var values [3]string
	n := 0
	if k.API != "" {
		keys[n], values[n] = PropEventSource, k.API
		n++
	}
	keys[n], values[n] = PropSourceIP, k.SourceIP
	keys[n+1], values[n+1] = PropTelemetryTraceID, k.TraceID
	n += 2
	b := make([]byte, 0, 64+len(k.API)+len(k.SourceIP)+len(k.TraceID))
	var ends [3][2]int // where each member's key and text end in b
	for i := range n {
		b = appendString(b, keys[i])
		ends[i][0] = len(b) - 1
		b = append(b, ':')
		b = appendString(b, values[i])
		ends[i][1] = len(b)
	}
	t.members = t.room[:n]
	start := 0
	for i := range n {
		t.members[i] = textMember{key: b[start+1 : ends[i][0]], text: b[start:ends[i][1]]}
		t.size += ends[i][1] - start + 1
		start = ends[i][1]
	}
	return t
}

// quickMembers is how many members the quick paths keep on the stack.
const quickMembers = 12

// quick is Caller.telemetry of the caller t was written for, for sm in
// compact text whose keys are plain (and those of its properties); ok is
// false for any other text, which telemetryGeneral answers.
func (t *telemetryText) quick(sm []byte) (out []byte, ok bool) {
	if len(sm) < 2 || sm[0] != '{' {
		return nil, false
	}
	var othersBuf, propsBuf [quickMembers]textMember
	others, props := othersBuf[:0], propsBuf[:0]
	end, ok := eachQuickMember(sm, func(key, text, value []byte) bool {
		if string(key) != "properties" {
			others = append(others, textMember{key: key, text: text})
			return true
		}
		props = props[:0] // the last properties member wins, as in a DataMap
		if string(value) == "null" {
			return true
		}
		if value[0] != '{' {
			return false
		}
		end, ok := eachQuickMember(value, func(key, text, _ []byte) bool {
			props = append(props, textMember{key: key, text: text})
			return true
		})
		return ok && end == len(value)
	})
	if !ok || end != len(sm) || len(props) > 4*quickMembers { // many properties: the general path's sort
		return nil, false
	}
	for _, m := range props {
		if string(m.key) == PropTelemetryTraceID {
			return sm, true
		}
	}
	props = append(props, t.members...)
	// A stable sort by key, as the general path's.
	for i := 1; i < len(props); i++ {
		for j := i; j > 0 && bytes.Compare(props[j].key, props[j-1].key) < 0; j-- {
			props[j], props[j-1] = props[j-1], props[j]
		}
	}
	out = make([]byte, 0, len(sm)+t.size+len(`,"properties":{}}`))
	out = append(out, '{')
	for _, m := range others {
		out = append(out, m.text...)
		out = append(out, ',')
	}
	out = append(out, `"properties":{`...)
	for i, m := range props {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, m.text...)
	}
	return append(out, "}}"...), true
}

// telemetryByRank are the telemetry properties in key order.
var telemetryByRank = [3]string{PropEventSource, PropSourceIP, PropTelemetryTraceID}

// telemetryKeyRank is the place of key in telemetryByRank, -1 for another
// key.
func telemetryKeyRank(key []byte) int {
	for r, k := range telemetryByRank {
		if string(key) == k {
			return r
		}
	}
	return -1
}

// updateTelemetryQuick is updateTelemetry for a props and a prev in
// compact text whose keys are plain, prev's in increasing order (as the
// store writes them); ok is false for other texts, which
// updateTelemetryGeneral answers.
func updateTelemetryQuick(prev, props []byte) (out []byte, traced, ok bool) {
	if len(props) < 2 || props[0] != '{' {
		return nil, false, false
	}
	var telemetry [3][]byte // the write's values by telemetryKeyRank, the last of a repeated key
	end, ok := eachQuickMember(props, func(key, _, value []byte) bool {
		if r := telemetryKeyRank(key); r >= 0 {
			telemetry[r] = value
		}
		return true
	})
	if !ok || end != len(props) {
		return nil, false, false
	}
	var prevBuf [quickMembers]textMember
	stored := prevBuf[:0]
	size := 0
	if len(prev) != 0 && string(prev) != "null" {
		if len(prev) < 2 || prev[0] != '{' {
			return nil, false, false
		}
		end, ok := eachQuickMember(prev, func(key, text, _ []byte) bool {
			if n := len(stored); n > 0 && bytes.Compare(stored[n-1].key, key) >= 0 {
				return false // out of order or repeated: the general path sorts it out
			}
			stored = append(stored, textMember{key: key, text: text})
			size += len(text) + 1
			return true
		})
		if !ok || end != len(prev) {
			return nil, false, false
		}
	}
	if telemetry[2] == nil {
		return nil, false, true
	}
	out = make([]byte, 0, size+len(props)+2)
	out = append(out, '{')
	first := true
	sep := func() {
		if !first {
			out = append(out, ',')
		}
		first = false
	}
	putTelemetry := func(r int) {
		if telemetry[r] == nil {
			return
		}
		sep()
		out = appendString(out, telemetryByRank[r])
		out = append(out, ':')
		out = appendCompact(out, telemetry[r])
	}
	r := 0 // the next telemetry key by rank
	for _, m := range stored {
		for ; r < 3 && string(m.key) > telemetryByRank[r]; r++ {
			putTelemetry(r)
		}
		if r < 3 && string(m.key) == telemetryByRank[r] && telemetry[r] != nil {
			putTelemetry(r) // the write's value replaces the stored one
			r++
			continue
		}
		sep()
		key := m.text[:len(m.key)+3] // "key":
		out = append(out, key...)
		out = appendCompact(out, m.text[len(key):])
	}
	for ; r < 3; r++ {
		putTelemetry(r)
	}
	return append(out, '}'), true, true
}

// appendCompact appends the valid JSON value v to b without white space
// (a string is so already).
func appendCompact(b, v []byte) []byte {
	if v[0] == '"' {
		return append(b, v...)
	}
	return append(b, jsonx.CompactShared(v)...)
}

// eachQuickMember calls fn with each member of the object that starts at
// obj[0] ('{'): its plain key, its "key":value text and its value, with no
// white space between the tokens. It returns the index just past the
// object; ok is false when obj is not such an object (its values valid
// JSON) or fn returns false.
func eachQuickMember(obj []byte, fn func(key, text, value []byte) bool) (end int, ok bool) {
	i := 1
	if i < len(obj) && obj[i] == '}' {
		return i + 1, true
	}
	for i < len(obj) {
		if obj[i] != '"' {
			return 0, false
		}
		ke := plainKeyEnd(obj, i+1)
		if ke < 0 || ke+1 >= len(obj) || obj[ke+1] != ':' {
			return 0, false
		}
		vs := ke + 2
		if vs >= len(obj) || isSpace(obj[vs]) {
			return 0, false
		}
		ve := -1
		if obj[vs] == '"' {
			ve = plainKeyEnd(obj, vs+1) + 1 // a plain string needs no parser
		}
		if ve <= 0 {
			ve = jsonx.ValueEnd(obj, vs)
		}
		if ve < 0 || ve >= len(obj) {
			return 0, false
		}
		if !fn(obj[i+1:ke], obj[i:ve], obj[vs:ve]) {
			return 0, false
		}
		switch obj[ve] {
		case ',':
			i = ve + 1
		case '}':
			return ve + 1, true
		default:
			return 0, false
		}
	}
	return 0, false
}

// plainKeyEnd returns the index of the quote that ends the string whose
// text starts at b[i] when that text is plain: printable ASCII without
// escapes, the text of the string it decodes to (and appendString writes
// it back as it is); -1 otherwise.
func plainKeyEnd(b []byte, i int) int {
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i
		case c < 0x20 || c >= 0x7f || c == '\\':
			return -1
		}
	}
	return -1
}

// isSpace reports whether c is JSON white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// stamp returns sm with the telemetry properties (Caller.telemetry). A
// systemMetadata equal to the one of the previous call that got new text
// (a batch's usual case) gets that text again, shared: nobody modifies a
// write's systemMetadata, and the text has no room to append to.
func (t *telemetryText) stamp(sm []byte) []byte {
	if t.lastOut != nil && bytes.Equal(sm, t.lastIn) {
		return t.lastOut
	}
	out, ok := t.quick(sm)
	if !ok {
		out = t.caller.telemetryGeneral(sm)
	}
	if len(out) > 0 && (len(sm) == 0 || &out[0] != &sm[0]) {
		out = out[:len(out):len(out)]
		t.lastIn, t.lastOut = sm, out
	}
	return out
}

// telemetryMemo is an update of stored properties with a write's
// telemetry (updateTelemetry): the texts it was made of, copied, and its
// result, which nobody modifies.
type telemetryMemo struct {
	prev, props, out []byte
}

// lastTelemetryUpdate is the last update updateTelemetry made on the quick
// path. The writes of a batch most often ask for the same one aspect
// after aspect: the same properties of one request onto the stored ones
// of the batch before it.
var lastTelemetryUpdate atomic.Pointer[telemetryMemo]

// newTelemetryMemo records prev and props (copied) and out.
func newTelemetryMemo(prev, props, out []byte) *telemetryMemo {
	b := make([]byte, 0, len(prev)+len(props))
	b = append(append(b, prev...), props...)
	return &telemetryMemo{prev: b[:len(prev):len(prev)], props: b[len(prev):], out: out[:len(out):len(out)]}
}
