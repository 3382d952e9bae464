package gms

import (
	"context"
	"errors"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// Live reports whether the entity urn exists and is not soft-deleted (its
// status aspect does not say removed), as GMS's EntityService.exists with
// includeSoftDelete false.
func (c *Core) Live(ctx context.Context, urn string) (bool, error) {
	ok, err := c.Exists(ctx, urn)
	if err != nil || !ok {
		return false, err
	}
	return !c.removed(urn), nil
}

// AspectLive reports whether the versioned aspect of urn has a row and the
// entity is not soft-deleted (EntityService.exists of an aspect).
func (c *Core) AspectLive(ctx context.Context, urn, aspect string) (bool, error) {
	c.barrier()
	if _, err := CheckURN(urn); err != nil {
		return false, err
	}
	_, err := c.st.Get(urn, aspect, 0)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, errorf(Internal, MsgStore, err)
	}
	return !c.removed(urn), nil
}

// removed reports whether urn's status aspect says removed: true.
func (c *Core) removed(urn string) bool {
	a, err := c.st.Get(urn, "status", 0)
	if err != nil {
		return false
	}
	return Removed(a.Value)
}

// DeleteAspects deletes every version of the named versioned aspects of urn,
// as GMS's deleteAspect; naming the key aspect deletes the whole entity
// (every row and timeseries document). Unknown names are ignored; a
// timeseries aspect is Unsupported.
func (c *Core) DeleteAspects(ctx context.Context, urn string, aspects []string) error {
	c.barrier()
	parsed, err := CheckURN(urn)
	if err != nil {
		return err
	}
	e, ok := lookupEntity(parsed.EntityType())
	if !ok {
		return errorf(UnknownEntity, MsgUnknownEntity, Abbreviate(parsed.EntityType()))
	}
	if de := checkDeletable(urn); de != nil {
		return de
	}
	for _, a := range aspects {
		if a == e.KeyAspect {
			_, derr := c.DeleteEntity(ctx, urn, "")
			return derr
		}
	}
	for _, a := range aspects {
		info, aerr := AspectOf(e.Name, a)
		if aerr != nil {
			continue
		}
		if info.Timeseries {
			return errorf(Unsupported, MsgDeleteTimeseries, info.Name)
		}
		if _, serr := c.st.DeleteAspect(urn, a); serr != nil {
			return errorf(Internal, MsgStore, serr)
		}
	}
	return nil
}
