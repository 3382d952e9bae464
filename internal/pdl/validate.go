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

	"github.com/catalogkit/datahub-go/internal/errs"
)

// ValidationError reports the first place where a JSON value does not match a record schema.
// errors.Is(err, datahub.ErrValidation) is true for it.
type ValidationError struct {
	// Path is the JSON path of the offending value, e.g. "fields[2].type" or
	// `customProperties["k"]`; "" for the top-level object.
	Path string
	// Reason says what is wrong, e.g. `missing required field "type"`.
	Reason string
	// Pegasus says what is wrong in the words of Rest.li's data validation, as GMS reports it
	// (e.g. `"X" is not an enum symbol`, `1 cannot be coerced to String`); "" for a missing or
	// unrecognized field (Rest.li reports those at the field's own path) and where the validator
	// is stricter than Rest.li (an int given 1.5, which Rest.li truncates).
	Pegasus string
	// URN reports a value the URN check of [ValidateIn] refuses (a URN-typed value that is no
	// URN of an entity of the registry, not one its typeref's class accepts, or not a
	// destination its entity's relationships allow), which GMS reports once the record is
	// otherwise valid, as an invalid aspect format rather than an invalid record.
	URN bool
	// Value is the refused value when URN is set, which Reason quotes.
	Value string
}

// Error returns `field "<path>": <reason>`, or the reason alone at the top level.
func (e *ValidationError) Error() string {
	if e.Path == "" {
		return e.Reason
	}
	return fmt.Sprintf("field %q: %s", e.Path, e.Reason)
}

// Is reports whether target is datahub.ErrValidation.
func (e *ValidationError) Is(target error) bool { return target == errs.ErrValidation }

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
// It makes no URN checks: [ValidateIn] adds those DataHub makes of an entity's aspects.
// The first problem found is returned as a *ValidationError naming its JSON path.
func Validate(recordName string, v any) error {
	rec := compiled().records[recordName]
	if rec == nil {
		return fmt.Errorf("%w %q", ErrUnknownRecord, recordName)
	}
	if e := checkRecord(rec, v); e != nil {
		return e.toError()
	}
	return nil
}

// ValidateJSON decodes data (one JSON value) and validates it like Validate.
func ValidateJSON(recordName string, data []byte) error {
	if Conforms(recordName, data) {
		return nil
	}
	if v, ok := DecodeJSON(data); ok {
		return Validate(recordName, v)
	}
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
	name     string
	fields   []cField
	index    map[string]int
	required int // number of required fields
	// names is index as a nameTable.
	names *nameTable
	// keyHashClash reports two fields whose names have one keyHash, which
	// Hash takes for a repeated key.
	keyHashClash bool
	// mark is the ID of the mark a walk notes for the record (0: none;
	// see Held.Marking).
	mark uint8
}

type cField struct {
	name     string
	required bool  // neither optional nor defaulted
	mark     uint8 // the ID of the mark a walk notes for the value (0: none; see Held.Marking)
	typ      *cType
	keyHash  uint64 // the name's hash as Hash hashes an object key
	lit      keyLit // the name as a key's literal
}

type cType struct {
	kind    Kind
	name    string
	rec     *cRecord
	items   *cType
	members map[string]*cType // union member key -> type
	// memberTab and memberTypes are members as a nameTable and the
	// types of its names, in order.
	memberTab   *nameTable
	memberTypes []*cType
	keys        string // union member keys, for messages
	symbols     map[string]struct{}
	symTab      *nameTable // symbols as a table
	size        int
	urn         *urnCheck  // the URN check of a URN typeref's string, nil if none
	dest        *destCheck // the relationship check of a URN-typed string of an aspect held by an entity, nil if none
}

type compiledSchemas struct {
	records map[string]*cRecord
}

var compiledTable struct {
	once sync.Once
	c    *compiledSchemas
}

// compiled returns the compiled schema graph, building it on first use (a function, not a
// package-level sync.OnceValue, so that programs that never validate do not link the tables).
func compiled() *compiledSchemas {
	compiledTable.once.Do(func() { compiledTable.c = compile() })
	return compiledTable.c
}

