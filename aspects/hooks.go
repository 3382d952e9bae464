package aspects

import "github.com/catalogkit/datahub-go/internal/hooks"

func init() { hooks.OwnAspect = ownAspect }

// ownAspect is hooks.OwnAspect: whether a appends its own JSON.
func ownAspect(a any) bool {
	_, ok := a.(appender)
	return ok
}
