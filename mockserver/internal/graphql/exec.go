package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/catalogkit/datahub-go/internal/jsonesc"
	"github.com/vektah/gqlparser/v2/ast"
)

// The executor: a synchronous walk of a validated operation (gqlparser's
// typed AST) that writes the answer's JSON as it goes. A field is resolved
// by the registry's resolver for "Type.field" (see Register), else by the
// default resolver (see defaultResolve); its value is completed by its
// schema type: a list item by item, a scalar or enum value as JSON, an
// object by its own selection (an interface's or union's value names its
// concrete type, see Typed). No goroutine per field: a request runs on the
// goroutine that serves it.

// location is a place in the document (lines and columns from 1).
type location struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// queryError is one error of an answer, in graphql-java's order of keys.
type queryError struct {
	Message    string         `json:"message"`
	Locations  []location     `json:"locations,omitempty"`
	Path       []any          `json:"path,omitempty"`
	Extensions map[string]any `json:"extensions,omitempty"`
}

// pathElem is one step of a value's path: a response key or a list index.
type pathElem struct {
	key   string
	index int // when key is ""
	up    *pathElem
}

// list is the path from the root, as an error shows it.
func (p *pathElem) list() []any {
	n := 0
	for q := p; q != nil; q = q.up {
		n++
	}
	out := make([]any, n)
	for q := p; q != nil; q = q.up {
		n--
		if q.key != "" {
			out[n] = q.key
		} else {
			out[n] = q.index
		}
	}
	return out
}

// collectKey names the fields collected for an object type from one field
// of the document (a document's fields are never copied).
type collectKey struct {
	field *ast.Field
	def   *ast.Definition
}

type collectedFields struct {
	keys  []string
	byKey map[string][]*ast.Field
}

// executor runs one operation.
type executor struct {
	// prep is the prepared document (its collected fields are kept there).
	prep   *prepared
	h      *Handler
	ctx    context.Context
	st     *execState
	doc    *ast.QueryDocument
	vars   map[string]any
	buf    []byte
	errs   []*queryError
	schema *ast.Schema
	// slab is where the paths of fields and list items are carved from
	// (see newPaths).
	slab []pathElem
	// rootSet is the prepared root field of the operation run (see
	// prepared.rootSets).
	rootSet *ast.Field
}

// slabPaths is the size of a slab of paths.
const slabPaths = 64

// newPaths returns n zeroed paths: from the executor's slab, so that a
// request's paths take a few allocations in all (a path may be kept by a
// resolver's Ctx; a slab is never reused, only left to the collector).
func (x *executor) newPaths(n int) []pathElem {
	if n > slabPaths/4 {
		return make([]pathElem, n)
	}
	if len(x.slab)+n > cap(x.slab) {
		x.slab = make([]pathElem, 0, slabPaths)
	}
	i := len(x.slab)
	x.slab = x.slab[:i+n]
	return x.slab[i : i+n : i+n]
}

// errorAt records err as the error of the field at path.
func (x *executor) errorAt(err error, f *ast.Field, path *pathElem) {
	qe := &queryError{Message: err.Error(), Path: path.list()}
	if f.Position != nil {
		qe.Locations = []location{{f.Position.Line, f.Position.Column}}
	}
	if e, ok := err.(interface{ Extensions() map[string]any }); ok {
		qe.Extensions = e.Extensions()
	}
	x.errs = append(x.errs, qe)
}

// run executes op on root (the resolver) and returns data's JSON.
func (x *executor) run(op *ast.OperationDefinition, root any) []byte {
	var def *ast.Definition
	switch op.Operation {
	case ast.Mutation:
		def = x.schema.Mutation
	case ast.Subscription:
		def = x.schema.Subscription
	default:
		def = x.schema.Query
	}
	mark := len(x.buf)
	var sets []*ast.Field
	if x.prep != nil {
		sets = x.prep.rootSets(op)
		x.rootSet = sets[0]
	} else {
		sets = []*ast.Field{{SelectionSet: op.SelectionSet}}
	}
	if !x.object(def, sets, root, nil) {
		x.buf = append(x.buf[:mark], "null"...)
	}
	return x.buf
}

