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
// (incoming) is urn, of the given types (none: all), in the store's order.
func (c *Core) edges(urn string, types []string, incoming bool) ([]Edge, error) {
	var rows []Aspect
	var err error
	if incoming {
		rows, err = c.st.All()
	} else {
		rows, err = c.st.Latest(urn)
	}
	if err != nil {
		return nil, errorf(Internal, MsgStore, err)
	}
	var out []Edge
	for _, a := range rows {
		for _, e := range c.edgesOf(a) {
			if (incoming && e.Destination != urn) || (!incoming && e.Source != urn) {
				continue
			}
			if len(types) > 0 && !slices.Contains(types, e.Type) {
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
	all, err := c.edges(urn, types, incoming)
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
