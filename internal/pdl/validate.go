package pdl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	datahub "github.com/catalogkit/datahub-go"
)

// ValidationError reports the first place where a JSON value does not match a record schema.
// errors.Is(err, datahub.ErrValidation) is true for it.
type ValidationError struct {
	// Path is the JSON path of the offending value, e.g. "fields[2].type" or
	// `customProperties["k"]`; "" for the top-level object.
	Path string
	// Reason says what is wrong, e.g. `missing required field "type"`.
	Reason string
}

// Error returns `field "<path>": <reason>`, or the reason alone at the top level.
func (e *ValidationError) Error() string {
	if e.Path == "" {
		return e.Reason
	}
	return fmt.Sprintf("field %q: %s", e.Path, e.Reason)
}

// Is reports whether target is datahub.ErrValidation.
func (e *ValidationError) Is(target error) bool { return target == datahub.ErrValidation }

// ErrUnknownRecord is returned (wrapped) by Validate for a record name that is not in the tables.
var ErrUnknownRecord = errors.New("pdl: unknown record")

// Validate checks v, a JSON value decoded by encoding/json (json.Number or float64 numbers both
// work), against the record recordName, following the Rest.li JSON rules GMS applies to aspects:
//   - every key of an object must be a field of the record ("unrecognized field");
//   - a field that is neither optional nor has a default must be present;
//   - an explicit null is refused for every field (DataHub's Python SDK omits unset fields);
//   - ints and longs must be integral and in range; floats and doubles any number;
//   - enums must hold one of their symbols; bytes and fixed are strings of code points ≤ U+00FF;
//   - a union is an object with exactly one key: the member's alias, its fully qualified name,
//     or its primitive type name ("string"), e.g. {"com.linkedin.schema.StringType": {}};
//   - maps are objects with string keys.
//
// The first problem found is returned as a *ValidationError naming its JSON path.
func Validate(recordName string, v any) error {
	rec := compiled().records[recordName]
	if rec == nil {
		return fmt.Errorf("%w %q", ErrUnknownRecord, recordName)
	}
	var vs validator
	return vs.record(rec, v)
}

// ValidateJSON decodes data (one JSON value) and validates it like Validate.
func ValidateJSON(recordName string, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return &ValidationError{Reason: "invalid JSON: " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return &ValidationError{Reason: "invalid JSON: data after the top-level value"}
	}
	return Validate(recordName, v)
}

// Compiled schema graph: records and types linked by pointer, field indexes precomputed.

type cRecord struct {
	name   string
	fields []cField
	index  map[string]int
}

type cField struct {
	name     string
	required bool // neither optional nor defaulted
	typ      *cType
}

type cType struct {
	kind    Kind
	name    string
	rec     *cRecord
	items   *cType
	members map[string]*cType // union member key -> type
	keys    string            // union member keys, for messages
	symbols map[string]struct{}
	size    int
}

type compiledSchemas struct {
	records map[string]*cRecord
}

var compiled = sync.OnceValue(func() *compiledSchemas {
	c := &compiledSchemas{records: make(map[string]*cRecord, len(records))}
	enums := map[string]map[string]struct{}{}
	for name := range records {
		c.records[name] = &cRecord{name: name}
	}
	var conv func(t Type) *cType
	conv = func(t Type) *cType {
		ct := &cType{kind: t.Kind, name: t.Name, size: t.Size}
		switch t.Kind {
		case KindRecord:
			ct.rec = c.records[t.Name]
		case KindArray, KindMap:
			if t.Items != nil {
				ct.items = conv(*t.Items)
			}
		case KindEnum:
			set, ok := enums[t.Name]
			if !ok {
				set = make(map[string]struct{}, len(t.Symbols))
				for _, s := range t.Symbols {
					set[s] = struct{}{}
				}
				enums[t.Name] = set
			}
			ct.symbols = set
		case KindUnion:
			ct.members = make(map[string]*cType, len(t.Members))
			keys := make([]string, 0, len(t.Members))
			for _, m := range t.Members {
				k := m.Key()
				ct.members[k] = conv(m.Type)
				if m.Type.Kind != KindNull {
					keys = append(keys, strconv.Quote(k))
				}
			}
			ct.keys = strings.Join(keys, ", ")
		}
		return ct
	}
	for name, r := range records {
		cr := c.records[name]
		cr.fields = make([]cField, len(r.Fields))
		cr.index = make(map[string]int, len(r.Fields))
		for i, f := range r.Fields {
			cr.fields[i] = cField{name: f.Name, required: !f.Optional && f.Default == nil, typ: conv(f.Type)}
			cr.index[f.Name] = i
		}
	}
	return c
})