// collect gathers the fields of sets that apply to the object type def, by
// response key in document order, fragments and inline fragments expanded
// and @skip/@include applied.
func (x *executor) collect(def *ast.Definition, sets []*ast.Field) (keys []string, byKey map[string][]*ast.Field) {
	var ck collectKey
	// Only a field that is not merged with others is kept: two merged lists
	// may start alike and differ after.
	// The operation's own set is kept under its prepared root field (see
	// rootSets); a root field made for one request would never be found.
	if x.prep != nil && !x.prep.directives && len(sets) == 1 && (sets[0].Name != "" || sets[0] == x.rootSet) {
		ck = collectKey{sets[0], def}
		if c, ok := x.prep.collected.Load(ck); ok {
			cf := c.(*collectedFields)
			return cf.keys, cf.byKey
		}
		defer func() { x.prep.collected.Store(ck, &collectedFields{keys, byKey}) }()
	}
	byKey = map[string][]*ast.Field{}
	visited := map[string]bool{}
	var walk func(ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, s := range set {
			switch s := s.(type) {
			case *ast.Field:
				if !x.included(s.Directives) {
					continue
				}
				k := s.Alias
				if k == "" {
					k = s.Name
				}
				if _, had := byKey[k]; !had {
					keys = append(keys, k)
				}
				byKey[k] = append(byKey[k], s)
			case *ast.InlineFragment:
				if x.included(s.Directives) && x.applies(s.TypeCondition, def) {
					walk(s.SelectionSet)
				}
			case *ast.FragmentSpread:
				if !x.included(s.Directives) || visited[s.Name] {
					continue
				}
				visited[s.Name] = true
				if fr := x.doc.Fragments.ForName(s.Name); fr != nil && x.applies(fr.TypeCondition, def) {
					walk(fr.SelectionSet)
				}
			}
		}
	}
	for _, f := range sets {
		walk(f.SelectionSet)
	}
	return keys, byKey
}

// applies is whether a fragment on cond applies to the object type def.
func (x *executor) applies(cond string, def *ast.Definition) bool {
	if cond == "" || cond == def.Name {
		return true
	}
	for _, p := range x.schema.GetPossibleTypes(x.schema.Types[cond]) {
		if p.Name == def.Name {
			return true
		}
	}
	return false
}

// included applies @skip and @include.
func (x *executor) included(ds ast.DirectiveList) bool {
	for _, d := range ds {
		if d.Name != "skip" && d.Name != "include" {
			continue
		}
		v, _ := d.ArgumentMap(x.vars)["if"].(bool)
		if d.Name == "skip" && v || d.Name == "include" && !v {
			return false
		}
	}
	return true
}

// object writes v as an object of type def with the fields of sets; false
// when a non-null field of it is null (nothing written: the caller writes
// null or fails in turn).
func (x *executor) object(def *ast.Definition, sets []*ast.Field, v any, path *pathElem) bool {
	mark := len(x.buf)
	keys, byKey := x.collect(def, sets)
	x.buf = append(x.buf, '{')
	paths := x.newPaths(len(keys))
	for i, k := range keys {
		if i > 0 {
			x.buf = append(x.buf, ',')
		}
		x.buf = appendString(x.buf, k)
		x.buf = append(x.buf, ':')
		fs := byKey[k]
		f := fs[0]
		if f.Name == "__typename" {
			x.buf = appendString(x.buf, def.Name)
			continue
		}
		fp := &paths[i]
		fp.key, fp.up = k, path
		if !x.field(def, fs, v, fp) {
			x.buf = x.buf[:mark]
			return false
		}
	}
	x.buf = append(x.buf, '}')
	return true
}

// field resolves one field and writes its value; false as for object.
func (x *executor) field(def *ast.Definition, fs []*ast.Field, parent any, path *pathElem) bool {
	f := fs[0]
	fd := f.Definition
	if fd == nil || f.ObjectDefinition == nil || f.ObjectDefinition.Name != def.Name {
		fd = def.Fields.ForName(f.Name)
	}
	if fd == nil { // validated away; never here
		x.buf = append(x.buf, "null"...)
		return true
	}
	if def == x.schema.Query || def == x.schema.Mutation {
		x.root(f.Name)
	}
	if ps, ok := parent.(plainStringer); ok && fd.Type.Elem == nil && (x.h == nil || !x.h.general) {
		if s, ok := x.plainString(ps, def, fd); ok { // what resolve and value would write
			x.buf = appendString(x.buf, s)
			return true
		}
	}
	v, err := x.resolve(def, fd, fs, parent, path)
	if err != nil {
		x.errorAt(err, f, path)
		if fd.Type.NonNull {
			return false
		}
		x.buf = append(x.buf, "null"...)
		return true
	}
	if !x.value(fd.Type, fs, v, path) {
		if fd.Type.NonNull {
			return false
		}
		x.buf = append(x.buf, "null"...)
	}
	return true
}

// plainString is the value of the field fd of parent when the default
// resolver answers it with a plain string (see plainStringer) and fd's type
// is a scalar or an enum; false otherwise, and for a method that panics
// (resolve answers its error).
func (x *executor) plainString(parent plainStringer, def *ast.Definition, fd *ast.FieldDefinition) (s string, ok bool) {
	if planOf(def, fd).fn != nil {
		return "", false
	}
	if t := x.schema.Types[fd.Type.NamedType]; t == nil || t.Kind != ast.Scalar && t.Kind != ast.Enum {
		return "", false
	}
	defer func() {
		if recover() != nil {
			s, ok = "", false
		}
	}()
	return parent.plainString(fd.Name)
}

