package graphql

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// FieldFunc resolves one field: c is the request's context with the field's
// parent value (c.Parent, nil for Query and Mutation), a its arguments,
// coerced by the schema (defaults applied). It returns the field's value
// (see the package doc for what a value may be) or an error (a *gqlError
// keeps its code; any other error is a SERVER_ERROR).
type FieldFunc func(c *Ctx, a Args) (any, error)

// registry holds the resolvers by "Type.field".
var registry = map[string]FieldFunc{}

// Register adds the resolver of the field typeField ("Type.field") of the
// schema. It is called from init functions; a second resolver for one field
// panics (TestRegistry checks each names a field of the schema).
func Register(typeField string, fn FieldFunc) {
	if _, dup := registry[typeField]; dup {
		panic("graphql: two resolvers for " + typeField)
	}
	registry[typeField] = fn
}

// query registers the resolver of Query.name.
func query(name string, fn FieldFunc) { Register("Query."+name, fn) }

// mutation registers the resolver of Mutation.name.
func mutation(name string, fn FieldFunc) { Register("Mutation."+name, fn) }

// Ctx is what a resolver knows of its request and field. It is the
// request's context (cancellation, the store position of the answer cache).
type Ctx struct {
	context.Context
	// Parent is the value the field is resolved on (the root resolver for
	// Query and Mutation).
	Parent any
	x      *executor
	fields []*ast.Field // the field's occurrences in the document, merged
	path   *pathElem
}

// Core is the rules core the request reads and writes through.
func (c *Ctx) Core() *gms.Core { return c.x.h.core }

// Selects is whether the field's answer selects a field named name
// directly (through fragments too).
func (c *Ctx) Selects(name string) bool {
	for _, f := range c.fields {
		if selects(c.x.doc, f.SelectionSet, name, 0) {
			return true
		}
	}
	return false
}

func selects(doc *ast.QueryDocument, set ast.SelectionSet, name string, depth int) bool {
	if depth > 16 {
		return false
	}
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			if s.Name == name {
				return true
			}
		case *ast.InlineFragment:
			if selects(doc, s.SelectionSet, name, depth+1) {
				return true
			}
		case *ast.FragmentSpread:
			if fr := doc.Fragments.ForName(s.Name); fr != nil && selects(doc, fr.SelectionSet, name, depth+1) {
				return true
			}
		}
	}
	return false
}

// selectsField is Ctx.Selects on a context a resolver was given.
func selectsField(ctx context.Context, name string) bool {
	c, ok := ctx.(*Ctx)
	return ok && c.Selects(name)
}

// Path is the field's path in the answer.
func (c *Ctx) Path() []any { return c.path.list() }

// Args are a field's arguments by name: nil, bool, int64 (Int), float64
// (Float), string (String, ID, enum values), json.Number or a literal's
// value (Long), []any, map[string]any (input objects).
type Args map[string]any

// String is the string argument name ("" when null or absent).
func (a Args) String(name string) string {
	s, _ := a[name].(string)
	return s
}

