package store

import (
	"encoding/binary"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/catalogkit/datahub-go/internal/jsonx"
)

// The helpers below give the results of the encoding/json calls they stand
// for (named on each) without reflection for the inputs the store sees; any
// other input goes to encoding/json itself.

// unmarshalRawMap is json.Unmarshal(b, &m) into an existing empty map m.
func unmarshalRawMap(b []byte, m map[string]json.RawMessage) error {
	if ms, ok := jsonx.ObjectMembers(b); ok {
		for _, mb := range ms {
			m[mb.Key] = mb.Value
		}
		return nil
	}
	return json.Unmarshal(b, &m)
}

// plainKey reports a key json.Marshal writes as it is between quotes.
func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case c < 0x20 || c >= utf8.RuneSelf, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// plainValue reports JSON text (valid, as every value the store builds maps
// from is) that json.Marshal of a json.RawMessage copies as it is: nothing to
// compact and nothing its HTML escaping changes (<, >, &, U+2028, U+2029).
func plainValue(v []byte) bool {
	if len(v) == 0 {
		return false
	}
	for _, c := range v {
		if notPlain[c] {
			return false
		}
	}
	return true
}

// notPlain marks the bytes plainValue refuses (0xE2 starts U+2028 and
// U+2029).
var notPlain = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '<': true, '>': true, '&': true, 0xE2: true}

// unmarshalInt64 is json.Unmarshal(b, &n) for an int64.
func unmarshalInt64(b []byte, n *int64) error {
	if v, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		*n = v
		return nil
	}
	return json.Unmarshal(b, n)
}

