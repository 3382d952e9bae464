package testshared

import (
	"fmt"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// SampleURN returns a URN of the registry's entity type et built from its
// key aspect's fields (URNs where the key holds one, PROD for a
// FabricType, "partN" otherwise); "" for a type the registry does not
// know.
func SampleURN(et string) string {
	u, _ := LookupSampleURN(et)
	return u
}

// LookupSampleURN is SampleURN, false for a type the registry does not
// know or whose key aspect has no schema.
func LookupSampleURN(et string) (string, bool) {
	e, ok := pdl.LookupEntity(et)
	if !ok {
		return "", false
	}
	info, ok := pdl.LookupAspect(e.KeyAspect)
	if !ok {
		return "", false
	}
	rec, ok := pdl.Record(info.RecordName)
	if !ok {
		return "", false
	}
	var parts []string
	for i, f := range rec.Fields {
		parts = append(parts, KeyPart(f, i))
	}
	if len(parts) == 1 {
		return "urn:li:" + e.Name + ":" + parts[0], true
	}
	return "urn:li:" + e.Name + ":(" + strings.Join(parts, ",") + ")", true
}

// KeyPart is the URN part SampleURN uses for key field f at position i:
// URNs where the key holds one, a FabricType symbol, "partN" otherwise.
func KeyPart(f pdl.Field, i int) string {
	switch {
	case f.Type.Kind == pdl.KindEnum:
		if slices.Contains(f.Type.Symbols, "PROD") {
			return "PROD"
		}
		return f.Type.Symbols[0]
	case f.Name == "platform":
		return "urn:li:dataPlatform:plat"
	case f.Name == "flow":
		return "urn:li:dataFlow:(airflow,flow,PROD)"
	case f.Name == "parent":
		return "urn:li:dataset:(urn:li:dataPlatform:plat,db.table,PROD)"
	}
	return fmt.Sprintf("part%d", i)
}

// AspectValue returns a value of aspect a of entity type et that DataHub
// accepts, as decoded JSON: its record's required fields (empty arrays
// and maps, an enum's first symbol, a union's first member), with URNs
// its relationships accept, and a timestamp for a timeseries aspect.
func AspectValue(et, a string) map[string]any {
	info, ok := pdl.LookupAspect(a)
	if !ok {
		return nil
	}
	v := RecordValue(info.RecordName, 0)
	FixDestinations(et, a, v, LookupSampleURN)
	if info.Timeseries {
		v["timestampMillis"] = 1700000000000
	}
	return v
}

// SchemaValue builds a valid value of type t: records with their required
// fields, empty arrays and maps, a union's first member, an enum's first
// symbol; depth bounds the records it descends into.
func SchemaValue(t pdl.Type, depth int) any {
	switch t.Kind {
	case pdl.KindRecord:
		return RecordValue(t.Name, depth+1)
	case pdl.KindString:
		if ut, ok := pdl.LookupURNTyperef(t.URN); ok && ut.EntityType != "" {
			if u, ok := LookupSampleURN(ut.EntityType); ok {
				return u
			}
		}
		return "urn:li:corpuser:someone"
	case pdl.KindInt, pdl.KindLong:
		return 1
	case pdl.KindFloat, pdl.KindDouble:
		return 1.5
	case pdl.KindBoolean:
		return true
	case pdl.KindBytes:
		return "bytes"
	case pdl.KindFixed:
		return strings.Repeat("x", t.Size)
	case pdl.KindEnum:
		return t.Symbols[0]
	case pdl.KindArray:
		return []any{}
	case pdl.KindMap:
		return map[string]any{}
	case pdl.KindUnion:
		for _, m := range t.Members {
			if m.Type.Kind != pdl.KindNull {
				return map[string]any{m.Key(): SchemaValue(m.Type, depth+1)}
			}
		}
	}
	return nil
}

// RecordValue builds a valid value of the record name: its required fields
// only (an empty object past depth 12).
func RecordValue(name string, depth int) map[string]any {
	rec, ok := pdl.Record(name)
	if !ok || depth > 12 {
		return map[string]any{}
	}
	out := map[string]any{}
	for _, f := range rec.Fields {
		if !f.Optional && f.Default == nil {
			out[f.Name] = SchemaValue(f.Type, depth)
		}
	}
	return out
}
