package index

import (
	"fmt"
	"slices"
	"strconv"
)

// MaxLineageHops bounds a lineage walk with no degree limit (DataHub's
// elasticsearch.search.graph.impact.maxHops).
const MaxLineageHops = 1000

// maxPaths bounds the paths kept per lineage hit.
const maxPaths = 100

// LineageQuery is a search over the entities a lineage walk reaches.
type LineageQuery struct {
	// Query filters and pages the reached entities as a search does; its
	// Filter may name the degree field (values "1", "2", "3+").
	Query
	// URN is where the walk starts.
	URN string
	// Upstream walks toward upstreams; false toward downstreams.
	Upstream bool
}

// degreeFilter splits DataHub's degree criteria off f: the walk's hop limit
// from the degree values of every clause (SearchUtils.getMaxHops: "3+"
// anywhere → no limit, else the largest of "2" and "1"), the result
// predicate from the first clause (LineageSearchService.filterRelationships:
// the values OR-ed), and f without them.
func degreeFilter(f Filter) (maxHops int, keep func(int) bool, rest Filter, err error) {
	var all []string
	for i, clause := range f {
		var kept []Criterion
		var first []string
		for _, c := range clause {
			if c.field() != "degree" {
				kept = append(kept, c)
				continue
			}
			for _, v := range c.Values {
				if v != "1" && v != "2" && v != "3+" {
					return 0, nil, nil, fmt.Errorf("%w: %s is not a valid filter value for degree filters", ErrBadQuery, v)
				}
				all = append(all, v)
				if i == 0 {
					first = append(first, v)
				}
			}
		}
		rest = append(rest, kept)
		if i == 0 && len(first) > 0 {
			keep = func(d int) bool {
				for _, v := range first {
					if (v == "1" && d == 1) || (v == "2" && d == 2) || (v == "3+" && d > 2) {
						return true
					}
				}
				return false
			}
		}
	}
	switch {
	case slices.Contains(all, "3+"), len(all) == 0:
		maxHops = MaxLineageHops
	case slices.Contains(all, "2"):
		maxHops = 2
	default:
		maxHops = 1
	}
	if keep == nil {
		keep = func(int) bool { return true }
	}
	return maxHops, keep, rest, nil
}

// SearchLineage answers an offset search over the entities the walk
// reaches, ordered by degree, then score, then URN. A node is reached at the
// fewest hops (degree) with its shortest paths; soft-deleted entities are
// neither returned nor walked through unless the query includes them.
// There is no result window: DataHub pages lineage results in memory.
func (x *Index) SearchLineage(q LineageQuery) (Result, error) {
	q.Count = ClampCount(q.Count)
	q.Start = max(q.Start, 0)
	hits, facets, err := x.lineage(q)
	if err != nil {
		return Result{}, err
	}
	page := hits[min(q.Start, len(hits)):]
	page = page[:min(q.Count, len(page))]
	return Result{Start: q.Start, Total: len(hits), PageSize: q.Count, Hits: slices.Clone(page), Facets: facets}, nil
}

// ScrollLineage answers a scroll over the entities the walk reaches, as
// [Index.Scroll] pages a search.
func (x *Index) ScrollLineage(q LineageQuery, id, keepAlive string) (Result, error) {
	return x.scroll(q.Query, id, keepAlive, func() ([]Hit, []Facet, error) { return x.lineage(q) })
}

func (x *Index) lineage(q LineageQuery) ([]Hit, []Facet, error) {
	maxHops, keep, filter, err := degreeFilter(q.Filter)
	if err != nil {
		return nil, nil, err
	}
	for _, clause := range filter {
		for _, c := range clause {
			if err := c.check(); err != nil {
				return nil, nil, fmt.Errorf("%w: %v", ErrBadQuery, err)
			}
		}
	}
	terms := queryTerms(q.Text)
	dropRemoved := !q.IncludeSoftDeleted && !filter.namesRemoved()
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	x.flushSearch()
	nodes := x.walk(q.URN, q.Upstream, maxHops, dropRemoved)
	var hits []Hit
	var docs []*searchDoc
	for u, n := range nodes {
		if u == q.URN || !keep(n.degree) {
			continue
		}
		d := x.docOf(u)
		if d == nil || (q.Types != nil && !slices.Contains(q.Types, d.entity)) ||
			(dropRemoved && slices.Contains(d.fields["removed"], "true")) || !filter.match(d) {
			continue
		}
		score, mf, ok := scoreDoc(d, terms)
		if !ok {
			continue
		}
		hits = append(hits, Hit{URN: u, Entity: d.entity, Score: score, Matched: mf, Degree: n.degree, Paths: n.paths})
		docs = append(docs, d)
	}
	sorted, sortedDocs := sortHits(hits, docs)
	var facets []Facet
	if !q.SkipAggregates {
		counts := map[string]int{}
		for _, h := range sorted {
			counts[degreeValue(h.Degree)]++
		}
		deg := Facet{Field: "degree", DisplayName: "Degree of Dependencies"}
		for _, v := range []string{"1", "2", "3+"} {
			deg.Values = append(deg.Values, FacetValue{Value: v, Count: counts[v]})
		}
		facets = append([]Facet{deg}, aggregate(q.Query, sortedDocs)...)
	}
	return sorted, facets, nil
}

func degreeValue(d int) string {
	if d > 2 {
		return "3+"
	}
	return strconv.Itoa(d)
}

// node is an entity the walk reached.
type node struct {
	degree int
	paths  [][]string
}

// walk is a breadth-first walk from src over the lineage edges, up to
// maxHops hops; x.mu is held.
func (x *Index) walk(src string, upstream bool, maxHops int, dropRemoved bool) map[string]*node {
	nodes := map[string]*node{src: {paths: [][]string{{src}}}}
	frontier := []string{src}
	for hop := 1; len(frontier) > 0 && hop <= maxHops; hop++ {
		var next []string
		for _, u := range frontier {
			from := nodes[u]
			for _, v := range x.neighbors(u, upstream) {
				n, seen := nodes[v]
				if seen && n.degree < hop {
					continue
				}
				if !seen {
					if d := x.docOf(v); dropRemoved && d != nil && slices.Contains(d.fields["removed"], "true") {
						continue
					}
					n = &node{degree: hop}
					nodes[v] = n
					next = append(next, v)
				}
				for _, p := range from.paths {
					if len(n.paths) == maxPaths {
						break
					}
					n.paths = append(n.paths, append(slices.Clip(p), v))
				}
			}
		}
		frontier = next
	}
	return nodes
}

// neighbors returns u's upstreams (or downstreams), sorted: the URNs u's
// own aspects name in that direction and the entities whose aspects name u
// in the other; x.mu is held.
func (x *Index) neighbors(u string, upstream bool) []string {
	own, other := fieldDownstreams, fieldUpstreams
	if upstream {
		own, other = fieldUpstreams, fieldDownstreams
	}
	var out []string
	if d := x.docOf(u); d != nil {
		out = append(out, d.fields[own]...)
	}
	for _, i := range x.indices {
		if i.search == nil {
			continue
		}
		for w := range i.search.post[other][u] {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// docOf returns u's search document, nil when it has none; x.mu is held.
func (x *Index) docOf(u string) *searchDoc {
	i := x.indices[EntityIndexName(entityTypeOf(u))]
	if i == nil || i.search == nil {
		return nil
	}
	return i.search.docs[u]
}
