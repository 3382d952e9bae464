package gms

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/index"
)

// Edge is one edge of the graph DataHub's graph service keeps: an
// @Relationship field of a source entity's aspect naming a destination URN.
type Edge struct {
	// Type is the relationship's name ("DownstreamOf", "OwnedBy").
	Type string
	// Source and Destination are the URNs at the edge's ends.
	Source, Destination string
}

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

// Edges returns the edges q selects, in (source, type, destination) order,
// from the search index's entity documents (which follow the store after
// the async lag, as DataHub's graph index does). Each source aspect's
// @Relationship fields give the edges (package pdl's Relationships). The
// mock keeps no graph index of its own: a query reads every entity
// document once. It stops with ctx's error when ctx ends.
func (c *Core) Edges(ctx context.Context, q EdgeQuery) ([]Edge, error) {
	c.barrier()
	var out []Edge
	removed := map[string]bool{}
	var stop error
	seen := 0
	for _, ent := range pdl.Entities() {
		c.ix.Each(index.EntityIndexName(ent.Name), func(d *index.Document) bool {
			if seen++; seen%listCheckEvery == 0 {
				if stop = ctx.Err(); stop != nil {
					return false
				}
			}
			if Removed(d.Aspects["status"]) {
				removed[d.URN] = true
			}
			if q.Source != "" && d.URN != q.Source {
				return true
			}
			for aspect, value := range d.Aspects {
				for _, rel := range pdl.Relationships(aspect) {
					if len(q.Types) > 0 && !slices.Contains(q.Types, rel.Name) {
						continue
					}
					for _, raw := range pdl.ValuesAt(value, rel.Path) {
						dst, ok := urnText(raw)
						if !ok || q.Destination != "" && dst != q.Destination {
							continue
						}
						out = append(out, Edge{Type: rel.Name, Source: d.URN, Destination: dst})
					}
				}
			}
			return true
		})
		if stop != nil {
			return nil, stop
		}
	}
	if !q.IncludeRemoved {
		out = slices.DeleteFunc(out, func(e Edge) bool { return removed[e.Source] || removed[e.Destination] })
	}
	slices.SortFunc(out, func(a, b Edge) int {
		return cmp.Or(strings.Compare(a.Source, b.Source), strings.Compare(a.Type, b.Type), strings.Compare(a.Destination, b.Destination))
	})
	return slices.Compact(out), nil
}

// urnText reads a JSON string holding a URN.
func urnText(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	s, ok := pdl.UnquoteJSON(raw)
	if !ok || !strings.HasPrefix(s, "urn:li:") {
		return "", false
	}
	return s, true
}
