package gms

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
)

// mutate applies to a validated aspect value what GMS does to it before it
// is stored, and reports whether it changed it:
//
//   - DataHub stores an aspect as its Pegasus record serialises, which
//     writes a float or double field as Java writes the number (30 becomes
//     30.0, 12345678901 becomes 1.2345678901E10): see javaDoubles;
//   - the ownership aspect gets ownerTypes as the OwnershipOwnerTypes
//     mutation hook materialises it (see ownerTypes).
//
// Only aspects that can hold a float or double, and ownership, are read;
// every other value is returned as it is without being looked at.
func mutate(info pdl.AspectInfo, value json.RawMessage) (json.RawMessage, bool) {
	changed := false
	if hasFloats(info.RecordName) {
		if v, ok := javaDoubles(info.RecordName, value); ok {
			value, changed = v, true
		}
	}
	if info.Name == "ownership" {
		if v, ok := ownerTypes(value); ok {
			value, changed = v, true
		}
	}
	return value, changed
}

// floatRecords caches, per record name, whether a float or double field is
// reachable from the record.
var floatRecords sync.Map // string -> bool

func hasFloats(record string) bool {
	if v, ok := floatRecords.Load(record); ok {
		return v.(bool)
	}
	r, ok := pdl.Record(record)
	if !ok {
		floatRecords.Store(record, false)
		return false
	}
	has := recordHasFloats(r, map[string]bool{})
	floatRecords.Store(record, has)
	return has
}

func recordHasFloats(r *pdl.RecordSchema, seen map[string]bool) bool {
	if seen[r.Name] {
		return false
	}
	seen[r.Name] = true
	for _, f := range r.Fields {
		if typeHasFloats(f.Type, seen) {
			return true
		}
	}
	return false
}

func typeHasFloats(t pdl.Type, seen map[string]bool) bool {
	switch t.Kind {
	case pdl.KindFloat, pdl.KindDouble:
		return true
	case pdl.KindRecord:
		r, ok := pdl.Record(t.Name)
		return ok && recordHasFloats(r, seen)
	case pdl.KindArray, pdl.KindMap:
		return t.Items != nil && typeHasFloats(*t.Items, seen)
	case pdl.KindUnion:
		for _, m := range t.Members {
			if typeHasFloats(m.Type, seen) {
				return true
			}
		}
	}
	return false
}

// javaDoubles rewrites the float and double fields of value, a valid
// aspect of record, that are written as integers (30) as Java's
// Double.toString (or Float.toString) writes them (30.0), leaving every
// other byte as it is. ok is false when nothing needed rewriting.
func javaDoubles(record string, value json.RawMessage) (json.RawMessage, bool) {
	w := floatWalker{d: json.NewDecoder(bytes.NewReader(value))}
	w.d.UseNumber()
	r, ok := pdl.Record(record)
	if !ok || !w.record(r) || len(w.edits) == 0 {
		return value, false
	}
	out := make([]byte, 0, len(value)+8*len(w.edits))
	last := 0
	for _, e := range w.edits {
		out = append(out, value[last:e.start]...)
		out = append(out, e.text...)
		last = e.end
	}
	return append(out, value[last:]...), true
}

type numberEdit struct {
	start, end int
	text       string
}

// floatWalker reads a value token by token along its schema, noting where
// a float or double written as an integer is.
type floatWalker struct {
	d     *json.Decoder
	edits []numberEdit
}

func (w *floatWalker) record(r *pdl.RecordSchema) bool {
	t, err := w.d.Token()
	if err != nil {
		return false
	}
	if t != json.Delim('{') {
		return true // not an object: validation said otherwise; leave it
	}
	for w.d.More() {
		kt, err := w.d.Token()
		if err != nil {
			return false
		}
		k, _ := kt.(string)
		i := slices.IndexFunc(r.Fields, func(f pdl.Field) bool { return f.Name == k })
		if i < 0 {
			if !w.skip() {
				return false
			}
			continue
		}
		if !w.value(r.Fields[i].Type) {
			return false
		}
	}
	_, err = w.d.Token() // '}'
	return err == nil
}