func compile() *compiledSchemas { return compileSchemas(true) }

// compileSchemas compiles the record table; with share, equal types are one
// cType (see compile's conv), without (the tests' general path) each use
// site has its own.
func compileSchemas(share bool) *compiledSchemas {
	c := &compiledSchemas{records: make(map[string]*cRecord, len(records()))}
	urnChecks := map[string]*urnCheck{}
	enums := map[string]map[string]struct{}{}
	symTabs := map[string]*nameTable{}
	for name := range records() {
		c.records[name] = &cRecord{name: name}
	}
	// One cType for equal types (a string, an Urn typeref's string, an
	// array of one record... appear at many fields): the graph is read
	// only once built (withDest copies what it changes), and fewer,
	// shared objects are less for the collector to mark on every cycle.
	types := map[string]*cType{}
	var key []byte
	var conv func(t Type) *cType
	conv = func(t Type) *cType {
		if share {
			key = appendTypeKey(key[:0], t)
			if ct := types[string(key)]; ct != nil {
				return ct
			}
		}
		ct := &cType{kind: t.Kind, name: t.Name, size: t.Size}
		if share {
			types[string(key)] = ct
		}
		if t.URN != "" {
			if ct.urn = urnChecks[t.URN]; ct.urn == nil {
				ct.urn = newURNCheck(t.URN)
				urnChecks[t.URN] = ct.urn
			}
		}
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
			if ct.symTab = symTabs[t.Name]; ct.symTab == nil {
				ct.symTab = newSymbolTable(set)
				symTabs[t.Name] = ct.symTab
			}
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
			ct.fillMembers()
		}
		return ct
	}
	for name, r := range records() {
		cr := c.records[name]
		cr.fields = make([]cField, len(r.Fields))
		cr.index = make(map[string]int, len(r.Fields))
		for i, f := range r.Fields {
			cr.fields[i] = cField{name: f.Name, required: !f.Optional && f.Default == nil, typ: conv(f.Type),
				keyHash: hashBytes(tagString, []byte(f.Name)), lit: newKeyLit(f.Name)}
			cr.index[f.Name] = i
			for _, g := range cr.fields[:i] {
				cr.keyHashClash = cr.keyHashClash || g.keyHash == cr.fields[i].keyHash
			}
			if cr.fields[i].required {
				cr.required++
			}
		}
		cr.fillSlots()
	}
	return c
}

// appendTypeKey appends to b a key of t that equal types share and
// types compile converts differently do not: its kind, name, size and URN
// typeref, its items' key and its members' keys and types' keys (an enum's
// symbols are its name's). Names hold no zero byte, which ends each.
func appendTypeKey(b []byte, t Type) []byte {
	b = append(b, byte(t.Kind))
	b = append(append(b, t.Name...), 0)
	b = append(strconv.AppendInt(b, int64(t.Size), 10), 0)
	b = append(append(b, t.URN...), 0)
	if t.Items != nil {
		b = append(b, '[')
		b = appendTypeKey(b, *t.Items)
		b = append(b, ']')
	}
	if len(t.Members) > 0 {
		b = append(b, '{')
		for _, m := range t.Members {
			b = append(append(b, m.Key()...), 0)
			b = appendTypeKey(b, m.Type)
		}
		b = append(b, '}')
	}
	return b
}

// pathElem is one step of a JSON path: a field name, an array index (field == "" and not
// isKey), or a map key or dotted union member key (isKey).
type pathElem struct {
	field string
	key   string
	index int
	isKey bool
}

// verr is a validation failure on its way up: each frame appends its own path step, so the
// steps are in reverse order and nothing is spent on paths while values are valid.
type verr struct {
	rev     []pathElem
	reason  string
	pegasus string
	urn     bool   // a URN check's failure
	value   string // the value it refused
}

func failf(format string, args ...any) *verr {
	return &verr{reason: fmt.Sprintf(format, args...)}
}

func (e *verr) at(p pathElem) *verr {
	e.rev = append(e.rev, p)
	return e
}

