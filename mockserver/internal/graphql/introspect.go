package graphql

import (
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Introspection (__schema, __type) answered from the schema's AST: the
// values below are read by the default resolver through their methods.

func init() {
	query("__schema", func(c *Ctx, _ Args) (any, error) { return &introSchema{c.x.schema}, nil })
	query("__type", func(c *Ctx, a Args) (any, error) {
		def := c.x.schema.Types[a.String("name")]
		if def == nil {
			return nil, nil
		}
		return &introType{s: c.x.schema, def: def}, nil
	})
}

type introSchema struct{ s *ast.Schema }

func (i *introSchema) Description() *string { return nil }

// Types are the schema's named types, by name.
func (i *introSchema) Types() []*introType {
	names := make([]string, 0, len(i.s.Types))
	for n := range i.s.Types {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]*introType, 0, len(names))
	for _, n := range names {
		out = append(out, &introType{s: i.s, def: i.s.Types[n]})
	}
	return out
}

func (i *introSchema) named(def *ast.Definition) *introType {
	if def == nil {
		return nil
	}
	return &introType{s: i.s, def: def}
}

func (i *introSchema) QueryType() *introType        { return i.named(i.s.Query) }
func (i *introSchema) MutationType() *introType     { return i.named(i.s.Mutation) }
func (i *introSchema) SubscriptionType() *introType { return i.named(i.s.Subscription) }

// Directives are the schema's directives, by name.
func (i *introSchema) Directives() []*introDirective {
	names := make([]string, 0, len(i.s.Directives))
	for n := range i.s.Directives {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]*introDirective, 0, len(names))
	for _, n := range names {
		out = append(out, &introDirective{i.s, i.s.Directives[n]})
	}
	return out
}

// introType is a named type (def) or a list or non-null wrapper (t).
type introType struct {
	s   *ast.Schema
	t   *ast.Type
	def *ast.Definition
}

// typeOfRef is the introspection type of a reference.
func typeOfRef(s *ast.Schema, t *ast.Type) *introType {
	if t.NonNull || t.Elem != nil {
		return &introType{s: s, t: t}
	}
	return &introType{s: s, def: s.Types[t.NamedType]}
}

func (i *introType) Kind() string {
	switch {
	case i.t != nil && i.t.NonNull:
		return "NON_NULL"
	case i.t != nil:
		return "LIST"
	}
	return string(i.def.Kind)
}

func (i *introType) Name() *string {
	if i.def == nil {
		return nil
	}
	return &i.def.Name
}

func (i *introType) Description() *string {
	if i.def == nil || i.def.Description == "" {
		return nil
	}
	return &i.def.Description
}

func (i *introType) OfType() *introType {
	switch {
	case i.t == nil:
		return nil
	case i.t.NonNull:
		u := *i.t
		u.NonNull = false
		return typeOfRef(i.s, &u)
	}
	return typeOfRef(i.s, i.t.Elem)
}

type deprecatedArgs struct{ IncludeDeprecated bool }

func (i *introType) Fields(a deprecatedArgs) *[]*introField {
	if i.def == nil || (i.def.Kind != ast.Object && i.def.Kind != ast.Interface) {
		return nil
	}
	out := []*introField{}
	for _, f := range i.def.Fields {
		if strings.HasPrefix(f.Name, "__") || (!a.IncludeDeprecated && deprecated(f.Directives)) {
			continue
		}
		out = append(out, &introField{i.s, f})
	}
	return &out
}

func (i *introType) Interfaces() *[]*introType {
	if i.def == nil || (i.def.Kind != ast.Object && i.def.Kind != ast.Interface) {
		return nil
	}
	out := []*introType{}
	for _, n := range i.def.Interfaces {
		out = append(out, &introType{s: i.s, def: i.s.Types[n]})
	}
	return &out
}

func (i *introType) PossibleTypes() *[]*introType {
	if i.def == nil || (i.def.Kind != ast.Interface && i.def.Kind != ast.Union) {
		return nil
	}
	out := []*introType{}
	for _, d := range i.s.GetPossibleTypes(i.def) {
		out = append(out, &introType{s: i.s, def: d})
	}
	return &out
}

func (i *introType) EnumValues(a deprecatedArgs) *[]*introEnumValue {
	if i.def == nil || i.def.Kind != ast.Enum {
		return nil
	}
	out := []*introEnumValue{}
	for _, v := range i.def.EnumValues {
		if a.IncludeDeprecated || !deprecated(v.Directives) {
			out = append(out, &introEnumValue{v})
		}
	}
	return &out
}