// root notes a root field that ran (see storeRoots).
func (x *executor) root(name string) {
	if x.st != nil && !storeRoots[name] && name != "__schema" && name != "__type" {
		x.st.other.Store(true)
	}
}

// resolve runs the resolver of fd on parent, a failure (see fail) or a
// panic turned into its error.
func (x *executor) resolve(def *ast.Definition, fd *ast.FieldDefinition, fs []*ast.Field, parent any, path *pathElem) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			if f, ok := p.(failure); ok {
				v, err = nil, f.err
				return
			}
			v, err = nil, serverError(fmt.Sprintf("panic occurred: %v", p))
		}
	}()
	if fn := planOf(def, fd).fn; fn != nil {
		return fn(x.newCtx(fs, path, parent), Args(fs[0].ArgumentMap(x.vars)))
	}
	return x.defaultResolve(def, fd, fs, parent, path)
}

// fieldPlan is how a field of an object type is resolved: its registered
// resolver, else the accessor of the Go type its parent values had last.
type fieldPlan struct {
	fn   FieldFunc
	last atomic.Pointer[typedAccessor]
}

type typedAccessor struct {
	t reflect.Type
	a *accessor
}

// plans are the fieldPlans by field definition (one per "Type.field" of
// the schema, whose definitions are shared by every handler).
var plans sync.Map // *ast.FieldDefinition → *fieldPlan

// planOf is the plan of field fd of the object type def (fd is def's).
func planOf(def *ast.Definition, fd *ast.FieldDefinition) *fieldPlan {
	if p, ok := plans.Load(fd); ok {
		return p.(*fieldPlan)
	}
	p, _ := plans.LoadOrStore(fd, &fieldPlan{fn: registry[def.Name+"."+fd.Name]})
	return p.(*fieldPlan)
}

// accessor is accessorOf(t, fd.Name), kept with fd's plan for the last
// type it was asked for.
func (p *fieldPlan) accessor(t reflect.Type, name string) *accessor {
	if ta := p.last.Load(); ta != nil && ta.t == t {
		return ta.a
	}
	a := accessorOf(t, name)
	p.last.Store(&typedAccessor{t, a})
	return a
}

// newCtx is the Ctx of a field's resolver.
func (x *executor) newCtx(fs []*ast.Field, path *pathElem, parent any) *Ctx {
	return &Ctx{Context: x.ctx, x: x, fields: fs, path: path, Parent: parent}
}

// value writes v as a value of t; false when it is null and t is non-null
// (the error recorded, nothing written).
func (x *executor) value(t *ast.Type, fs []*ast.Field, v any, path *pathElem) bool {
	if t.Elem == nil {
		if b, ok := appendPlain(x.buf, v); ok { // a plain scalar value, without reflection
			if def := x.schema.Types[t.NamedType]; def != nil && (def.Kind == ast.Scalar || def.Kind == ast.Enum) {
				x.buf = b
				return true
			}
		}
	}
	rv, null := deref(v)
	if null {
		if t.NonNull {
			x.errorAt(nonNullError(path), fs[0], path)
			return false
		}
		x.buf = append(x.buf, "null"...)
		return true
	}
	if t.Elem != nil {
		mark := len(x.buf)
		x.buf = append(x.buf, '[')
		n := listLen(rv)
		if n < 0 {
			x.errorAt(serverError(fmt.Sprintf("datahub-mock: a %T is not a list", v)), fs[0], path)
			x.buf = x.buf[:mark]
			return x.nullOr(t)
		}
		paths := x.newPaths(n)
		for i := range n {
			if i > 0 {
				x.buf = append(x.buf, ',')
			}
			paths[i] = pathElem{index: i, up: path}
			if !x.value(t.Elem, fs, rv.Index(i).Interface(), &paths[i]) {
				x.buf = x.buf[:mark]
				return x.nullOr(t)
			}
		}
		x.buf = append(x.buf, ']')
		return true
	}
	def := x.schema.Types[t.NamedType]
	switch def.Kind {
	case ast.Scalar, ast.Enum:
		b, err := appendScalar(x.buf, rv)
		if err != nil {
			x.errorAt(serverError(err.Error()), fs[0], path)
			return x.nullOr(t)
		}
		x.buf = b
		return true
	case ast.Object:
		if !x.object(def, fs, concrete(v), path) {
			return x.nullOr(t)
		}
		return true
	}
	// An interface or a union: the value names its type.
	name, cv := typeOf(v)
	odef := x.schema.Types[name]
	if odef == nil || odef.Kind != ast.Object || !x.applies(def.Name, odef) {
		x.errorAt(serverError(fmt.Sprintf("datahub-mock: cannot answer a %T as a %s", v, def.Name)), fs[0], path)
		return x.nullOr(t)
	}
	if !x.object(odef, fs, cv, path) {
		return x.nullOr(t)
	}
	return true
}

