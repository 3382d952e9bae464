package gms

import (
	"context"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// ExistsIncluding reports whether urn exists as GMS's
// entities?action=exists: with includeSoftDeleted a soft-deleted entity
// exists, without it only a live one does.
func (c *Core) ExistsIncluding(ctx context.Context, urn string, includeSoftDeleted bool) (bool, error) {
	if includeSoftDeleted {
		return c.Exists(ctx, urn)
	}
	return c.Live(ctx, urn)
}

// FilterExisting returns the URNs of urns that exist (see
// [Core.ExistsIncluding]), each once, in the order given, as GMS's
// entities?action=filterExistingUrns. Every URN is checked first: an
// invalid one fails the call.
func (c *Core) FilterExisting(ctx context.Context, urns []string, includeSoftDeleted bool) ([]string, error) {
	for _, u := range urns {
		if _, err := CheckURN(u); err != nil {
			return nil, err
		}
	}
	out := []string{}
	seen := map[string]bool{}
	for _, u := range urns {
		if seen[u] {
			continue
		}
		seen[u] = true
		ok, err := c.ExistsIncluding(ctx, u, includeSoftDeleted)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, u)
		}
	}
	return out, nil
}

// EntityCount is the number of documents of entityType's search index that
// a search counts (soft-deleted entities left out), as GMS's
// getTotalEntityCount (EntitySearchService.docCount). An unknown entity
// type is UnknownEntity.
func (c *Core) EntityCount(ctx context.Context, entityType string) (int, error) {
	if _, ok := lookupEntity(entityType); !ok {
		return 0, errorf(UnknownEntity, MsgUnknownEntity, Abbreviate(entityType))
	}
	res, err := c.Search(ctx, Query{Types: []string{entityType}, Count: 0, SkipAggregates: true})
	if err != nil {
		return 0, errorf(Internal, "%v", err)
	}
	return res.Total, nil
}

// URNPage is a page of [Core.ListURNs].
type URNPage struct {
	URNs         []string
	Start, Total int
}

// ListURNs pages through the URNs of entityType's entities in the store
// (those whose key aspect is written, soft-deleted ones included), as GMS's
// entities?action=listUrns reads them from its aspect table: start is an
// offset, count the page size; the order is the store's, stable while
// nothing is written. A negative start or count is BadArgument.
func (c *Core) ListURNs(ctx context.Context, entityType string, start, count int) (URNPage, error) {
	c.barrier()
	e, ok := lookupEntity(entityType)
	if !ok {
		return URNPage{}, errorf(UnknownEntity, MsgUnknownEntity, Abbreviate(entityType))
	}
	if start < 0 || count < 0 {
		return URNPage{}, errorf(BadArgument, MsgListURNsRange, start, count)
	}
	prefix := "urn:li:" + entityType + ":"
	total, err := c.st.Count(ctx, e.KeyAspect, func(u string) bool { return strings.HasPrefix(u, prefix) })
	if err != nil {
		return URNPage{}, errorf(Internal, MsgStore, err)
	}
	out := URNPage{Start: start, Total: total, URNs: []string{}}
	if count == 0 {
		return out, nil
	}
	rows, err := c.st.Rows(store.RowQuery{URNPrefix: prefix, Aspect: e.KeyAspect, Offset: start, Limit: count})
	if err != nil {
		return URNPage{}, errorf(Internal, MsgStore, err)
	}
	for _, r := range rows {
		out.URNs = append(out.URNs, r.URN)
	}
	return out, nil
}
