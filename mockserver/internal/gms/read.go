package gms

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/like"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// Aspect is one stored version of an aspect.
type Aspect = store.Aspect

// TimeseriesDoc is one stored timeseries document.
type TimeseriesDoc = store.TimeseriesDoc

// AspectOf returns the registry facts of aspect name for entityType:
// UnknownEntity or UnknownAspect when there are none.
func AspectOf(entityType, name string) (pdl.AspectInfo, *Error) {
	e, ok := lookupEntity(entityType)
	if !ok {
		return pdl.AspectInfo{}, errorf(UnknownEntity, MsgUnknownEntity, Abbreviate(entityType))
	}
	if !e.Allows(name) {
		return pdl.AspectInfo{}, errorf(UnknownAspect, MsgUnknownAspect, Abbreviate(name), entityType)
	}
	info, ok := pdl.LookupAspect(name)
	if !ok {
		return pdl.AspectInfo{}, errorf(UnknownAspect, MsgUnknownAspect, Abbreviate(name), entityType)
	}
	return info, nil
}

// VersionedAspect is the answer of [Core.GetAspect].
type VersionedAspect struct {
	// RecordName is the aspect's Pegasus record name (the union member key of
	// DataHub's VersionedAspect).
	RecordName string
	Aspect
}

// GetAspect returns version (0 the latest, 1 the oldest) of aspect of urn,
// as GMS's AspectResource.get: the URN and names are checked (BadArgument,
// UnknownEntity, UnknownAspect); a timeseries aspect, a negative version or
// a missing row is a NotFound without message.
func (c *Core) GetAspect(ctx context.Context, urn, aspect string, version int64) (VersionedAspect, error) {
	c.barrier()
	parsed, err := CheckURN(urn)
	if err != nil {
		return VersionedAspect{}, err
	}
	info, err := AspectOf(parsed.EntityType(), aspect)
	if err != nil {
		return VersionedAspect{}, err
	}
	if info.Timeseries || version < 0 {
		return VersionedAspect{}, &Error{Kind: NotFound, Index: -1}
	}
	a, serr := c.st.Get(urn, aspect, version)
	if errors.Is(serr, store.ErrNotFound) {
		return VersionedAspect{}, &Error{Kind: NotFound, Index: -1}
	}
	if serr != nil {
		return VersionedAspect{}, errorf(Internal, MsgStore, serr)
	}
	return VersionedAspect{RecordName: info.RecordName, Aspect: a}, nil
}

// LoadAspect is the store's row of (urn, aspect, version) without the
// registry checks of GetAspect, for test helpers: NotFound with a message
// naming it when there is none.
func (c *Core) LoadAspect(ctx context.Context, urn, aspect string, version int64) (Aspect, error) {
	c.barrier()
	a, err := c.st.Get(urn, aspect, version)
	if errors.Is(err, store.ErrNotFound) {
		return Aspect{}, errorf(NotFound, "no version %d of aspect %s of %s", version, aspect, urn)
	}
	if err != nil {
		return Aspect{}, errorf(Internal, MsgStore, err)
	}
	return a, nil
}

// Entity is the answer of [Core.GetEntity].
type Entity struct {
	Name, URN string
	KeyAspect string
	// Aspects are the latest versions, sorted by name; a synthesised key
	// aspect has a zero CreatedOn and the system actor.
	Aspects []Aspect
}

