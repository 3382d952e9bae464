package graphql

import (
	"bytes"
	"encoding/json"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// The generic reads answer an aspect as DataHub's mappers see it: a field
// the stored JSON leaves out but whose PDL declares a default reads as that
// default (a Java record template's getter returns it), at every depth
// (records in arrays, maps and unions too). FormInfo.type, for one, is
// COMPLETION when a form was written without it.

// afterDecoder is a cached decoded type that finishes its value once
// decoded, before the value is shared through the decode cache.
type afterDecoder interface{ afterDecode(aspect string) }

// afterDecode fills the PDL defaults of aspect into the value.
func (a *anyJSON) afterDecode(aspect string) {
	info, ok := pdl.LookupAspect(aspect)
	if !ok {
		return
	}
	a.v = withDefaults(a.v, pdl.Type{Kind: pdl.KindRecord, Name: info.RecordName}, 0)
}

// withDefaults fills the PDL defaults of type t into v (a freshly decoded
// value, changed in place) and returns it.
func withDefaults(v any, t pdl.Type, depth int) any {
	if depth > 32 { // recursive schemas stop at the data's depth anyway
		return v
	}
	switch t.Kind {
	case pdl.KindRecord:
		m, ok := v.(map[string]any)
		rec, found := pdl.Record(t.Name)
		if !ok || !found {
			return v
		}
		for _, f := range rec.Fields {
			cur, has := m[f.Name]
			if !has && f.Default != nil {
				dec := json.NewDecoder(bytes.NewReader(f.Default))
				dec.UseNumber()
				if dec.Decode(&cur) != nil {
					continue
				}
				has = true
			}
			if has {
				m[f.Name] = withDefaults(cur, f.Type, depth+1)
			}
		}
	case pdl.KindArray:
		if l, ok := v.([]any); ok && t.Items != nil {
			for i := range l {
				l[i] = withDefaults(l[i], *t.Items, depth+1)
			}
		}
	case pdl.KindMap:
		if m, ok := v.(map[string]any); ok && t.Items != nil {
			for k := range m {
				m[k] = withDefaults(m[k], *t.Items, depth+1)
			}
		}
	case pdl.KindUnion:
		if m, ok := v.(map[string]any); ok && len(m) == 1 {
			for _, mem := range t.Members {
				if cur, ok := m[mem.Key()]; ok {
					m[mem.Key()] = withDefaults(cur, mem.Type, depth+1)
				}
			}
		}
	}
	return v
}