// nullOr writes null in place of a value of t that could not be written,
// or reports that t is non-null.
func (x *executor) nullOr(t *ast.Type) bool {
	if t.NonNull {
		return false
	}
	x.buf = append(x.buf, "null"...)
	return true
}

// nonNullError is graphql-java's NonNullableFieldWasNullError.
func nonNullError(path *pathElem) error {
	p := ""
	for _, e := range path.list() {
		p += "/" + fmt.Sprint(e)
	}
	return nullInNonNull(fmt.Sprintf("The field at path '%s' was declared as a non null type, but the code involved in retrieving data has wrongly returned a null value.", p))
}

// nullInNonNull is graphql-java's error of a null in a non-null field.
type nullInNonNull string

func (e nullInNonNull) Error() string { return string(e) }

// Extensions are graphql-java's (its classification, no DataHub code).
func (e nullInNonNull) Extensions() map[string]any {
	return map[string]any{"classification": "NullValueInNonNullableField"}
}

// Typed is a value of an interface or union type: it names its object
// type and gives the value to resolve that type's fields on.
type Typed interface {
	GraphQLType() (typeName string, value any)
}

// typeOf is the object type of a value of an abstract type: a Typed's, or
// a map's "__typename".
func typeOf(v any) (string, any) {
	switch t := v.(type) {
	case Typed:
		return t.GraphQLType()
	case map[string]any:
		name, _ := t["__typename"].(string)
		return name, t
	}
	return "", v
}

// concrete is the value an object's fields resolve on: a Typed's own.
func concrete(v any) any {
	if t, ok := v.(Typed); ok {
		_, cv := t.GraphQLType()
		return cv
	}
	return v
}

// deref follows pointers and interfaces; null for nil (and a nil map). A
// nil slice is an empty list.
func deref(v any) (reflect.Value, bool) {
	if v == nil {
		return reflect.Value{}, true
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return rv, true
		}
		rv = rv.Elem()
	}
	if rv.Kind() == reflect.Map && rv.IsNil() {
		return rv, true
	}
	return rv, false
}

// listLen is the length of a slice or array, -1 for another kind.
func listLen(rv reflect.Value) int {
	if rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
		return rv.Len()
	}
	return -1
}

// appendPlain writes v as JSON when it is a non-null value of a plain Go
// type of a scalar (a string, a bool, an integer or a Long, or a pointer to
// one), as appendScalar would; false for any other value.
func appendPlain(b []byte, v any) ([]byte, bool) {
	switch v := v.(type) {
	case string:
		return appendString(b, v), true
	case *string:
		if v != nil {
			return appendString(b, *v), true
		}
	case bool:
		return strconv.AppendBool(b, v), true
	case *bool:
		if v != nil {
			return strconv.AppendBool(b, *v), true
		}
	case int32:
		return strconv.AppendInt(b, int64(v), 10), true
	case *int32:
		if v != nil {
			return strconv.AppendInt(b, int64(*v), 10), true
		}
	case int:
		return strconv.AppendInt(b, int64(v), 10), true
	case int64:
		return strconv.AppendInt(b, v, 10), true
	case Long:
		return strconv.AppendInt(b, int64(v), 10), true
	case *Long:
		if v != nil {
			return strconv.AppendInt(b, int64(*v), 10), true
		}
	}
	return b, false
}

// appendScalar writes a scalar's or enum's value as JSON.
func appendScalar(b []byte, rv reflect.Value) ([]byte, error) {
	if rv.Type() == jsonNumberType {
		return append(b, rv.String()...), nil
	}
	if m, ok := rv.Interface().(json.Marshaler); ok {
		out, err := m.MarshalJSON()
		if err != nil {
			return b, err
		}
		return append(b, out...), nil
	}
	switch rv.Kind() {
	case reflect.String:
		return appendString(b, rv.String()), nil
	case reflect.Bool:
		return strconv.AppendBool(b, rv.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, rv.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.AppendUint(b, rv.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return b, fmt.Errorf("datahub-mock: %v is not a JSON number", f)
		}
		return strconv.AppendFloat(b, f, 'g', -1, 64), nil
	}
	out, err := json.Marshal(rv.Interface()) // a JSON scalar (Map, say) as is
	if err != nil {
		return b, err
	}
	return append(b, out...), nil
}

// appendString writes s as a JSON string as encoding/json writes it with
// HTML escaping off (HTML characters not escaped, as the answers always
// were).
func appendString(b []byte, s string) []byte {
	return jsonesc.AppendString(b, s)
}
