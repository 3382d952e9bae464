package gms

import (
	"context"
	"slices"

	"github.com/catalogkit/datahub-go/mockserver/internal/index"
)

// SearchSorted runs q as [Core.Search] does, ordered by sort instead of by
// score when sort is not empty, as GMS's search with sortCriteria: the
// matches sorted by the fields' values (numbers as numbers, an entity
// without the field last, then by URN), then paged from q.Start. The
// facets are those of every match.
func (c *Core) SearchSorted(ctx context.Context, q Query, sort []SortCriterion) (SearchResult, error) {
	if len(sort) == 0 {
		return c.Search(ctx, q)
	}
	count := ClampCount(q.Count)
	if q.Start < 0 || q.Start+count > index.MaxWindow {
		return c.Search(ctx, q) // the page GMS refuses (or answers empty) whatever the order
	}
	urns, byURN, facets, err := c.sortedHits(ctx, q, sort)
	if err != nil {
		return SearchResult{}, err
	}
	from := min(q.Start, len(urns))
	to := min(from+count, len(urns))
	page := make([]SearchHit, 0, to-from)
	for _, u := range urns[from:to] {
		page = append(page, byURN[u])
	}
	return SearchResult{Start: q.Start, Total: len(urns), PageSize: count, Hits: slices.Clip(page), Facets: facets}, nil
}

// sortedHits are every match of q's types, text and filter, their URNs
// sorted by sort, each URN's hit, and the facets of all of them.
func (c *Core) sortedHits(ctx context.Context, q Query, sort []SortCriterion) ([]string, map[string]SearchHit, []Facet, error) {
	sq := q
	sq.Start, sq.Count = 0, MaxCount
	var hits []SearchHit
	var facets []Facet
	id := ""
	for first := true; ; first = false {
		res, err := c.Scroll(ctx, sq, id, "1m")
		if err != nil {
			return nil, nil, nil, err
		}
		if first {
			facets = res.Facets
			sq.SkipAggregates = true
		}
		hits = append(hits, res.Hits...)
		if res.NextScrollID == "" {
			break
		}
		id = res.NextScrollID
	}
	urns := make([]string, len(hits))
	byURN := make(map[string]SearchHit, len(hits))
	for i, h := range hits {
		urns[i] = h.URN
		byURN[h.URN] = h
	}
	c.sortByFields(urns, sort)
	return urns, byURN, facets, nil
}
