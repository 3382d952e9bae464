package gms

import (
	"cmp"
	"context"
	"slices"
	"strings"
)

// EdgeQuery selects edges.
type EdgeQuery struct {
	// Source and Destination, when not "", are the URN the edge starts or
	// ends at.
	Source, Destination string
	// Types are the relationship names (empty: any).
	Types []string
	// IncludeRemoved keeps edges whose source or destination is
	// soft-deleted.
	IncludeRemoved bool
}

// Edges returns the edges q selects, in (source, type, destination) order.
// They are the ones [Core.Relationships] reads: each latest aspect's
// @Relationship fields (edgesOf), less those the graph removed. It stops
// with ctx's error when ctx ends.
func (c *Core) Edges(ctx context.Context, q EdgeQuery) ([]Edge, error) {
	c.barrier()
	out, err := c.findEdges(ctx, q)
	if err != nil {
		return nil, err
	}
	if !q.IncludeRemoved {
		removed := map[string]bool{}
		isRemoved := func(u string) bool {
			r, ok := removed[u]
			if !ok {
				r = c.removed(u)
				removed[u] = r
			}
			return r
		}
		out = slices.DeleteFunc(out, func(e Edge) bool { return isRemoved(e.Source) || isRemoved(e.Destination) })
	}
	slices.SortFunc(out, func(a, b Edge) int {
		return cmp.Or(strings.Compare(a.Source, b.Source), strings.Compare(a.Type, b.Type), strings.Compare(a.Destination, b.Destination))
	})
	return slices.CompactFunc(out, func(a, b Edge) bool {
		return a.Source == b.Source && a.Type == b.Type && a.Destination == b.Destination
	}), nil
}