func (i *introType) InputFields(a deprecatedArgs) *[]*introInputValue {
	if i.def == nil || i.def.Kind != ast.InputObject {
		return nil
	}
	out := []*introInputValue{}
	for _, f := range i.def.Fields {
		if a.IncludeDeprecated || !deprecated(f.Directives) {
			out = append(out, &introInputValue{s: i.s, name: f.Name, desc: f.Description, typ: f.Type, def: f.DefaultValue, dirs: f.Directives})
		}
	}
	return &out
}

func (i *introType) SpecifiedByURL() *string {
	if i.def == nil {
		return nil
	}
	if d := i.def.Directives.ForName("specifiedBy"); d != nil {
		if a := d.Arguments.ForName("url"); a != nil {
			return &a.Value.Raw
		}
	}
	return nil
}

func (i *introType) IsOneOf() *bool {
	if i.def == nil || i.def.Kind != ast.InputObject {
		return nil
	}
	b := i.def.Directives.ForName("oneOf") != nil
	return &b
}

type introField struct {
	s *ast.Schema
	f *ast.FieldDefinition
}

func (f *introField) Name() string               { return f.f.Name }
func (f *introField) Description() *string       { return optional(f.f.Description) }
func (f *introField) Type() *introType           { return typeOfRef(f.s, f.f.Type) }
func (f *introField) IsDeprecated() bool         { return deprecated(f.f.Directives) }
func (f *introField) DeprecationReason() *string { return deprecationReason(f.f.Directives) }

func (f *introField) Args(a deprecatedArgs) []*introInputValue {
	return inputValues(f.s, f.f.Arguments, a.IncludeDeprecated)
}

func inputValues(s *ast.Schema, args ast.ArgumentDefinitionList, withDeprecated bool) []*introInputValue {
	out := []*introInputValue{}
	for _, a := range args {
		if withDeprecated || !deprecated(a.Directives) {
			out = append(out, &introInputValue{s: s, name: a.Name, desc: a.Description, typ: a.Type, def: a.DefaultValue, dirs: a.Directives})
		}
	}
	return out
}

type introInputValue struct {
	s          *ast.Schema
	name, desc string
	typ        *ast.Type
	def        *ast.Value
	dirs       ast.DirectiveList
}

func (v *introInputValue) Name() string               { return v.name }
func (v *introInputValue) Description() *string       { return optional(v.desc) }
func (v *introInputValue) Type() *introType           { return typeOfRef(v.s, v.typ) }
func (v *introInputValue) IsDeprecated() bool         { return deprecated(v.dirs) }
func (v *introInputValue) DeprecationReason() *string { return deprecationReason(v.dirs) }

// DefaultValue is the default's GraphQL text.
func (v *introInputValue) DefaultValue() *string {
	if v.def == nil {
		return nil
	}
	s := v.def.String()
	return &s
}

type introEnumValue struct{ v *ast.EnumValueDefinition }

func (e *introEnumValue) Name() string               { return e.v.Name }
func (e *introEnumValue) Description() *string       { return optional(e.v.Description) }
func (e *introEnumValue) IsDeprecated() bool         { return deprecated(e.v.Directives) }
func (e *introEnumValue) DeprecationReason() *string { return deprecationReason(e.v.Directives) }

type introDirective struct {
	s *ast.Schema
	d *ast.DirectiveDefinition
}

func (d *introDirective) Name() string         { return d.d.Name }
func (d *introDirective) Description() *string { return optional(d.d.Description) }
func (d *introDirective) IsRepeatable() bool   { return d.d.IsRepeatable }

func (d *introDirective) Locations() []string {
	out := make([]string, 0, len(d.d.Locations))
	for _, l := range d.d.Locations {
		out = append(out, string(l))
	}
	return out
}

func (d *introDirective) Args(a deprecatedArgs) []*introInputValue {
	return inputValues(d.s, d.d.Arguments, a.IncludeDeprecated)
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deprecated(ds ast.DirectiveList) bool { return ds.ForName("deprecated") != nil }

// deprecationReason is @deprecated's reason (the spec's default "No longer
// supported" when none is given), nil when not deprecated.
func deprecationReason(ds ast.DirectiveList) *string {
	d := ds.ForName("deprecated")
	if d == nil {
		return nil
	}
	if a := d.Arguments.ForName("reason"); a != nil && a.Value != nil {
		r := a.Value.Raw
		return &r
	}
	r := "No longer supported"
	return &r
}
