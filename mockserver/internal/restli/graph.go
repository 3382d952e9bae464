package restli

import (
	"context"
	"strconv"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// entityRelationships is com.linkedin.common.EntityRelationships.
type entityRelationships struct {
	Start         int                  `json:"start"`
	Count         int                  `json:"count"`
	Total         int                  `json:"total"`
	Relationships []entityRelationship `json:"relationships"`
}

type entityRelationship struct {
	Type   string `json:"type"`
	Entity string `json:"entity"`
}

// getRelationships serves GET /relationships?urn=&types=List(..)&direction=
// INCOMING|OUTGOING[&start=&count=].
func getRelationships(h *Handler, ctx context.Context, c *Call) (any, error) {
	dir := c.Query.Get("direction")
	if dir != "INCOMING" && dir != "OUTGOING" {
		return nil, badRequest(msgBadRelDirection, dir)
	}
	start, count := queryInt(c, "start", 0), queryInt(c, "count", 200)
	p, err := h.core.Relationships(ctx, c.Query.Get("urn"), c.listQuery("types"), dir == "INCOMING", start, count)
	if err != nil {
		return nil, err
	}
	out := entityRelationships{Start: p.Start, Count: len(p.Edges), Total: p.Total, Relationships: []entityRelationship{}}
	for _, e := range p.Edges {
		other := e.Destination
		if dir == "INCOMING" {
			other = e.Source
		}
		out.Relationships = append(out.Relationships, entityRelationship{Type: e.Type, Entity: other})
	}
	return out, nil
}

// queryInt is the integer query parameter name, def when absent or not a
// number.
func queryInt(c *Call, name string, def int) int {
	if v := c.Query.Get(name); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return def
}

// deleteRelationships serves DELETE /relationships?urn=: the node and its
// edges leave the graph.
func deleteRelationships(h *Handler, ctx context.Context, c *Call) (any, error) {
	if err := h.core.RemoveGraphNode(ctx, c.Query.Get("urn")); err != nil {
		return nil, err
	}
	return Void{}, nil
}

// entityLineageResult is com.linkedin.metadata.graph.EntityLineageResult.
type entityLineageResult struct {
	Start         int                   `json:"start"`
	Count         int                   `json:"count"`
	Total         int                   `json:"total"`
	Filtered      int                   `json:"filtered"`
	Relationships []lineageRelationship `json:"relationships"`
}

type lineageRelationship struct {
	Type    string     `json:"type"`
	Entity  string     `json:"entity"`
	Paths   [][]string `json:"paths"`
	Path    []string   `json:"path"`
	Degree  int        `json:"degree"`
	Degrees []int      `json:"degrees,omitempty"`
}

// getLineage serves relationships?action=getLineage: the entities the
// lineage walk reaches from urn (maxHops 1 by default), each with the type
// of the last edge of its path.
func getLineage(h *Handler, ctx context.Context, c *Call) (any, error) {
	dir := c.str("direction")
	if dir != "UPSTREAM" && dir != "DOWNSTREAM" {
		return nil, badRequest(msgBadDirection, dir)
	}
	u := c.str("urn")
	if _, err := gms.CheckURN(u); err != nil {
		return nil, err
	}
	hops := c.integer("maxHops", 1)
	q := gms.LineageQuery{Query: gms.Query{Text: "*", Start: c.integer("start", 0), Count: c.integer("count", 100), SkipAggregates: true},
		URN: u, Upstream: dir == "UPSTREAM"}
	if hops > 0 && hops < 3 {
		vals := []string{"1"}
		if hops == 2 {
			vals = append(vals, "2")
		}
		q.Filter = gms.Filter{{{Field: "degree", Condition: gms.CondEqual, Values: vals}}}
	}
	res, err := h.core.SearchLineage(ctx, q)
	if err != nil {
		return nil, searchError(err)
	}
	out := entityLineageResult{Start: res.Start, Count: len(res.Hits), Total: res.Total, Relationships: []lineageRelationship{}}
	for _, hit := range res.Hits {
		lr := lineageRelationship{Entity: hit.URN, Paths: [][]string{}, Path: []string{}, Degree: hit.Degree, Degrees: []int{hit.Degree}}
		lr.Paths = append(lr.Paths, hit.Paths...)
		if len(hit.Paths) > 0 {
			lr.Path = hit.Paths[0]
			if p := hit.Paths[0]; len(p) >= 2 {
				lr.Type = h.core.EdgeType(p[len(p)-2], p[len(p)-1])
			}
		}
		out.Relationships = append(out.Relationships, lr)
	}
	return out, nil
}

// deleteReferencesResponse is com.linkedin.metadata.run.DeleteReferencesResponse.
type deleteReferencesResponse struct {
	RelatedAspects []relatedAspect `json:"relatedAspects"`
	Total          int             `json:"total"`
}

type relatedAspect struct {
	Entity       string `json:"entity"`
	Aspect       string `json:"aspect"`
	Relationship string `json:"relationship"`
}

// deleteReferences serves entities?action=deleteReferences (dryRun false
// by default).
func deleteReferences(h *Handler, ctx context.Context, c *Call) (any, error) {
	dry := false
	if b := c.boolean("dryRun"); b != nil {
		dry = *b
	}
	related, err := h.core.DeleteReferences(ctx, c.str("urn"), dry)
	if err != nil {
		return nil, err
	}
	out := deleteReferencesResponse{RelatedAspects: []relatedAspect{}, Total: len(related)}
	for _, r := range related {
		out.RelatedAspects = append(out.RelatedAspects, relatedAspect{Entity: r.Entity, Aspect: r.Aspect, Relationship: r.Relationship})
	}
	return out, nil
}