// versionField is json.Unmarshal of sm into struct{ Version *string
// `json:"version"` }: ok is false when that fails, found is false when the
// field is absent or null.
func versionField(sm []byte) (version string, found, ok bool) {
	fast, typeErr := true, false
	valid := jsonx.EachMember(sm, func(key []byte, plain bool, v []byte) bool {
		if string(key) != "version" {
			if !plain || !isASCII(string(key)) || strings.EqualFold(string(key), "version") {
				fast = false // encoding/json's unescaping and case folding decide
				return false
			}
			return true
		}
		switch {
		case string(v) == "null":
			version, found = "", false
		case v[0] == '"':
			s, ok := jsonx.Unquote(v)
			if !ok {
				fast = false
				return false
			}
			version, found = s, true
		default:
			typeErr = true
		}
		return true
	})
	if valid && fast {
		return version, found, !typeErr
	}
	var m struct {
		Version *string `json:"version"`
	}
	if json.Unmarshal(sm, &m) != nil {
		return "", false, false
	}
	if m.Version == nil {
		return "", false, true
	}
	return *m.Version, true, true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// rawObject is a JSON object as its members' texts, each key once: setting
// a key again replaces its value, as in a decoded map. It stands for the
// map[string]json.RawMessage of encoding/json in the systemMetadata
// bookkeeping, where objects have a dozen members at most.
type rawObject []jsonx.Member

func (o *rawObject) set(k string, v json.RawMessage) { (*jsonx.Object)(o).Set(k, v) }

// maxRawObject is the size past which unmarshalRawObject uses a map.
const maxRawObject = 64

// unmarshalRawObject is json.Unmarshal(b, &m) into a map m holding o's
// members: it adds b's members to o.
func unmarshalRawObject(b []byte, o *rawObject) error {
	if len(*o) == 0 {
		if ms, ok := jsonx.AppendMembers(*o, b); ok && len(ms) <= maxRawObject {
			*o = rawObject(jsonx.Object(ms).Dedupe())
			return nil
		}
	} else if ms, ok := jsonx.ObjectMembers(b); ok && len(ms)+len(*o) <= maxRawObject {
		for _, m := range ms {
			o.set(m.Key, m.Value)
		}
		return nil
	}
	m := o.toMap()
	if err := unmarshalRawMap(b, m); err != nil {
		return err
	}
	*o = (*o)[:0]
	for k, v := range m {
		*o = append(*o, jsonx.Member{Key: k, Value: v})
	}
	return nil
}

func (o rawObject) toMap() map[string]json.RawMessage {
	m := make(map[string]json.RawMessage, len(o))
	for _, mb := range o {
		m[mb.Key] = mb.Value
	}
	return m
}

// marshal is json.Marshal of o as a map: keys sorted, values compacted with
// HTML escaping (left to json.Marshal unless there is nothing to change). It
// sorts o.
func (o rawObject) marshal() ([]byte, error) { return o.appendMarshal(nil, false) }

// appendMarshal appends marshal's output to dst, after its length as a
// uvarint when prefixed is set (as lpBytes does). It sorts o.
func (o rawObject) appendMarshal(dst []byte, prefixed bool) ([]byte, error) {
	return o.appendMarshalFrom(dst, prefixed, nil)
}

// appendMarshalFrom is appendMarshal of members some of whose keys and
// values storedSplit took from marshalled, a text marshal wrote: marshal
// writes those as they are (it wrote them), so only the other keys' and
// values' bytes are looked at.
func (o rawObject) appendMarshalFrom(dst []byte, prefixed bool, marshalled []byte) ([]byte, error) {
	dst, _, err := o.appendMarshalOwn(dst, prefixed, marshalled)
	return dst, err
}

// appendMarshalOwn is appendMarshalFrom, also reporting whether it wrote
// the members itself, in o's order (o sorted) and each as it is, rather
// than through encoding/json.
func (o rawObject) appendMarshalOwn(dst []byte, prefixed bool, marshalled []byte) ([]byte, bool, error) {
	n := 2 + max(len(o)-1, 0) // braces and commas
	for _, m := range o {
		keyTaken := within(marshalled, unsafe.StringData(m.Key), len(m.Key))
		valueTaken := within(marshalled, unsafe.SliceData(m.Value), len(m.Value))
		if !keyTaken && !plainKey(m.Key) || !valueTaken && !plainValue(m.Value) {
			b, err := json.Marshal(o.toMap())
			if err != nil {
				return nil, false, err
			}
			if prefixed {
				return lpBytes(dst, b), false, nil
			}
			return append(dst, b...), false, nil
		}
		n += len(m.Key) + len(m.Value) + 3
	}
	if !slices.IsSortedFunc(o, compareKeys) {
		slices.SortFunc(o, compareKeys)
	}
	if prefixed {
		dst = binary.AppendUvarint(dst, uint64(n))
	}
	if dst == nil {
		dst = make([]byte, 0, n)
	}
	dst = append(dst, '{')
	for i, m := range o {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, m.Key...)
		dst = append(dst, '"', ':')
		dst = append(dst, m.Value...)
	}
	return append(dst, '}'), true, nil
}

func compareKeys(a, b jsonx.Member) int { return strings.Compare(a.Key, b.Key) }

// nextKey reads the member key at sm[i] of a systemMetadata as marshal
// writes it: a string of plain printable ASCII (others are decoded by
// unmarshalRawObject) ordered after prev (marshal sorts its keys, once
// each), then a colon. It returns the key, sharing sm, and where its value
// starts; ok is false for anything else.
func nextKey(sm []byte, i int, prev []byte) (key []byte, start int, ok bool) {
	if i >= len(sm) || sm[i] != '"' {
		return nil, 0, false
	}
	end := i + 1
	for end < len(sm) && sm[end] != '"' {
		if c := sm[end]; c < 0x20 || c >= utf8.RuneSelf || c == '\\' {
			return nil, 0, false
		}
		end++
	}
	if end+1 >= len(sm) || sm[end+1] != ':' {
		return nil, 0, false
	}
	key = sm[i+1 : end]
	if prev != nil && string(prev) >= string(key) {
		return nil, 0, false
	}
	return key, end + 2, true
}

