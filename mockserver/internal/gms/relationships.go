package gms

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
)

// Edge is one relationship of the graph GMS derives from aspects'
// @Relationship annotations: Source's aspect names Destination.
type Edge struct {
	Type, Source, Destination, Aspect string
}

// edgesOf are the edges aspect a of urn defines, in the annotations' order
// and the values' order. Edges the graph removed (see
// [Core.RemoveGraphNode]) before the aspect was written are left out.
func (c *Core) edgesOf(a Aspect) []Edge {
	rels := pdl.Relationships(a.Name)
	if len(rels) == 0 {
		return nil
	}
	var out []Edge
	for _, r := range rels {
		for _, raw := range jsonx.ValuesAt(a.Value, r.Path) {
			var dst string
			if json.Unmarshal(raw, &dst) != nil || !strings.HasPrefix(dst, "urn:li:") {
				continue
			}
			if len(r.EntityTypes) > 0 && !slices.Contains(r.EntityTypes, EntityTypeOf(dst)) {
				continue
			}
			out = append(out, Edge{Type: r.Name, Source: a.URN, Destination: dst, Aspect: a.Name})
		}
	}
	c.ops.mu.Lock()
	defer c.ops.mu.Unlock()
	if len(c.ops.graphRemoved) == 0 {
		return out
	}
	return slices.DeleteFunc(out, func(e Edge) bool {
		for _, n := range []string{e.Source, e.Destination} {
			if at, ok := c.ops.graphRemoved[n]; ok && !a.CreatedOn.After(at) {
				return true
			}
		}
		return false
	})
}

// edges returns the edges whose source (outgoing) or destination
// (incoming) is urn, of the given types (none: all), in the store's order
// of their sources.
func (c *Core) edges(ctx context.Context, urn string, types []string, incoming bool) ([]Edge, error) {
	q := EdgeQuery{Source: urn, Types: types, IncludeRemoved: true}
	if incoming {
		q = EdgeQuery{Destination: urn, Types: types, IncludeRemoved: true}
	}
	return c.findEdges(ctx, q)
}

// findEdges returns the edges q selects, by source, in the order of each
// source's aspects: the latest aspects of q.Source when set; else of the
// entities the search index finds naming q.Destination (its postings, as
// DataHub's graph index answers: O(answer)); else of every entity the
// index finds naming any URN in a relationship field (O(edges), not a
// walk of the store). The
// soft-deleted are not left out here. It stops with ctx's error when ctx
// ends.
func (c *Core) findEdges(ctx context.Context, q EdgeQuery) ([]Edge, error) {
	var sources []string
	var rows []Aspect
	switch {
	case q.Source != "":
		sources = []string{q.Source}
	case q.Destination != "":
		sources = c.ix.Referrers(q.Destination)
	default:
		sources = c.ix.RelatedSources()
	}
	for _, s := range sources {
		latest, err := c.st.Latest(s)
		if err != nil {
			return nil, errorf(Internal, MsgStore, err)
		}
		rows = append(rows, latest...)
	}
	var out []Edge
	for i, a := range rows {
		if i%listCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for _, e := range c.edgesOf(a) {
			if q.Source != "" && e.Source != q.Source || q.Destination != "" && e.Destination != q.Destination ||
				len(q.Types) > 0 && !slices.Contains(q.Types, e.Type) {
				continue
			}
			out = append(out, e)
		}
	}
	return out, nil
}

// RelationshipPage is a page of [Core.Relationships].
type RelationshipPage struct {
	Edges        []Edge
	Start, Total int
}

// Relationships returns the edges of urn of the given types, incoming
// (the entities that name urn) or outgoing (those urn names), from start,
// at most count, as GMS's relationships GET (GraphService.findRelatedEntities).
// The edges come from the latest aspects' @Relationship fields.
func (c *Core) Relationships(ctx context.Context, urn string, types []string, incoming bool, start, count int) (RelationshipPage, error) {
	c.barrier()
	if _, err := CheckURN(urn); err != nil {
		return RelationshipPage{}, err
	}
	all, err := c.edges(ctx, urn, types, incoming)
	if err != nil {
		return RelationshipPage{}, err
	}
	return RelationshipPage{Edges: page(all, start, count), Start: start, Total: len(all)}, nil
}

// RemoveGraphNode removes urn and its edges from the graph, as GMS's
// relationships DELETE (GraphService.removeNode): the aspects stay, and an
// edge an aspect defines comes back when that aspect is written again.
func (c *Core) RemoveGraphNode(ctx context.Context, urn string) error {
	c.barrier()
	if _, err := CheckURN(urn); err != nil {
		return err
	}
	c.ops.mu.Lock()
	defer c.ops.mu.Unlock()
	if c.ops.graphRemoved == nil {
		c.ops.graphRemoved = map[string]time.Time{}
	}
	c.ops.graphRemoved[urn] = c.opts.Clock().Truncate(time.Millisecond)
	return nil
}

// EdgeType returns the type of an edge between from and to (either way),
// "" when there is none.
func (c *Core) EdgeType(from, to string) string {
	for _, pair := range [][2]string{{from, to}, {to, from}} {
		rows, err := c.st.Latest(pair[0])
		if err != nil {
			continue
		}
		for _, a := range rows {
			for _, e := range c.edgesOf(a) {
				if e.Destination == pair[1] {
					return e.Type
				}
			}
		}
	}
	return ""
}
