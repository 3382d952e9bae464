package patch

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// document is a parsed GenericAspect value of a PATCH proposal.
type document struct {
	ops []operation
	// arrayPrimaryKeys and forceGeneric come from the envelope form
	// {"patch":[...],"arrayPrimaryKeys":{...},"forceGenericPatch":bool}.
	arrayPrimaryKeys []primaryKeys
	forceGeneric     bool
}

// generic reports whether DataHub applies the generic patcher rather than
// the aspect's template: arrayPrimaryKeys not empty, or forceGenericPatch
// (PatchItemImpl.applyPatch).
func (d *document) generic() bool { return len(d.arrayPrimaryKeys) > 0 || d.forceGeneric }

// primaryKeys is one arrayPrimaryKeys entry: the top-level array field and
// the fields of its elements that key them (nested fields joined by
// U+241F).
type primaryKeys struct {
	field string
	keys  []string
}

// operation is one RFC 6902 operation.
type operation struct {
	op       string // lower case
	path     string
	tokens   []string
	from     string
	fromToks []string
	value    any
}

// ops DataHub accepts (PatchOperationType, and JSON-P's JsonPatch).
var knownOps = map[string]bool{"add": true, "remove": true, "replace": true, "move": true, "copy": true, "test": true}

// parseDocument parses a patch document. The errors carry their operation
// index when there is one.
func parseDocument(data []byte) (*document, error) {
	root, err := decode(data)
	if err != nil {
		return nil, &Error{Kind: ErrBadPatch, Index: -1, Detail: err.Error()}
	}
	d := &document{}
	var list *array
	switch t := root.(type) {
	case *array:
		list = t
	case *object:
		p, ok := t.get("patch")
		if !ok {
			return nil, &Error{Kind: ErrBadPatch, Index: -1, Detail: `an object without a "patch" member`}
		}
		if list, ok = p.(*array); !ok {
			return nil, &Error{Kind: ErrBadPatch, Index: -1, Detail: `"patch" is not an array`}
		}
		if err := d.parseEnvelope(t); err != nil {
			return nil, err
		}
		if err := checkEnvelopeMembers(t, list); err != nil {
			return nil, err
		}
	default:
		return nil, &Error{Kind: ErrBadPatch, Index: -1, Detail: "neither an array of operations nor an object with a \"patch\" array"}
	}
	for i, e := range list.elems {
		op, err := parseOperation(e)
		if err != nil {
			oe := err.(*opError)
			return nil, &Error{Kind: oe.kind, Index: i, Op: op.op, Path: op.path, Detail: oe.detail}
		}
		d.ops = append(d.ops, op)
	}
	return d, nil
}

// The members of the envelope form and of its operations, as GMS reads
// them: PatchItemImpl binds the envelope to GenericJsonPatch with a default
// Jackson ObjectMapper, which fails on any other member.
var (
	envelopeMembers   = []string{"arrayPrimaryKeys", "patch", "forceGenericPatch"}
	envelopeOpMembers = []string{"op", "path", "value"}
)

// checkEnvelopeMembers refuses an envelope, or one of its operations, with
// a member GMS's binding does not know (a misspelt "arrayPrimaryKeys" is
// not ignored), with Jackson's text.
func checkEnvelopeMembers(o *object, ops *array) error {
	unknown := func(class, k string, known []string) error {
		return &Error{Kind: ErrBadPatch, Index: -1, Detail: fmt.Sprintf(
			"Unrecognized field %q (class %s), not marked as ignorable (%d known properties: \"%s\")",
			k, class, len(known), strings.Join(known, `", "`))}
	}
	for _, k := range o.keys {
		if !slices.Contains(envelopeMembers, k) {
			return unknown("com.linkedin.metadata.aspect.patch.GenericJsonPatch", k, envelopeMembers)
		}
	}
	for _, e := range ops.elems {
		if op, ok := e.(*object); ok {
			for _, k := range op.keys {
				if !slices.Contains(envelopeOpMembers, k) {
					return unknown("com.linkedin.metadata.aspect.patch.GenericJsonPatch$PatchOp", k, envelopeOpMembers)
				}
			}
		}
	}
	return nil
}

// parseEnvelope reads arrayPrimaryKeys and forceGenericPatch.
func (d *document) parseEnvelope(o *object) error {
	bad := func(detail string) error { return &Error{Kind: ErrBadPatch, Index: -1, Detail: detail} }
	if v, ok := o.get("forceGenericPatch"); ok && v != nil {
		b, ok := v.(bool)
		if !ok {
			return bad(`"forceGenericPatch" is not a boolean`)
		}
		d.forceGeneric = b
	}
	v, ok := o.get("arrayPrimaryKeys")
	if !ok || v == nil {
		return nil
	}
	m, ok := v.(*object)
	if !ok {
		return bad(`"arrayPrimaryKeys" is not an object`)
	}
	for _, field := range m.keys {
		list, ok := m.vals[field].(*array)
		if !ok {
			return bad(`"arrayPrimaryKeys" member ` + field + " is not an array of field names")
		}
		pk := primaryKeys{field: field, keys: []string{}}
		for _, k := range list.elems {
			s, ok := k.(string)
			if !ok {
				return bad(`"arrayPrimaryKeys" member ` + field + " holds a key that is not a string")
			}
			pk.keys = append(pk.keys, s)
		}
		d.arrayPrimaryKeys = append(d.arrayPrimaryKeys, pk)
	}
	return nil
}

func parseOperation(v any) (operation, error) {
	var op operation
	o, ok := v.(*object)
	if !ok {
		return op, failf(ErrBadPatch, "an operation is not an object")
	}
	opv, _ := o.get("op")
	name, ok := opv.(string)
	if !ok {
		return op, failf(ErrBadPatch, `no "op" string`)
	}
	op.op = strings.ToLower(name)
	pv, _ := o.get("path")
	path, ok := pv.(string)
	if !ok {
		return op, failf(ErrBadPatch, `no "path" string`)
	}
	op.path = path
	if !knownOps[op.op] {
		return op, failf(ErrBadOp, "op "+jsonQuote(name)+" is none of add, remove, replace, move, copy, test")
	}
	toks, err := parsePointer(path)
	if err != nil {
		return op, err
	}
	op.tokens = toks
	switch op.op {
	case "add", "replace", "test":
		val, ok := o.get("value")
		if !ok {
			return op, failf(ErrBadPatch, `no "value" for `+op.op)
		}
		op.value = val
	case "move", "copy":
		fv, _ := o.get("from")
		from, ok := fv.(string)
		if !ok {
			return op, failf(ErrBadPatch, `no "from" string for `+op.op)
		}
		op.from = from
		if op.fromToks, err = parsePointer(from); err != nil {
			return op, err
		}
	}
	return op, nil
}

// parsePointer splits an RFC 6901 JSON pointer into unescaped tokens.
func parsePointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, failf(ErrBadPath, jsonQuote(p)+" does not start with /")
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		if !strings.Contains(s, "~") {
			continue
		}
		var b strings.Builder
		for j := 0; j < len(s); j++ {
			if s[j] != '~' {
				b.WriteByte(s[j])
				continue
			}
			if j+1 < len(s) && (s[j+1] == '0' || s[j+1] == '1') {
				b.WriteByte("~/"[s[j+1]-'0'])
				j++
				continue
			}
			return nil, failf(ErrBadPath, jsonQuote(p)+" has a ~ not followed by 0 or 1")
		}
		parts[i] = b.String()
	}
	return parts, nil
}

// Escape returns s escaped as one JSON pointer token: ~ as ~0, / as ~1.
func Escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
