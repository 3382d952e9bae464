package aspects

import (
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/catalogkit/datahub-go/internal/hooks"
)

func init() { hooks.OwnAspect = ownAspect }

// ownAspect is hooks.OwnAspect: whether a's type is the one this package
// declares for the aspect named name (T or *T, New(name)'s), and appends
// its own JSON. A type of another package that embeds one is not: its own
// methods (MarshalJSON, AspectName) may say otherwise. The answer is read
// from ownTypes, through ownSeen: looking a name up in a map costs about
// six times as much as comparing with the entry the slot of its name held
// last.
func ownAspect(a any, name string) bool {
	if a == nil || name == "" {
		return false
	}
	t := reflect.TypeOf(a)
	slot := &ownSeen[(len(name)+int(name[0]))%len(ownSeen)]
	if e := slot.Load(); e != nil && (t == e.types[0] || t == e.types[1]) && name == e.name {
		return true
	}
	e, ok := ownTypes()[name]
	if !ok || (t != e.types[0] && t != e.types[1]) {
		return false
	}
	slot.Store(e)
	return true
}

// ownEntry is a typed aspect's name and its types that append their own
// JSON: *T and T, nil where one does not.
type ownEntry struct {
	name  string
	types [2]reflect.Type
}

// ownSeen holds, for each slot a name falls in, the entry ownAspect last
// found there. Its entries are ownTypes', never changed.
var ownSeen [16]atomic.Pointer[ownEntry]

// ownTypes returns the entries of the typed aspects that append their own
// JSON, by name. The map is only read once made.
var ownTypes = sync.OnceValue(func() map[string]*ownEntry {
	m := make(map[string]*ownEntry)
	for _, name := range TypedAspects() {
		a, _ := New(name) // a *T
		e := &ownEntry{name: name}
		for i, t := range []reflect.Type{reflect.TypeOf(a), reflect.TypeOf(a).Elem()} {
			if _, ok := reflect.New(t).Elem().Interface().(appender); ok {
				e.types[i] = t
			}
		}
		if e.types[0] != nil || e.types[1] != nil {
			m[name] = e
		}
	}
	return m
})