func (w *floatWalker) value(t pdl.Type) bool {
	switch t.Kind {
	case pdl.KindFloat, pdl.KindDouble:
		tok, err := w.d.Token()
		if err != nil {
			return false
		}
		n, ok := tok.(json.Number)
		if !ok || strings.ContainsAny(string(n), ".eE") {
			return true
		}
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil || math.IsInf(f, 0) {
			return true
		}
		end := int(w.d.InputOffset())
		w.edits = append(w.edits, numberEdit{start: end - len(n), end: end, text: javaNumber(f, t.Kind == pdl.KindFloat)})
		return true
	case pdl.KindRecord:
		r, ok := pdl.Record(t.Name)
		if !ok {
			return w.skip()
		}
		return w.record(r)
	case pdl.KindArray:
		tok, err := w.d.Token()
		if err != nil {
			return false
		}
		if tok != json.Delim('[') || t.Items == nil {
			return tok != json.Delim('[') || w.rest(']')
		}
		for w.d.More() {
			if !w.value(*t.Items) {
				return false
			}
		}
		_, err = w.d.Token()
		return err == nil
	case pdl.KindMap:
		tok, err := w.d.Token()
		if err != nil {
			return false
		}
		if tok != json.Delim('{') || t.Items == nil {
			return tok != json.Delim('{') || w.rest('}')
		}
		for w.d.More() {
			if _, err := w.d.Token(); err != nil {
				return false
			}
			if !w.value(*t.Items) {
				return false
			}
		}
		_, err = w.d.Token()
		return err == nil
	case pdl.KindUnion:
		tok, err := w.d.Token()
		if err != nil {
			return false
		}
		if tok != json.Delim('{') {
			return true // null
		}
		for w.d.More() {
			kt, err := w.d.Token()
			if err != nil {
				return false
			}
			k, _ := kt.(string)
			i := slices.IndexFunc(t.Members, func(m pdl.UnionMember) bool { return m.Key() == k })
			if i < 0 {
				if !w.skip() {
					return false
				}
				continue
			}
			if !w.value(t.Members[i].Type) {
				return false
			}
		}
		_, err = w.d.Token()
		return err == nil
	}
	return w.skip()
}

// skip reads one value whatever it is.
func (w *floatWalker) skip() bool {
	var v json.RawMessage
	return w.d.Decode(&v) == nil
}

