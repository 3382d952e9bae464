package graphql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
)

// The generic reads: a field of an entity that no Go method serves is read
// from the aspect the entity map names (see entityFields), and the aspect's
// JSON is answered by field name (gval), a URN where the schema wants an
// entity becoming that entity, a map where it wants a list of entries
// becoming {key, value} entries.

// baser is an entity-backed value: the typed resolvers (embedding *entity)
// and urnOnlyR.
type baser interface{ base() *entity }

func (e *entity) base() *entity   { return e }
func (r *urnOnlyR) base() *entity { return r.e }

// gval is a nested object of an aspect's JSON, read by field name; e is the
// entity it belongs to (for associatedUrn and the loads of its URNs).
type gval struct {
	m map[string]any
	e *entity
}

// genericField reads field fd of the object type def from an entity.
func genericField(c *Ctx, def *ast.Definition, fd *ast.FieldDefinition, e *entity) (any, error) {
	switch fd.Name {
	case "urn":
		return e.urn, nil
	case "type":
		return entityTypes[e.name], nil
	case "exists":
		if e.r == nil {
			return nil, nil
		}
		ok, err := e.r.exists(c, e.urn)
		if err != nil {
			return nil, err
		}
		return ok, nil
	}
	spec, ok := entityFields()[def.Name][fd.Name]
	if !ok && def.Name == "VersionedDataset" { // a dataset at given versions
		spec, ok = entityFields()["Dataset"][fd.Name]
	}
	if !ok || e.r == nil {
		return notServed(def, fd)
	}
	v, err := e.aspectAny(spec.aspect)
	if err != nil || v == nil {
		return nil, err
	}
	if spec.path != "" {
		m, _ := v.(map[string]any)
		v = m[spec.path]
	}
	if spec.domain {
		m, _ := v.(map[string]any)
		ds, _ := m["domains"].([]any)
		if len(ds) == 0 {
			return nil, nil
		}
		v = map[string]any{"domain": ds[0]}
	}
	return c.x.adapt(c, v, fd.Type, e)
}

// notServed is a field the mock has no value for: null, or an error when
// the field is non-null.
func notServed(def *ast.Definition, fd *ast.FieldDefinition) (any, error) {
	if fd.Type.NonNull {
		return nil, serverError(fmt.Sprintf(msgNotServed, def.Name, fd.Name))
	}
	return nil, nil
}

// field reads field fd of a nested object.
func (g *gval) field(c *Ctx, def *ast.Definition, fd *ast.FieldDefinition) (any, error) {
	var v any
	ok := false
	if alt := renames[def.Name+"."+fd.Name]; alt != "" {
		v, ok = lookupPath(g.m, alt)
	}
	if !ok {
		v, ok = g.m[fd.Name]
	}
	if !ok && fd.Name == "associatedUrn" && g.e != nil {
		return g.e.urn, nil
	}
	if !ok {
		return notServed(def, fd)
	}
	return c.x.adapt(c, v, fd.Type, g.e)
}

// adapt turns a value of an aspect's JSON into a value of the schema type
// t.
func (x *executor) adapt(c *Ctx, v any, t *ast.Type, e *entity) (any, error) {
	if v == nil {
		return nil, nil
	}
	if t.Elem != nil {
		switch v := v.(type) {
		case []any:
			out := make([]any, 0, len(v))
			for _, it := range v {
				a, err := x.adapt(c, it, t.Elem, e)
				if err != nil {
					return nil, err
				}
				out = append(out, a)
			}
			return out, nil
		case map[string]any: // a PDL map where DataHub answers entries
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			out := make([]any, 0, len(v))
			for _, k := range keys {
				a, err := x.adapt(c, map[string]any{"key": k, "value": v[k]}, t.Elem, e)
				if err != nil {
					return nil, err
				}
				out = append(out, a)
			}
			return out, nil
		}
		a, err := x.adapt(c, v, t.Elem, e)
		if err != nil {
			return nil, err
		}
		return []any{a}, nil
	}
	def := x.schema.Types[t.NamedType]
	switch def.Kind {
	case ast.Scalar, ast.Enum:
		switch v.(type) {
		case map[string]any, []any:
			if t.NamedType == "String" { // a record DataHub answers as its JSON text
				b, err := json.Marshal(v)
				if err != nil {
					return nil, serverError(err.Error())
				}
				return string(b), nil
			}
		}
		if s, ok := v.(string); ok && def.Kind == ast.Scalar && (t.NamedType == "Long" || t.NamedType == "Int" || t.NamedType == "Float") {
			return json.Number(s), nil // a number held as text
		}
		return v, nil
	}
	switch v := v.(type) {
	case string:
		if isEntityType(x.schema, def) && e != nil && e.r != nil {
			ent, err := e.r.load(e.ctx, v, "")
			if err != nil {
				return nil, err
			}
			return newEntityR(ent), nil
		}
		return nil, nil
	case map[string]any:
		if def.Kind != ast.Object {
			if name, _ := v["__typename"].(string); name != "" {
				return v, nil
			}
			if def.Name == "PropertyValue" { // a PrimitivePropertyValue: {string} or {double}
				if pv := propertyValue(v); pv != nil {
					return pv, nil
				}
			}
			return nil, nil // a union member the mock cannot name
		}
		return &gval{m: v, e: e}, nil
	}
	return nil, nil
}

// isEntityType is whether def is an entity type, the Entity interface or
// a union of entity types.
var entityKinds sync.Map // type name → bool

func isEntityType(s *ast.Schema, def *ast.Definition) bool {
	if v, ok := entityKinds.Load(def.Name); ok {
		return v.(bool)
	}
	is := false
	switch def.Kind {
	case ast.Object:
		is = slices.Contains(def.Interfaces, "Entity")
	case ast.Interface:
		is = def.Name == "Entity" || def.Name == "EntityWithRelationships" || def.Name == "BrowsableEntity"
	case ast.Union:
		is = len(def.Types) > 0
		for _, m := range def.Types {
			if d := s.Types[m]; d == nil || !slices.Contains(d.Interfaces, "Entity") {
				is = false
			}
		}
	}
	entityKinds.Store(def.Name, is)
	return is
}

// aspectAny is the latest value of aspect name as generic JSON (numbers as
// json.Number), through the decode cache; nil when absent.
func (e *entity) aspectAny(name string) (any, error) {
	raw, ok := e.raw(name)
	if !ok {
		return nil, nil
	}
	v, err := decode[anyJSON](&e.r.cache, name, raw, e.urn)
	if err != nil {
		return nil, err
	}
	return v.v, nil
}

// anyJSON is a JSON value decoded with json.Number.
type anyJSON struct{ v any }

func (a *anyJSON) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(&a.v)
}

var jsonNumberType = reflect.TypeFor[json.Number]()

// lookupPath reads a dotted path of fields of m.
func lookupPath(m map[string]any, path string) (any, bool) {
	var v any = m
	for part := range strings.SplitSeq(path, ".") {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = mm[part]; !ok {
			return nil, false
		}
	}
	return v, true
}
