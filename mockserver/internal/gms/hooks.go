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
	v, _, changed := mutateHashed(info, hasFloats(info.RecordName), value, 0, nil, nil)
	return v, changed
}

// mutateHashed is mutate given whether info's record can hold a float
// (hasFloats) and value's jsonx.Hash h (0: unknown), that also returns the
// jsonx.Hash of a changed value when it knows it without scanning the
// value again (0: unknown). A changed value may take its memory from
// values (nil: allocated). marks are those of the schema check that gave
// value and h (nil: none), for the ownerTypes hook (ownerTypesMarked).
func mutateHashed(info pdl.AspectInfo, floats bool, value json.RawMessage, h uint64, values *valueArena, marks []pdl.Mark) (json.RawMessage, uint64, bool) {
	changed := false
	if floats {
		if v, ok := javaDoubles(info.RecordName, value); ok {
			value, changed, h, marks = v, true, 0, nil
		}
	}
	if info.Name == "ownership" {
		if changed {
			h = 0
		}
		if v, vh, ok := ownerTypesHashedMarks(value, h, values, marks); ok {
			return v, vh, true
		}
	}
	if changed {
		return value, 0, true
	}
	return value, 0, false
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