// pathElem is one step of a JSON path: a field name, an array index (field == "", index >= 0),
// or a map key (key set).
type pathElem struct {
	field string
	key   string
	index int
	isKey bool
}

type validator struct {
	path []pathElem
}

func (vs *validator) push(e pathElem) { vs.path = append(vs.path, e) }
func (vs *validator) pop()            { vs.path = vs.path[:len(vs.path)-1] }

func (vs *validator) pathString() string {
	var b strings.Builder
	for _, e := range vs.path {
		switch {
		case e.isKey:
			b.WriteByte('[')
			b.WriteString(strconv.Quote(e.key))
			b.WriteByte(']')
		case e.field == "":
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.index))
			b.WriteByte(']')
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.field)
		}
	}
	return b.String()
}

func (vs *validator) fail(format string, args ...any) error {
	return &ValidationError{Path: vs.pathString(), Reason: fmt.Sprintf(format, args...)}
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number, float64, float32, int, int64, int32:
		return "number"
	}
	return fmt.Sprintf("unsupported Go type %T", v)
}

func (vs *validator) record(r *cRecord, v any) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return vs.fail("expected an object (record %s), got %s", r.name, jsonKind(v))
	}
	matched := 0
	for i := range r.fields {
		if _, ok := obj[r.fields[i].name]; ok {
			matched++
		}
	}
	if matched < len(obj) {
		var unknown []string
		for k := range obj {
			if _, ok := r.index[k]; !ok {
				unknown = append(unknown, k)
			}
		}
		slices.Sort(unknown)
		return vs.fail("unrecognized field %q (record %s)", unknown[0], r.name)
	}
	for i := range r.fields {
		f := &r.fields[i]
		fv, ok := obj[f.name]
		if !ok {
			if f.required {
				return vs.fail("missing required field %q (record %s)", f.name, r.name)
			}
			continue
		}
		vs.push(pathElem{field: f.name})
		if fv == nil {
			err := vs.fail("null is not allowed; omit the field instead")
			vs.pop()
			return err
		}
		if err := vs.value(f.typ, fv); err != nil {
			return err
		}
		vs.pop()
	}
	return nil
}

