package aspects

import (
	"reflect"
	"sync"

	"github.com/catalogkit/datahub-go/internal/hooks"
)

func init() { hooks.OwnAspect = ownAspect }

// ownAspect is hooks.OwnAspect: whether a's type is the one this package
// declares for the aspect named name (T or *T, New(name)'s), and appends
// its own JSON. A type of another package that embeds one is not: its own
// methods (MarshalJSON, AspectName) may say otherwise.
func ownAspect(a any, name string) bool {
	ts, ok := ownTypes()[name]
	if !ok {
		return false
	}
	t := reflect.TypeOf(a)
	return t == ts[0] || t == ts[1]
}

// ownTypes returns the types ownAspect accepts, by aspect name: the
// typed aspects' *T and T that implement appender (nil where one does
// not). The map is only read once made.
var ownTypes = sync.OnceValue(func() map[string][2]reflect.Type {
	m := make(map[string][2]reflect.Type)
	for _, name := range TypedAspects() {
		a, _ := New(name) // a *T
		var ts [2]reflect.Type
		for i, t := range []reflect.Type{reflect.TypeOf(a), reflect.TypeOf(a).Elem()} {
			if _, ok := reflect.New(t).Elem().Interface().(appender); ok {
				ts[i] = t
			}
		}
		if ts[0] != nil || ts[1] != nil {
			m[name] = ts
		}
	}
	return m
})
