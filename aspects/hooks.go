package aspects

import (
	"reflect"
	"sync"

	"github.com/catalogkit/datahub-go/internal/hooks"
)

func init() { hooks.OwnAspect = ownAspect }

// ownAspect is hooks.OwnAspect: whether a's type is one this package
// declares for an aspect (T or *T) and that appends its own JSON. A type of
// another package that embeds one of these is not: its own methods
// (MarshalJSON, AspectName) may say otherwise.
func ownAspect(a any) bool { return ownTypes()[reflect.TypeOf(a)] }

// ownTypes returns the types ownAspect accepts: the typed aspects' T and
// *T that implement appender. The map is only read once made.
var ownTypes = sync.OnceValue(func() map[reflect.Type]bool {
	m := make(map[reflect.Type]bool)
	for _, name := range TypedAspects() {
		a, _ := New(name) // a *T
		for _, t := range []reflect.Type{reflect.TypeOf(a), reflect.TypeOf(a).Elem()} {
			if _, ok := reflect.New(t).Elem().Interface().(appender); ok {
				m[t] = true
			}
		}
	}
	return m
})