// rest reads the members or items of an open container through its close.
func (w *floatWalker) rest(closing json.Delim) bool {
	depth := 1
	for depth > 0 {
		t, err := w.d.Token()
		if err == io.EOF || err != nil {
			return false
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return true
}

// javaNumber writes an integral f as Java's Double.toString (or
// Float.toString for a float) does: "30.0" for magnitudes from 10^-3 up to
// 10^7, else computerized scientific notation such as "1.0E7".
func javaNumber(f float64, float32Field bool) string {
	if a := math.Abs(f); a == 0 || (a >= 1e-3 && a < 1e7) {
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	bits := 64
	if float32Field {
		bits = 32
	}
	s := strconv.FormatFloat(f, 'E', -1, bits) // 1.2345678901E+10, 1E+07
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

// ownerTypes sets an ownership value's ownerTypes as the OwnershipOwnerTypes
// mutation hook materialises it: the owners grouped by their typeUrn, or
// urn:li:ownershipType:__system__<type in lower case> for an owner with a
// type only, or urn:li:ownershipType:__system__none, with dots in the keys
// written %2E. A value without owners is left as it is, as is one whose
// ownerTypes already hold that. ok is false when the value is unchanged.
func ownerTypes(value json.RawMessage) (json.RawMessage, bool) {
	// The answer depends on the value alone, and the same ownership value
	// comes back write after write (the same owners on many entities):
	// answers are kept by value, at most maxOwnerTypes of them.
	ownerTypesSeen.mu.Lock()
	r, ok := ownerTypesSeen.m[string(value)]
	ownerTypesSeen.mu.Unlock()
	if ok {
		if !r.changed {
			return value, false
		}
		return slices.Clone(r.value), true
	}
	out, changed := ownerTypesOf(value)
	ownerTypesSeen.mu.Lock()
	if len(ownerTypesSeen.m) >= maxOwnerTypes || ownerTypesSeen.m == nil {
		ownerTypesSeen.m = map[string]ownerTypesAnswer{}
	}
	a := ownerTypesAnswer{changed: changed}
	if changed {
		a.value = slices.Clone(out)
	}
	ownerTypesSeen.m[string(value)] = a
	ownerTypesSeen.mu.Unlock()
	return out, changed
}

// maxOwnerTypes bounds the ownership values whose answers ownerTypes keeps
// (it forgets them all when full).
const maxOwnerTypes = 1024

// ownerTypesAnswer is ownerTypesOf's answer for a value.
type ownerTypesAnswer struct {
	value   json.RawMessage
	changed bool
}

// ownerTypesSeen holds the answers ownerTypes keeps.
var ownerTypesSeen struct {
	mu sync.Mutex
	m  map[string]ownerTypesAnswer
}

// ownerTypesOf is ownerTypes without the kept answers.
func ownerTypesOf(value json.RawMessage) (json.RawMessage, bool) {
	var v struct {
		Owners []struct {
			Owner   string  `json:"owner"`
			Type    *string `json:"type"`
			TypeURN *string `json:"typeUrn"`
		} `json:"owners"`
		OwnerTypes map[string][]string `json:"ownerTypes"`
	}
	if json.Unmarshal(value, &v) != nil || len(v.Owners) == 0 {
		return value, false
	}
	want := map[string][]string{}
	for _, o := range v.Owners {
		t := "urn:li:ownershipType:__system__none"
		switch {
		case o.TypeURN != nil:
			t = *o.TypeURN
		case o.Type != nil:
			t = "urn:li:ownershipType:__system__" + strings.ToLower(*o.Type)
		}
		t = strings.ReplaceAll(t, ".", "%2E")
		if !slices.Contains(want[t], o.Owner) {
			want[t] = append(want[t], o.Owner)
		}
	}
	if sameOwnerTypes(v.OwnerTypes, want) {
		return value, false
	}
	b, err := json.Marshal(want) // keys sorted; URNs need no HTML escaping
	if err != nil {
		return value, false
	}
	if out, ok := setMember(value, "ownerTypes", b); ok {
		return out, true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(value, &obj) != nil {
		return value, false
	}
	obj["ownerTypes"] = b
	return marshalObject(obj), true
}

// setMember sets member k of the compact JSON object obj to v in place
// (its value replaced where it is, or the member added last), leaving every
// other byte as it is. ok is false when obj is not compact text.
func setMember(obj json.RawMessage, k string, v []byte) (json.RawMessage, bool) {
	if len(obj) < 2 || obj[0] != '{' || obj[len(obj)-1] != '}' {
		return nil, false
	}
	key, _ := json.Marshal(k)
	for i := 1; i < len(obj)-1; {
		ke := jsonx.CompactValueEnd(obj, i)
		if ke < 0 || ke >= len(obj) || obj[ke] != ':' {
			return nil, false
		}
		ve := jsonx.CompactValueEnd(obj, ke+1)
		if ve < 0 {
			return nil, false
		}
		if bytes.Equal(obj[i:ke], key) {
			out := make([]byte, 0, len(obj)+len(v))
			out = append(append(append(out, obj[:ke+1]...), v...), obj[ve:]...)
			return out, true
		}
		if obj[ve] == '}' {
			break
		}
		if obj[ve] != ',' {
			return nil, false
		}
		i = ve + 1
	}
	out := make([]byte, 0, len(obj)+len(key)+len(v)+2)
	out = append(out, obj[:len(obj)-1]...)
	if len(obj) > 2 {
		out = append(out, ',')
	}
	out = append(append(append(out, key...), ':'), v...)
	return append(out, '}'), true
}

// sameOwnerTypes compares two ownerTypes maps, each list as a set.
func sameOwnerTypes(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, l := range a {
		m, ok := b[k]
		if !ok || len(l) != len(m) {
			return false
		}
		for _, u := range l {
			if !slices.Contains(m, u) {
				return false
			}
		}
	}
	return true
}

// marshalObject writes obj compactly with its keys sorted and without
// escaping HTML characters.
func marshalObject(obj map[string]json.RawMessage) json.RawMessage {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(k)
		b.Truncate(b.Len() - 1) // Encode's newline
		b.WriteByte(':')
		b.Write(obj[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}