// GetEntity returns the latest aspects of urn as GMS's EntityV2Resource.get:
// only those named in projection when it is not nil, the key aspect included
// when includeKey is set (synthesised from the URN when the entity has
// none). Nothing at all is a NotFound without message.
func (c *Core) GetEntity(ctx context.Context, urn string, projection []string, includeKey bool) (Entity, error) {
	c.barrier()
	parsed, err := CheckURN(urn)
	if err != nil {
		return Entity{}, err
	}
	e, ok := lookupEntity(parsed.EntityType())
	if !ok {
		return Entity{}, errorf(UnknownEntity, MsgUnknownEntity, Abbreviate(parsed.EntityType()))
	}
	rows, serr := c.st.Latest(urn)
	if serr != nil {
		return Entity{}, errorf(Internal, MsgStore, serr)
	}
	out := Entity{Name: e.Name, URN: urn, KeyAspect: e.KeyAspect}
	hasKey := false
	for _, a := range rows {
		if projection != nil && !slices.Contains(projection, a.Name) && !(includeKey && a.Name == e.KeyAspect) {
			continue
		}
		hasKey = hasKey || a.Name == e.KeyAspect
		out.Aspects = append(out.Aspects, a)
	}
	if !hasKey && includeKey {
		// GMS synthesises the key aspect from the URN (which is why DataHub's
		// client warns not to use this read to decide existence).
		if kv, err := keyFromURN(e, urn); err == nil && kv != nil {
			out.Aspects = append(out.Aspects, Aspect{URN: urn, Name: e.KeyAspect, Value: kv, CreatedBy: DefaultActor})
			slices.SortFunc(out.Aspects, func(a, b Aspect) int { return strings.Compare(a.Name, b.Name) })
		}
	}
	if len(out.Aspects) == 0 {
		return Entity{}, &Error{Kind: NotFound, Index: -1}
	}
	return out, nil
}

// TimeseriesQuery selects timeseries documents.
type TimeseriesQuery struct {
	URN, Entity, Aspect string
	// StartMillis and EndMillis bound timestampMillis (0: unbounded).
	StartMillis, EndMillis int64
	// Limit is the most documents returned; <= 0 returns none.
	Limit int64
}

// Timeseries returns the documents of a timeseries aspect, newest first, as
// GMS's getTimeseriesAspectValues without filters.
func (c *Core) Timeseries(ctx context.Context, q TimeseriesQuery) ([]TimeseriesDoc, error) {
	c.barrier()
	if _, err := CheckURN(q.URN); err != nil {
		return nil, err
	}
	info, err := AspectOf(q.Entity, q.Aspect)
	if err != nil {
		return nil, err
	}
	if !info.Timeseries {
		return nil, errorf(BadArgument, MsgNotTimeseries, info.Name)
	}
	if q.Limit <= 0 {
		return nil, nil
	}
	docs, serr := c.st.Timeseries(q.URN, q.Aspect, q.StartMillis, q.EndMillis, int(min(q.Limit, 1<<31-1)))
	if serr != nil {
		return nil, errorf(Internal, MsgStore, serr)
	}
	return docs, nil
}

// Count returns the number of entities holding aspect, whose URN matches the
// SQL LIKE pattern urnLike when it is not nil (GMS's getCount).
func (c *Core) Count(ctx context.Context, aspect string, urnLike *string) (int, error) {
	c.barrier()
	if _, ok := pdl.LookupAspect(aspect); !ok {
		return 0, errorf(BadArgument, MsgUnknownAspectName, Abbreviate(aspect))
	}
	var match func(string) bool
	if urnLike != nil {
		match = like.Compile(*urnLike).Match
	}
	n, err := c.st.Count(ctx, aspect, match)
	if err != nil && ctx.Err() != nil {
		return 0, errorf(Internal, MsgStopped, err)
	}
	if err != nil {
		return 0, errorf(Internal, MsgStore, err)
	}
	return n, nil
}

// Deleted is the answer of [Core.DeleteEntity].
type Deleted struct {
	Rows, TimeseriesRows int
}

// DeleteEntity hard-deletes urn (every version of every aspect and its
// timeseries documents). A non-empty aspect (deleting one aspect) is
// Unsupported.
func (c *Core) DeleteEntity(ctx context.Context, urn, aspect string) (Deleted, error) {
	c.barrier()
	if _, err := CheckURN(urn); err != nil {
		return Deleted{}, err
	}
	if e := checkDeletable(urn); e != nil {
		return Deleted{}, e
	}
	if aspect != "" {
		return Deleted{}, errorf(Unsupported, MsgDeleteAspect, Abbreviate(aspect), Abbreviate(urn))
	}
	rows, ts, err := c.st.DeleteEntity(urn)
	if err != nil {
		return Deleted{}, errorf(Internal, MsgStore, err)
	}
	return Deleted{Rows: rows, TimeseriesRows: ts}, nil
}
