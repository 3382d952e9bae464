package gms

import (
	"context"
	"encoding/json"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// UpdateFunc computes an aspect's next value from its current one (nil when
// the aspect is absent; read-only). It runs under the store's writer lock,
// so it must be quick and must not call the core.
type UpdateFunc func(current json.RawMessage) (next json.RawMessage, err error)

// UpdateOptions say how [Core.Update] writes.
type UpdateOptions struct {
	// SystemMetadata is the write's systemMetadata object (nil: none), as a
	// proposal's.
	SystemMetadata json.RawMessage
	// Headers are the write's condition headers (If-Version-Match, ...), as
	// a proposal's.
	Headers map[string]string
	// IfEntityMissing, when set, makes the refusal of the write when the
	// entity urn does not exist (its key aspect was never written, or it
	// was deleted) at the moment the write is applied: it is checked inside
	// the store's writer lock, so that a delete cannot land between the
	// check and the write. nil: the write creates the entity if it does not
	// exist.
	IfEntityMissing func(urn string) *Error
}

// Update is a read-modify-write of aspect of urn: fn gets the latest value
// and returns the next one, which is validated and written as an UPSERT, all
// inside the store's writer lock, so that no concurrent write is lost
// between the read and the write. Every adapter that changes an aspect from
// its current value uses it. An error fn returns is returned unchanged and
// writes nothing; a refused value or condition is an *Error.
func (c *Core) Update(ctx context.Context, urn, aspect string, fn UpdateFunc, o UpdateOptions) error {
	var fnErr error
	wrapped := func(cur json.RawMessage) (json.RawMessage, error) {
		next, err := fn(cur)
		if err != nil {
			fnErr = err
		}
		return next, err
	}
	p := Proposal{EntityType: EntityTypeOf(urn), EntityURN: urn, ChangeType: "UPSERT", AspectName: aspect,
		ContentType: "application/json", SystemMetadata: o.SystemMetadata, Headers: o.Headers}
	var w store.Write
	if perr := prepare(&p, c.patcher, c.opts.AcceptUnknown, wrapped, nil, &w); perr != nil {
		return perr
	}
	if o.IfEntityMissing != nil {
		w.Check = entityMustExist(urn, o.IfEntityMissing, w.Check)
	}
	ws := []store.Write{w}
	stampCaller(CallerOf(ctx), ws)
	c.barrier()
	if _, err := c.apply([]item{{}}, ws, false); err != nil {
		if fnErr != nil {
			return fnErr
		}
		return err
	}
	return nil
}

// updateWrite is the store transform of an update: fn's value, validated
// and compacted like any written aspect.
func updateWrite(fn UpdateFunc, info pdl.AspectInfo, entityType string, lax bool) func(json.RawMessage) (json.RawMessage, error) {
	return func(cur json.RawMessage) (json.RawMessage, error) {
		next, err := fn(cur)
		if err != nil {
			return nil, err
		}
		value, e := checkAspect(info, entityType, next, lax)
		if e != nil {
			return nil, e
		}
		value, _ = mutate(info, value)
		return value, nil
	}
}

// entityMustExist is a store check that refuses the write with
// missing(urn) when the entity does not exist, then runs next (nil: none),
// the write's own conditions.
func entityMustExist(urn string, missing func(string) *Error, next func(store.Current) error) func(store.Current) error {
	return func(cur store.Current) error {
		if !cur.EntityExists {
			return missing(urn)
		}
		if next != nil {
			return next(cur)
		}
		return nil
	}
}