func (e *verr) toError() *ValidationError {
	var b strings.Builder
	for i := len(e.rev) - 1; i >= 0; i-- {
		switch p := e.rev[i]; {
		case p.isKey:
			b.WriteByte('[')
			b.WriteString(strconv.Quote(p.key))
			b.WriteByte(']')
		case p.field == "":
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(p.index))
			b.WriteByte(']')
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(p.field)
		}
	}
	return &ValidationError{Path: b.String(), Reason: e.reason, Pegasus: e.pegasus, URN: e.urn, Value: e.value}
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

func checkRecord(r *cRecord, v any) *verr {
	obj, ok := v.(map[string]any)
	if !ok {
		return failf("expected an object (record %s), got %s", r.name, jsonKind(v)).says("record type is not backed by a DataMap")
	}
	// Rest.li checks the members present first (their values, then unknown names) and the
	// required fields after, so a misspelt field is reported as unrecognized, not as missing.
	matched, missing := 0, -1
	for i := range r.fields {
		f := &r.fields[i]
		fv, ok := obj[f.name]
		if !ok {
			if f.required && missing < 0 {
				missing = i
			}
			continue
		}
		matched++
		if fv == nil {
			return failf("null is not allowed; omit the field instead").says(mismatch(f.typ, nil)).at(pathElem{field: f.name})
		}
		if e := checkValue(f.typ, fv); e != nil {
			return e.at(pathElem{field: f.name})
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
		return failf("unrecognized field %q", unknown[0])
	}
	if missing >= 0 {
		return failf("missing required field %q", r.fields[missing].name)
	}
	return nil
}

func checkValue(t *cType, v any) *verr {
	switch t.kind {
	case KindRecord:
		if t.rec == nil {
			return failf("record %s has no schema", t.name)
		}
		return checkRecord(t.rec, v)
	case KindString:
		if _, ok := v.(string); !ok {
			return failf("expected string, got %s", jsonKind(v)).says(mismatch(t, v))
		}
	case KindBoolean:
		if _, ok := v.(bool); !ok {
			return failf("expected boolean, got %s", jsonKind(v)).says(mismatch(t, v))
		}
	case KindInt:
		if !isNumber(v) {
			return failf("expected int, got %s", jsonKind(v)).says(mismatch(t, v))
		}
		return checkInteger(v, math.MinInt32, math.MaxInt32, "int")
	case KindLong:
		if !isNumber(v) {
			return failf("expected long, got %s", jsonKind(v)).says(mismatch(t, v))
		}
		return checkInteger(v, math.MinInt64, math.MaxInt64, "long")
	case KindFloat, KindDouble:
		switch n := v.(type) {
		case json.Number:
			if _, err := strconv.ParseFloat(string(n), 64); err != nil {
				return failf("expected %s, got %s", t.kind, n)
			}
		case float64, float32, int, int64, int32:
		default:
			return failf("expected %s, got %s", t.kind, jsonKind(v)).says(mismatch(t, v))
		}
	case KindBytes, KindFixed:
		s, ok := v.(string)
		if !ok {
			return failf("expected %s (a string), got %s", t.kind, jsonKind(v)).says(mismatch(t, v))
		}
		n := 0
		for _, r := range s {
			if r > 0xFF {
				return failf("%s string holds %U; only code points up to U+00FF are allowed", t.kind, r).
					says(`"` + s + `" is not a valid string representation of bytes`)
			}
			n++
		}
		if t.kind == KindFixed && n != t.size {
			return failf("fixed %s needs %d bytes, got %d", t.name, t.size, n).
				says(fmt.Sprintf(`"%s" length (%d) is inconsistent with expected fixed size of %d`, s, n, t.size))
		}
	case KindEnum:
		s, ok := v.(string)
		if !ok {
			return failf("expected enum %s (a string), got %s", t.name, jsonKind(v)).says(mismatch(t, v))
		}
		if _, ok := t.symbols[s]; !ok {
			return failf("%q is not a symbol of enum %s", s, t.name).says(`"` + s + `" is not an enum symbol`)
		}
	case KindArray:
		arr, ok := v.([]any)
		if !ok {
			return failf("expected array, got %s", jsonKind(v)).says(mismatch(t, v))
		}
		for i, item := range arr {
			if item == nil {
				return failf("null array items are not allowed").says(mismatch(t.items, nil)).at(pathElem{index: i})
			}
			if e := checkValue(t.items, item); e != nil {
				return e.at(pathElem{index: i})
			}
		}
	case KindMap:
		m, ok := v.(map[string]any)
		if !ok {
			return failf("expected map (an object), got %s", jsonKind(v)).says(mismatch(t, v))
		}
		if len(m) == 0 {
			return nil
		}
		bad := false
		for _, mv := range m {
			if mv == nil || checkValue(t.items, mv) != nil {
				bad = true
				break
			}
		}
		if !bad {
			return nil
		}
		// Report the first bad entry in key order so that the error is deterministic.
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if m[k] == nil {
				return failf("null map values are not allowed").says(mismatch(t.items, nil)).at(pathElem{key: k, isKey: true})
			}
			if e := checkValue(t.items, m[k]); e != nil {
				return e.at(pathElem{key: k, isKey: true})
			}
		}
	case KindUnion:
		return checkUnion(t, v)
	case KindNull:
		if v != nil {
			return failf("expected null, got %s", jsonKind(v))
		}
	default:
		return failf("type of kind %s cannot be validated", t.kind)
	}
	return nil
}

