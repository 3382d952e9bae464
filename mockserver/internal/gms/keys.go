package gms

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/urn"
)

// keyFields returns the field names and kinds of entity's key aspect in
// schema order, as GMS's EntityKeyUtils walks them. The slices are shared:
// callers only read them.
func keyFields(e pdl.Entity) (names []string, kinds []pdl.Kind, ok bool) {
	if k, found := keySchemas()[e.Name]; found && k.keyAspect == e.KeyAspect {
		return k.names[:len(k.names):len(k.names)], k.kinds, k.ok
	}
	return keyFieldsOf(e)
}

// keySchema is keyFields' answer for one entity type.
type keySchema struct {
	keyAspect string
	names     []string
	kinds     []pdl.Kind
	ok        bool
}

// keySchemas are the key fields of every entity type, built once.
var keySchemas = sync.OnceValue(func() map[string]keySchema {
	m := make(map[string]keySchema, len(pdl.Registry()))
	for _, e := range pdl.Registry() {
		names, kinds, ok := keyFieldsOf(e)
		m[e.Name] = keySchema{keyAspect: e.KeyAspect, names: names, kinds: kinds, ok: ok}
	}
	return m
})

// keyFieldsOf is keyFields read from the registry.
func keyFieldsOf(e pdl.Entity) (names []string, kinds []pdl.Kind, ok bool) {
	info, ok := pdl.LookupAspect(e.KeyAspect)
	if !ok {
		return nil, nil, false
	}
	rec, ok := pdl.Record(info.RecordName)
	if !ok {
		return nil, nil, false
	}
	for _, f := range rec.Fields {
		names = append(names, f.Name)
		kinds = append(kinds, f.Type.Kind)
	}
	return names, kinds, true
}

// urnFromKey builds the URN of entity e from the JSON of its key aspect, as
// GMS does for a proposal with entityKeyAspect and no entityUrn: the key's
// field values in schema order are the URN's parts, a tuple when there are
// several. Values are used as they are (not escaped), as GMS does.
func urnFromKey(e pdl.Entity, key json.RawMessage) (string, error) {
	fields, ok := jsonx.ObjectMembers(key)
	if !ok {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(key, &m); err != nil {
			return "", err
		}
		return "", errors.New("not a JSON object")
	}
	names, _, hasSchema := keyFields(e)
	last := make(map[string]json.RawMessage, len(fields)) // a repeated key's last value wins, as in a decoded object
	for _, f := range fields {
		if _, seen := last[f.Key]; !seen && !hasSchema { // no schema: the JSON object's own order, each key once
			names = append(names, f.Key)
		}
		last[f.Key] = f.Value
	}
	parts := make([]string, 0, len(names))
	for _, n := range names {
		var part string
		if v, found := last[n]; found {
			if err := json.Unmarshal(v, &part); err != nil {
				part = string(v) // a number or boolean key field
			}
		}
		parts = append(parts, part)
	}
	if len(parts) == 1 {
		return "urn:li:" + e.Name + ":" + parts[0], nil
	}
	return "urn:li:" + e.Name + ":(" + strings.Join(parts, ",") + ")", nil
}

// keyParts returns the parts of URN u of entity e, whose key aspect has the
// fields names, and an error when their number differs.
func keyParts(e pdl.Entity, names []string, u string) ([]string, error) {
	g, err := urn.ParseGeneric(u)
	if err != nil {
		return nil, err
	}
	return fitKeyParts(e, names, u, g.Parts())
}

// fitKeyParts returns parts, the parts of URN u of entity e, and an error
// when their number differs from that of the key's fields names.
func fitKeyParts(e pdl.Entity, names []string, u string, parts []string) ([]string, error) {
	if len(parts) != len(names) {
		return nil, fmt.Errorf(MsgKeyParts, u, len(parts), e.KeyAspect, len(names))
	}
	return parts, nil
}

// keyPartsError reports a syntactically valid URN of a registry entity type
// whose parts do not fit its key aspect's fields, as GMS's
// EntityKeyUtils.convertUrnToEntityKey does before any typed URN class sees
// it; nil otherwise. On success it also returns the URN's key parts (nil
// when the URN's entity type or key schema is unknown, or the syntax check
// is left to report).
func keyPartsError(u string) ([]string, error) {
	e, ok := lookupEntity(EntityTypeOf(u))
	if !ok {
		return nil, nil
	}
	names, _, ok := keyFields(e)
	if !ok {
		return nil, nil
	}
	g, err := urn.ParseGeneric(u)
	if err != nil {
		return nil, nil // the syntax check reports it
	}
	return fitKeyParts(e, names, u, g.Parts())
}

// keyFromURN builds the JSON of entity e's key aspect from URN u, as GMS's
// EntityKeyUtils.convertUrnToEntityKey does: the URN's parts, in order, are
// the key's fields. It returns nil when the key's schema is unknown.
func keyFromURN(e pdl.Entity, u string) (json.RawMessage, error) { return keyFromParts(e, u, nil) }

// keyFromParts is keyFromURN given u's key parts when known (nil: split u
// again).
func keyFromParts(e pdl.Entity, u string, parts []string) (json.RawMessage, error) {
	names, kinds, ok := keyFields(e)
	if !ok {
		return nil, nil
	}
	var err error
	if parts == nil {
		parts, err = keyParts(e, names, u)
	} else {
		parts, err = fitKeyParts(e, names, u, parts)
	}
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(n)
		b.Write(name)
		b.WriteByte(':')
		switch kinds[i] {
		case pdl.KindInt, pdl.KindLong, pdl.KindFloat, pdl.KindDouble, pdl.KindBoolean:
			if json.Valid([]byte(parts[i])) {
				b.WriteString(parts[i])
				continue
			}
		}
		if err := enc.Encode(parts[i]); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
