package entity

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/entitystate"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/urn"
)

// Entity is a typed entity of this package: a URN and its aspects. Only
// the types of this package implement it.
type Entity interface {
	// EntityURN returns the entity's URN.
	EntityURN() urn.URN
	// KeyAspect returns the entity's key aspect, built from its URN.
	KeyAspect() aspects.Aspect
	// access is the entity's aspect fields and state.
	access() entitystate.Access
}

// Meta is what the client knows of an entity from reading it: which
// aspects it read and their versions. Every entity type embeds it; a
// value built in the program has none, and the client's Update refuses
// it. Copying an entity copies its Meta.
type Meta struct {
	state *entitystate.State
}

// Loaded reports whether the entity was read from the server (by the
// client's Get, GetMany or a successful Update).
func (m *Meta) Loaded() bool { return m.state != nil }

// Version returns the version (systemMetadata.version) of aspect
// aspectName as it was read: "-1" when the entity had no such aspect,
// "" when it was not read.
func (m *Meta) Version(aspectName string) string {
	if m.state == nil {
		return ""
	}
	a, ok := m.state.Aspects[aspectName]
	if !ok {
		return ""
	}
	return a.Version
}

// ReadAspects returns the names of the aspects that were read, sorted;
// nil for an entity that was not read.
func (m *Meta) ReadAspects() []string {
	if m.state == nil {
		return nil
	}
	names := make([]string, 0, len(m.state.Aspects))
	for n := range m.state.Aspects {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func init() {
	entitystate.Of = func(e any) (entitystate.Access, bool) {
		if t, ok := e.(Entity); ok {
			return t.access(), true
		}
		return entitystate.Access{}, false
	}
}

// field returns the slot of the aspect field p.
func field[A any, P interface {
	*A
	aspects.Aspect
}](p **A) entitystate.Slot {
	var zero A
	return entitystate.Slot{
		Name: P(&zero).AspectName(),
		Get: func() aspects.Aspect {
			if *p == nil {
				return nil
			}
			return P(*p)
		},
		Set: func(a aspects.Aspect) bool {
			switch v := a.(type) {
			case P:
				*p = (*A)(v)
				return v != nil
			case A:
				*p = &v
				return true
			}
			return false
		},
		Clear: func() { *p = nil },
	}
}

// access builds the Access of an entity from its meta and fields.
func access(m *Meta, slots ...entitystate.Slot) entitystate.Access {
	return entitystate.Access{Slots: slots, State: &m.state}
}

// Aspects returns the aspects e holds (its non-nil aspect fields), in
// field order, the key aspect and timeseries aspects (a training run's
// RunEvents) excluded: what to give emitter.NewProposal to write e
// without package client.
func Aspects(e Entity) []aspects.Aspect {
	var out []aspects.Aspect
	for _, s := range e.access().Slots {
		if v := s.Get(); v != nil {
			out = append(out, v)
		}
	}
	return out
}

// SetAspect stores a (a value or a pointer) in the field of e of its type
// and reports whether e has such a field.
func SetAspect(e Entity, a aspects.Aspect) bool {
	for _, s := range e.access().Slots {
		if s.Set(a) {
			return true
		}
	}
	return false
}

// kinds maps each entity type to the constructor of an empty entity of it.
var kinds = map[string]func(u urn.URN) (Entity, error){}

// register adds the constructor of entity type name.
func register(name string, f func(u urn.URN) (Entity, error)) { kinds[name] = f }

// New returns an empty entity of the type this package has for u's entity
// type (a *Dataset for a dataset URN, and so on), with no aspects. It
// fails for an entity type this package has no type for, or a URN that
// does not parse as that type.
func New(u urn.URN) (Entity, error) {
	if u == nil || u.String() == "" {
		return nil, fmt.Errorf("entity: no URN")
	}
	f, ok := kinds[u.EntityType()]
	if !ok {
		return nil, fmt.Errorf("entity: entity type %q of %s has no type in this package (it has %v)", u.EntityType(), u, Types())
	}
	return f(u)
}

// Types returns the entity types this package has a type for, sorted.
func Types() []string {
	out := make([]string, 0, len(kinds))
	for n := range kinds {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// typed parses u as the typed URN T with parse, accepting T itself.
func typed[T urn.URN](u urn.URN, parse func(string) (T, error)) (T, error) {
	if t, ok := u.(T); ok {
		return t, nil
	}
	return parse(u.String())
}

// keyAspect returns key aspect keyName of u (a value, not a pointer): the
// URN's parts, in order, are the key's fields, as DataHub builds a key
// from a URN. It returns the empty key when u is empty or its parts do not
// fit the key.
func keyAspect(u urn.URN, keyName string) aspects.Aspect {
	p, _ := aspects.New(keyName)
	return reflect.ValueOf(keyPointer(p, u, keyName)).Elem().Interface().(aspects.Aspect)
}

// keyPointer fills the new key v (a pointer) from u's parts.
func keyPointer(v aspects.Aspect, u urn.URN, keyName string) aspects.Aspect {
	if u == nil || u.String() == "" {
		return v
	}
	info, ok := pdl.LookupAspect(keyName)
	if !ok {
		return v
	}
	rec, ok := pdl.Record(info.RecordName)
	if !ok {
		return v
	}
	g, err := urn.ParseGeneric(u.String())
	if err != nil {
		return v
	}
	parts := g.Parts()
	if len(parts) != len(rec.Fields) {
		return v
	}
	obj := make(map[string]json.RawMessage, len(parts))
	for i, f := range rec.Fields {
		switch f.Type.Kind {
		case pdl.KindInt, pdl.KindLong, pdl.KindFloat, pdl.KindDouble, pdl.KindBoolean:
			if json.Valid([]byte(parts[i])) {
				obj[f.Name] = json.RawMessage(parts[i])
				continue
			}
		}
		s, _ := json.Marshal(parts[i])
		obj[f.Name] = s
	}
	data, _ := json.Marshal(obj)
	w, _ := aspects.New(keyName)
	if err := json.Unmarshal(data, w); err != nil {
		return v
	}
	return w
}

// appendAspects appends the values vs to out.
func appendAspects[A aspects.Aspect](out []aspects.Aspect, vs []A) []aspects.Aspect {
	for _, v := range vs {
		out = append(out, v)
	}
	return out
}
