// Package emitctx carries, in a context, how one Emit call of the emitter
// must send its proposals, for callers inside this module (the client's
// Entities.Create) that need more than the public options say.
package emitctx

import "context"

type allOrNothingKey struct{}

// WithAllOrNothing returns ctx marked so that an Emit with it writes all of
// its proposals or none: they go in one request (over OpenAPI, CREATE and
// CREATE_ENTITY as elements of one batch POST conditional on the aspect's
// absence, If-Version-Match: -1), a refused request is not split to write
// the proposals not at fault, and proposals that would need more than one
// request are refused before anything is sent.
func WithAllOrNothing(ctx context.Context) context.Context {
	return context.WithValue(ctx, allOrNothingKey{}, true)
}

// AllOrNothing reports whether ctx was marked by WithAllOrNothing.
func AllOrNothing(ctx context.Context) bool {
	on, _ := ctx.Value(allOrNothingKey{}).(bool)
	return on
}
