package pdlparse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// ParseSchemaJSON reads Pegasus JSON schemas (a single schema object, an array of them, or a
// Rest.li snapshot file with a "models" array) and returns every named type they declare,
// including those declared inline. name is used in error messages.
func ParseSchemaJSON(name string, data []byte) ([]*Decl, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var top any
	if err := dec.Decode(&top); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	j := &jsonLoader{file: name}
	var models []any
	switch t := top.(type) {
	case map[string]any:
		if m, ok := t["models"].([]any); ok {
			models = m
		} else {
			models = []any{t}
		}
	case []any:
		models = t
	default:
		return nil, fmt.Errorf("%s: not a schema object or array", name)
	}
	for i, m := range models {
		if _, ok := m.(string); ok {
			continue // a reference to a model listed elsewhere
		}
		if _, err := j.typeExpr(m, ""); err != nil {
			return nil, fmt.Errorf("%s: model %d: %w", name, i, err)
		}
	}
	return j.decls, nil
}

type jsonLoader struct {
	file  string
	decls []*Decl
	seen  map[string]bool
}

func qualify(name, ns string) string {
	if strings.Contains(name, ".") || ns == "" || IsPrimitive(name) {
		return name
	}
	return ns + "." + name
}

func (j *jsonLoader) typeExpr(v any, ns string) (TypeExpr, error) {
	switch t := v.(type) {
	case string:
		if IsPrimitive(t) {
			return TypeExpr{Kind: ExprPrimitive, Name: t}, nil
		}
		return TypeExpr{Kind: ExprRef, Name: qualify(t, ns)}, nil
	case []any:
		u := TypeExpr{Kind: ExprUnion}
		for _, m := range t {
			var mem Member
			if mo, ok := m.(map[string]any); ok {
				if alias, ok := mo["alias"].(string); ok {
					mem.Alias = alias
					te, err := j.typeExpr(mo["type"], ns)
					if err != nil {
						return TypeExpr{}, err
					}
					mem.Type = te
					u.Members = append(u.Members, mem)
					continue
				}
			}
			te, err := j.typeExpr(m, ns)
			if err != nil {
				return TypeExpr{}, err
			}
			mem.Type = te
			u.Members = append(u.Members, mem)
		}
		return u, nil
	case map[string]any:
		return j.object(t, ns)
	}
	return TypeExpr{}, fmt.Errorf("unexpected schema value %T", v)
}

func (j *jsonLoader) object(o map[string]any, ns string) (TypeExpr, error) {
	kind, _ := o["type"].(string)
	switch kind {
	case "array":
		items, err := j.typeExpr(o["items"], ns)
		if err != nil {
			return TypeExpr{}, err
		}
		return TypeExpr{Kind: ExprArray, Items: &items}, nil
	case "map":
		vals, err := j.typeExpr(o["values"], ns)
		if err != nil {
			return TypeExpr{}, err
		}
		return TypeExpr{Kind: ExprMap, Items: &vals}, nil
	case "record", "enum", "typeref", "fixed":
	default:
		if _, ok := o["type"].([]any); ok { // {"type": [union]} wrapper
			return j.typeExpr(o["type"], ns)
		}
		return TypeExpr{}, fmt.Errorf("unsupported schema type %q", kind)
	}
	name, _ := o["name"].(string)
	if name == "" {
		return TypeExpr{}, fmt.Errorf("%s without a name", kind)
	}
	if n, ok := o["namespace"].(string); ok {
		ns = n
	}
	d := &Decl{Kind: DeclKind(kind), Name: qualify(name, ns), File: j.file}
	if j.seen == nil {
		j.seen = map[string]bool{}
	}
	if !j.seen[d.Name] {
		j.seen[d.Name] = true
		j.decls = append(j.decls, d)
	}
	if a, ok := o["Aspect"].(map[string]any); ok {
		an, _ := a["name"].(string)
		at, _ := a["type"].(string)
		if an != "" {
			d.Aspect = &Aspect{Name: an, Type: at}
		}
	}
	switch kind {
	case "record":
		if inc, ok := o["include"].([]any); ok {
			for _, i := range inc {
				te, err := j.typeExpr(i, ns)
				if err != nil {
					return TypeExpr{}, err
				}
				if te.Kind != ExprRef {
					return TypeExpr{}, fmt.Errorf("record %s includes a non-record", d.Name)
				}
				d.Includes = append(d.Includes, te.Name)
			}
		}
		fields, _ := o["fields"].([]any)
		for _, fv := range fields {
			fo, ok := fv.(map[string]any)
			if !ok {
				return TypeExpr{}, fmt.Errorf("record %s: bad field", d.Name)
			}
			f := Field{}
			f.Name, _ = fo["name"].(string)
			f.Optional, _ = fo["optional"].(bool)
			te, err := j.typeExpr(fo["type"], ns)
			if err != nil {
				return TypeExpr{}, fmt.Errorf("record %s field %s: %w", d.Name, f.Name, err)
			}
			f.Type = te
			if def, ok := fo["default"]; ok {
				b, err := json.Marshal(def)
				if err != nil {
					return TypeExpr{}, err
				}
				f.Default = b
			}
			d.Fields = append(d.Fields, f)
		}
	case "enum":
		syms, _ := o["symbols"].([]any)
		for _, s := range syms {
			if str, ok := s.(string); ok {
				d.Symbols = append(d.Symbols, str)
			}
		}
	case "typeref":
		te, err := j.typeExpr(o["ref"], ns)
		if err != nil {
			return TypeExpr{}, err
		}
		d.Ref = &te
	case "fixed":
		if n, ok := o["size"].(json.Number); ok {
			size, err := n.Int64()
			if err != nil {
				return TypeExpr{}, err
			}
			d.Size = int(size)
		}
	}
	return TypeExpr{Kind: ExprRef, Name: d.Name}, nil
}