// storedMembers is unmarshalRawObject into an empty object for a stored
// systemMetadata, which marshal wrote: compact, its keys plain ASCII in
// ascending order. It appends the members to dst and reports false
// (returning dst as it came) for text not in that form, which
// unmarshalRawObject then decodes, so that both give the same members.
// Member keys are shared constants or copies; values share sm.
func storedMembers(dst rawObject, sm []byte) (rawObject, bool) {
	n := len(dst)
	if len(sm) < 2 || sm[0] != '{' {
		return dst, false
	}
	if len(sm) == 2 && sm[1] == '}' {
		return dst, true
	}
	var prev []byte
	for i := 1; ; {
		key, start, ok := nextKey(sm, i, prev)
		if !ok {
			return dst[:n], false
		}
		prev = key
		i = jsonx.ValueEnd(sm, start)
		if i < 0 || i >= len(sm) {
			return dst[:n], false
		}
		dst = append(dst, jsonx.Member{Key: memberKey(key), Value: sm[start:i:i]})
		switch {
		case sm[i] == ',':
			i++
		case sm[i] == '}' && i == len(sm)-1:
			return dst, true
		default:
			return dst[:n], false
		}
	}
}

// memberKey is string(k), without a copy for a key seen before (stored
// systemMetadata objects use a handful of keys).
func memberKey(k []byte) string {
	if s, ok := (*keyNames.Load())[string(k)]; ok {
		return s
	}
	s := string(k)
	keyNamesMu.Lock()
	defer keyNamesMu.Unlock()
	if old := *keyNames.Load(); len(old) < maxKeyNames {
		m := make(map[string]string, len(old)+1)
		for n := range old {
			m[n] = n
		}
		m[s] = s
		keyNames.Store(&m)
	}
	return s
}

// keyNames are the keys memberKey has seen, at most maxKeyNames of them;
// a new one replaces the map under keyNamesMu, readers only load it.
var (
	keyNames   atomic.Pointer[map[string]string]
	keyNamesMu sync.Mutex
)

const maxKeyNames = 64

func init() { keyNames.Store(&map[string]string{}) }

// within reports whether the n bytes at p lie in b (n > 0).
func within(b []byte, p *byte, n int) bool {
	if n == 0 || len(b) == 0 {
		return false
	}
	start, at := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(p))
	return start <= at && at+uintptr(n) <= start+uintptr(len(b))
}

// storedSplit is storedMembers for the systemMetadata of a row of the
// current format, which marshal wrote: valid JSON, compact, its keys plain
// ASCII in ascending order. It trusts the values to be valid JSON and
// follows only the object's outline (its keys, colons and commas, the
// strings and the nesting of its values); for valid JSON it gives what
// storedMembers gives, and it refuses (returning dst as it came) a text
// whose outline is not marshal's. With share set the keys share sm, like
// the values, so sm must not change while they are in use; otherwise they
// are memberKey's.
func storedSplit(dst rawObject, sm []byte, share bool) (rawObject, bool) {
	n := len(dst)
	if len(sm) < 2 || sm[0] != '{' || sm[len(sm)-1] != '}' {
		return dst, false
	}
	if len(sm) == 2 {
		return dst, true
	}
	var prev []byte
	for i := 1; ; {
		key, start, ok := nextKey(sm, i, prev)
		if !ok || start >= len(sm) {
			return dst[:n], false
		}
		prev = key
		if i = jsonx.CompactValueEnd(sm, start); i <= start || i >= len(sm) {
			return dst[:n], false
		}
		dst = append(dst, jsonx.Member{Key: splitKey(key, share), Value: sm[start:i:i]})
		switch {
		case i == len(sm)-1: // the closing brace, checked above
			return dst, true
		case sm[i] == ',' && i+1 < len(sm):
			i++
		default:
			return dst[:n], false
		}
	}
}

// splitKey is a member's key as a split returns it: sharing key's memory
// when share is set, else as memberKey keeps it.
func splitKey(key []byte, share bool) string {
	switch {
	case len(key) == 0:
		return ""
	case share:
		return unsafe.String(&key[0], len(key))
	default:
		return memberKey(key)
	}
}