// Decode reads the arguments into v, a pointer to a struct whose fields
// are named as the arguments (case-insensitively, as encoding/json reads).
func (a Args) Decode(v any) error {
	if u, ok := v.(*urnArgs); ok && len(a) == 1 { // the entity roots' one argument
		if s, ok := a["urn"].(string); ok && utf8.ValidString(s) {
			*u = urnArgs{Urn: s} // as the JSON round trip gives it
			return nil
		}
	}
	var v0 any = map[string]any(a)
	if hasNilList(v0) {
		v0 = emptyLists(v0)
	}
	b, err := json.Marshal(v0)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// hasNilList is whether v holds an empty list literal (see emptyLists).
func hasNilList(v any) bool {
	switch v := v.(type) {
	case []any:
		if v == nil {
			return true
		}
		for _, it := range v {
			if hasNilList(it) {
				return true
			}
		}
	case map[string]any:
		for _, it := range v {
			if hasNilList(it) {
				return true
			}
		}
	}
	return false
}

// emptyLists is a copy of v with every empty list literal ([], which the
// parser gives as a nil []any) made an empty list, so that it decodes as []
// and not as null: an input list given empty differs from one not given.
func emptyLists(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, it := range v {
			out[i] = emptyLists(it)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, it := range v {
			out[k] = emptyLists(it)
		}
		return out
	}
	return v
}

// The default resolver: a field without a registered resolver is read
// from its parent value: a map's entry by the field's name, else a Go
// value's method or exported struct field of the field's name (case
// aside), as graph-gophers read them. A method may take a context.Context
// (the *Ctx) and then a struct of the arguments (see Args.Decode), and
// return the value alone or with an error.

// accessor is how a field is read from a Go type.
type accessor struct {
	method   int           // method index, -1 for a struct field
	fn       reflect.Value // the method's function (receiver first)
	ctx      bool
	args     reflect.Type // nil: no arguments
	hasErr   bool
	fieldIdx []int
}

type accessorKey struct {
	t    reflect.Type
	name string
}

var accessors sync.Map // accessorKey → *accessor (nil: none)

var (
	contextType = reflect.TypeFor[context.Context]()
	errorType   = reflect.TypeFor[error]()
)

// accessorOf finds how to read field name from values of t.
func accessorOf(t reflect.Type, name string) *accessor {
	key := accessorKey{t, name}
	if a, ok := accessors.Load(key); ok {
		return a.(*accessor)
	}
	a := findAccessor(t, name)
	accessors.Store(key, a)
	return a
}

func findAccessor(t reflect.Type, name string) *accessor {
	for i := range t.NumMethod() {
		m := t.Method(i)
		if !strings.EqualFold(m.Name, name) {
			continue
		}
		a := &accessor{method: i, fn: m.Func}
		in := 1 // the receiver
		if in < m.Type.NumIn() && m.Type.In(in) == contextType {
			a.ctx = true
			in++
		}
		if in < m.Type.NumIn() {
			a.args = m.Type.In(in)
			in++
		}
		switch {
		case in != m.Type.NumIn(), m.Type.NumOut() == 0, m.Type.NumOut() > 2,
			m.Type.NumOut() == 2 && m.Type.Out(1) != errorType:
			continue // not a resolver
		}
		a.hasErr = m.Type.NumOut() == 2
		return a
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() == reflect.Struct {
		for _, f := range reflect.VisibleFields(st) {
			if f.IsExported() && strings.EqualFold(f.Name, name) {
				return &accessor{method: -1, fieldIdx: f.Index}
			}
		}
	}
	return nil
}

// defaultResolve reads field fd of parent (see accessor); a Ctx is made
// only for what needs one.
func (x *executor) defaultResolve(def *ast.Definition, fd *ast.FieldDefinition, fs []*ast.Field, parent any, path *pathElem) (any, error) {
	switch p := parent.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return p[fd.Name], nil
	case *gval:
		return p.field(x.newCtx(fs, path, parent), def, fd)
	}
	if pf, ok := parent.(plainFielder); ok {
		if v, ok := pf.plainField(fd.Name); ok {
			return v, nil
		}
	}
	pv := reflect.ValueOf(parent)
	a := planOf(def, fd).accessor(pv.Type(), fd.Name)
	if a == nil {
		if b, ok := parent.(baser); ok {
			return genericField(x.newCtx(fs, path, parent), def, fd, b.base())
		}
		return notServed(def, fd)
	}
	if a.method < 0 {
		for pv.Kind() == reflect.Pointer {
			if pv.IsNil() {
				return nil, nil
			}
			pv = pv.Elem()
		}
		return pv.FieldByIndex(a.fieldIdx).Interface(), nil
	}
	var inBuf [3]reflect.Value
	in := inBuf[:1]
	in[0] = pv
	if a.ctx {
		in = append(in, reflect.ValueOf(x.newCtx(fs, path, parent)))
	}
	if a.args != nil {
		v := reflect.New(a.args)
		if err := Args(fs[0].ArgumentMap(x.vars)).Decode(v.Interface()); err != nil {
			return nil, badRequest(err.Error())
		}
		in = append(in, v.Elem())
	}
	out := a.fn.Call(in)
	if a.hasErr && !out[1].IsNil() {
		return nil, out[1].Interface().(error)
	}
	return out[0].Interface(), nil
}

// msgNotServed answers a non-null field the mock has no value for.
const msgNotServed = "datahub-mock does not serve %s.%s yet"