func (vs *validator) value(t *cType, v any) error {
	switch t.kind {
	case KindRecord:
		if t.rec == nil {
			return vs.fail("record %s has no schema", t.name)
		}
		return vs.record(t.rec, v)
	case KindString:
		if _, ok := v.(string); !ok {
			return vs.fail("expected string, got %s", jsonKind(v))
		}
	case KindBoolean:
		if _, ok := v.(bool); !ok {
			return vs.fail("expected boolean, got %s", jsonKind(v))
		}
	case KindInt:
		return vs.integer(v, math.MinInt32, math.MaxInt32, "int")
	case KindLong:
		return vs.integer(v, math.MinInt64, math.MaxInt64, "long")
	case KindFloat, KindDouble:
		switch n := v.(type) {
		case json.Number:
			if _, err := strconv.ParseFloat(string(n), 64); err != nil {
				return vs.fail("expected %s, got %s", t.kind, n)
			}
		case float64, float32, int, int64, int32:
		default:
			return vs.fail("expected %s, got %s", t.kind, jsonKind(v))
		}
	case KindBytes, KindFixed:
		s, ok := v.(string)
		if !ok {
			return vs.fail("expected %s (a string), got %s", t.kind, jsonKind(v))
		}
		n := 0
		for _, r := range s {
			if r > 0xFF {
				return vs.fail("%s string holds %U; only code points up to U+00FF are allowed", t.kind, r)
			}
			n++
		}
		if t.kind == KindFixed && n != t.size {
			return vs.fail("fixed %s needs %d bytes, got %d", t.name, t.size, n)
		}
	case KindEnum:
		s, ok := v.(string)
		if !ok {
			return vs.fail("expected enum %s (a string), got %s", t.name, jsonKind(v))
		}
		if _, ok := t.symbols[s]; !ok {
			return vs.fail("%q is not a symbol of enum %s", s, t.name)
		}
	case KindArray:
		arr, ok := v.([]any)
		if !ok {
			return vs.fail("expected array, got %s", jsonKind(v))
		}
		for i, item := range arr {
			vs.push(pathElem{index: i})
			if item == nil {
				err := vs.fail("null array items are not allowed")
				vs.pop()
				return err
			}
			if err := vs.value(t.items, item); err != nil {
				return err
			}
			vs.pop()
		}
	case KindMap:
		m, ok := v.(map[string]any)
		if !ok {
			return vs.fail("expected map (an object), got %s", jsonKind(v))
		}
		if len(m) == 0 {
			return nil
		}
		// Visit keys in order so that the error reported is deterministic.
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			vs.push(pathElem{key: k, isKey: true})
			if m[k] == nil {
				err := vs.fail("null map values are not allowed")
				vs.pop()
				return err
			}
			if err := vs.value(t.items, m[k]); err != nil {
				return err
			}
			vs.pop()
		}
	case KindUnion:
		return vs.union(t, v)
	case KindNull:
		if v != nil {
			return vs.fail("expected null, got %s", jsonKind(v))
		}
	default:
		return vs.fail("type of kind %s cannot be validated", t.kind)
	}
	return nil
}

func (vs *validator) union(t *cType, v any) error {
	if v == nil {
		if _, ok := t.members["null"]; ok {
			return nil
		}
		return vs.fail("null is not a member of this union; want an object with one of %s", t.keys)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return vs.fail("expected a union (an object with one of %s), got %s", t.keys, jsonKind(v))
	}
	if len(obj) != 1 {
		return vs.fail("a union needs exactly one member key (one of %s), got %d keys", t.keys, len(obj))
	}
	for k, mv := range obj {
		mt, ok := t.members[k]
		if !ok || mt.kind == KindNull {
			return vs.fail("%q is not a member of the union; want one of %s", k, t.keys)
		}
		if strings.Contains(k, ".") {
			vs.push(pathElem{key: k, isKey: true})
		} else {
			vs.push(pathElem{field: k})
		}
		if mv == nil {
			err := vs.fail("null is not allowed as a union member value")
			vs.pop()
			return err
		}
		if err := vs.value(mt, mv); err != nil {
			return err
		}
		vs.pop()
	}
	return nil
}

func (vs *validator) integer(v any, lo, hi int64, kind string) error {
	switch n := v.(type) {
	case json.Number:
		s := string(n)
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			if i < lo || i > hi {
				return vs.fail("%s out of range: %s", kind, s)
			}
			return nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return vs.fail("expected %s, got %q", kind, s)
		}
		return vs.integralFloat(f, lo, hi, kind, s)
	case float64:
		return vs.integralFloat(n, lo, hi, kind, strconv.FormatFloat(n, 'g', -1, 64))
	case int:
		return vs.integerRange(int64(n), lo, hi, kind)
	case int64:
		return vs.integerRange(n, lo, hi, kind)
	case int32:
		return nil
	}
	return vs.fail("expected %s, got %s", kind, jsonKind(v))
}

func (vs *validator) integerRange(i, lo, hi int64, kind string) error {
	if i < lo || i > hi {
		return vs.fail("%s out of range: %d", kind, i)
	}
	return nil
}

func (vs *validator) integralFloat(f float64, lo, hi int64, kind, text string) error {
	if f != math.Trunc(f) || math.IsInf(f, 0) || math.IsNaN(f) {
		return vs.fail("expected %s (an integral number), got %s", kind, text)
	}
	if f < float64(lo) || f >= -float64(lo) || f > float64(hi) {
		return vs.fail("%s out of range: %s", kind, text)
	}
	return nil
}