func checkUnion(t *cType, v any) *verr {
	if v == nil {
		if _, ok := t.members["null"]; ok {
			return nil
		}
		return failf("null is not a member of this union; want an object with one of %s", t.keys).says(mismatch(t, nil))
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return failf("expected a union (an object with one of %s), got %s", t.keys, jsonKind(v)).says(mismatch(t, v))
	}
	if len(obj) != 1 {
		return failf("a union needs exactly one member key (one of %s), got %d keys", t.keys, len(obj)).
			says("DataMap should have exactly one entry for a union type")
	}
	for k, mv := range obj {
		mt, ok := t.members[k]
		if !ok || mt.kind == KindNull {
			return failf("%q is not a member of the union; want one of %s", k, t.keys).says(notMember(t, k))
		}
		step := pathElem{field: k}
		if strings.Contains(k, ".") {
			step = pathElem{key: k, isKey: true}
		}
		if mv == nil {
			return failf("null is not allowed as a union member value").says(mismatch(mt, nil)).at(step)
		}
		if e := checkValue(mt, mv); e != nil {
			return e.at(step)
		}
	}
	return nil
}

func checkInteger(v any, lo, hi int64, kind string) *verr {
	switch n := v.(type) {
	case json.Number:
		s := string(n)
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			if i < lo || i > hi {
				return failf("%s out of range: %s", kind, s)
			}
			return nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return failf("expected %s, got %q", kind, s)
		}
		return checkIntegralFloat(f, lo, hi, kind, s)
	case float64:
		return checkIntegralFloat(n, lo, hi, kind, strconv.FormatFloat(n, 'g', -1, 64))
	case int:
		if int64(n) < lo || int64(n) > hi {
			return failf("%s out of range: %d", kind, n)
		}
		return nil
	case int64:
		if n < lo || n > hi {
			return failf("%s out of range: %d", kind, n)
		}
		return nil
	case int32:
		return nil
	}
	return failf("expected %s, got %s", kind, jsonKind(v))
}

// isNumber reports whether v is a decoded JSON number.
func isNumber(v any) bool {
	switch v.(type) {
	case json.Number, float64, float32, int, int64, int32:
		return true
	}
	return false
}

// jsonNumber is the json.Number of a number's text.
func jsonNumber(text []byte) json.Number { return json.Number(text) }

func checkIntegralFloat(f float64, lo, hi int64, kind, text string) *verr {
	if f != math.Trunc(f) || math.IsInf(f, 0) || math.IsNaN(f) {
		return failf("expected %s (an integral number), got %s", kind, text)
	}
	if f < float64(lo) || f >= -float64(lo) || f > float64(hi) {
		return failf("%s out of range: %s", kind, text)
	}
	return nil
}
