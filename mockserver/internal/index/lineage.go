package index

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxLineageHops bounds a lineage walk with no degree limit (DataHub's
// elasticsearch.search.graph.impact.maxHops).
const MaxLineageHops = 1000

// maxPaths bounds the paths of a lineage hit: the first ones the walk finds.
// DataHub keeps every shortest path; the mock keeps at most this many.
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
	// KeepSchemaFields returns the schema fields the walk reaches as hits of
	// their own. False is DataHub's default grouping spec (schemaField
	// grouped by dataset): each is replaced by its parent entity, whose hit
	// has the degree of its first field reached and the paths of all its
	// fields (up to [maxPaths]).
	KeepSchemaFields bool
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
// reaches, as [Index.SearchLineageContext] with a context that is never
// cancelled.
func (x *Index) SearchLineage(q LineageQuery) (Result, error) {
	return x.SearchLineageContext(context.Background(), q)
}

// SearchLineageContext answers an offset search over the entities the walk
// reaches, ordered by degree, then score, then URN. A node is reached at the
// fewest hops (degree) with its shortest paths; soft-deleted entities are
// neither returned nor walked through unless the query includes them.
// There is no result window: DataHub pages lineage results in memory. The
// walk stops with ctx's error once ctx is done.
func (x *Index) SearchLineageContext(ctx context.Context, q LineageQuery) (Result, error) {
	q.Count = ClampCount(q.Count)
	q.Start = max(q.Start, 0)
	r, err := x.lineage(ctx, q)
	if err != nil {
		return Result{}, err
	}
	page := r.hits[min(q.Start, len(r.hits)):]
	page = page[:min(q.Count, len(page))]
	res := Result{Start: q.Start, Total: len(r.hits), PageSize: q.Count, Hits: r.withPaths(page), Facets: r.facets}
	x.withAspects(q.Query, &res)
	return res, nil
}

// ScrollLineage answers a scroll over the entities the walk reaches, as
// [Index.ScrollLineageContext] with a context that is never cancelled.
func (x *Index) ScrollLineage(q LineageQuery, id, keepAlive string) (Result, error) {
	return x.ScrollLineageContext(context.Background(), q, id, keepAlive)
}

// ScrollLineageContext answers a scroll over the entities the walk reaches,
// as [Index.ScrollContext] pages a search.
func (x *Index) ScrollLineageContext(ctx context.Context, q LineageQuery, id, keepAlive string) (Result, error) {
	key := q
	key.Start, key.Count, key.WithAspects = 0, 0, false
	return x.scroll(ctx, q.Query, fmt.Sprintf("lineage %#v", key), id, keepAlive,
		func() (*results, error) { return x.lineage(ctx, q) })
}

// lineage evaluates q: the hits, without their paths (see
// results.withPaths), in order, and the facets.
func (x *Index) lineage(ctx context.Context, q LineageQuery) (*results, error) {
	if err := checkQueryLength(q.Text); err != nil {
		return nil, err
	}
	maxHops, keep, filter, err := degreeFilter(q.Filter)
	if err != nil {
		return nil, err
	}
	for _, clause := range filter {
		for _, c := range clause {
			if err := c.check(); err != nil {
				return nil, fmt.Errorf("%w: %v", ErrBadQuery, err)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	filter = filter.prepared()
	terms, err := parseQuery(q.Text, q.Structured)
	if err != nil {
		return nil, err
	}
	dropRemoved := !q.IncludeSoftDeleted && !filter.namesRemoved()
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	x.flushSearch()
	g, err := x.walk(ctx, q.URN, q.Upstream, maxHops, dropRemoved)
	if err != nil {
		return nil, err
	}
	var hits []Hit
	var docs []*searchDoc
	var grouped map[string][]int32
	if !q.KeepSchemaFields && entityTypeOf(q.URN) == "schemaField" {
		grouped = map[string][]int32{}
	}
	for i, u := range g.urns {
		if i == 0 || !keep(g.degree[i]) {
			continue
		}
		if grouped != nil && entityTypeOf(u) == "schemaField" {
			u = schemaFieldParent(u)
		}
		if grouped != nil { // one hit per URN, with the paths of all its nodes
			nodes, seen := grouped[u]
			grouped[u] = append(nodes, int32(i))
			if seen {
				continue
			}
		}
		d := x.docOf(u)
		if d == nil || (q.Types != nil && !slices.Contains(q.Types, d.entity)) ||
			(dropRemoved && slices.Contains(d.fields["removed"], "true")) || !filter.match(d) {
			continue
		}
		score, mf, ok := terms.score(d)
		if !ok {
			continue
		}
		hits = append(hits, Hit{URN: u, Entity: d.entity, Score: score, Matched: mf, Degree: g.degree[i]})
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
	g.grouped = grouped
	return &results{hits: sorted, facets: facets, gen: x.gen, graph: g}, nil
}

func degreeValue(d int) string {
	if d > 2 {
		return "3+"
	}
	return strconv.Itoa(d)
}

// graph is what a lineage walk reached: every node once, the start first,
// with its degree and the predecessors its paths come from. The paths
// themselves are built only for the hits a page returns, within the page's
// bounds (see graph.pagePaths): a node's paths are its predecessors' paths,
// in the order the walk met them, each extended by the node, the first
// [maxPaths] of them.
type graph struct {
	urns   []string
	ids    map[string]int32
	degree []int
	// preds are, per node, the predecessors the walk took its paths from
	// (none once it had maxPaths); count its number of paths.
	preds [][]int32
	count []int
	// via holds the via entity of an edge (pred, node) of the paths that
	// goes through one (a query an upstream was derived through), which a
	// path lists between the two, as DataHub's graph search does.
	via map[[2]int32]string
	// grouped maps the parent of each schema field hit of a grouped result
	// to the nodes of its fields (see LineageQuery.KeepSchemaFields).
	grouped map[string][]int32
}

// walk is a breadth-first walk from src over the lineage edges, up to
// maxHops hops; x.mu is held. It stops with ctx's error once ctx is done.
func (x *Index) walk(ctx context.Context, src string, upstream bool, maxHops int, dropRemoved bool) (*graph, error) {
	g := &graph{urns: []string{src}, ids: map[string]int32{src: 0}, degree: []int{0}, preds: [][]int32{nil}, count: []int{1}}
	frontier := []int32{0}
	followed := 0
	defer func() { x.tested += followed }()
	for hop := 1; len(frontier) > 0 && hop <= maxHops; hop++ {
		var next []int32
		for _, u := range frontier {
			for _, v := range x.neighbors(g.urns[u], upstream) {
				followed++
				if followed%checkEvery == 0 {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
				}
				n, seen := g.ids[v]
				if seen && g.degree[n] < hop {
					continue
				}
				if !seen {
					if d := x.docOf(v); dropRemoved && d != nil && slices.Contains(d.fields["removed"], "true") {
						continue
					}
					n = int32(len(g.urns))
					g.ids[v] = n
					g.urns = append(g.urns, v)
					g.degree = append(g.degree, hop)
					g.preds = append(g.preds, nil)
					g.count = append(g.count, 0)
					next = append(next, n)
				}
				if g.count[n] < maxPaths {
					if via := x.viaOf(g.urns[u], v, upstream); via != "" {
						if g.via == nil {
							g.via = map[[2]int32]string{}
						}
						g.via[[2]int32{u, n}] = via
					}
					g.preds[n] = append(g.preds[n], u)
					g.count[n] = min(maxPaths, g.count[n]+g.count[u])
				}
			}
		}
		frontier = next
	}
	return g, nil
}

// maxPagePaths and maxPageFirstPaths bound the URNs of a page's paths, so
// that the cost of a page and the size of its answer stay small however
// deep the graph: a page's hits get all their paths (up to [maxPaths]) in
// order while the page's paths hold at most maxPagePaths URNs; the hits
// after that get their first path only while the page holds at most
// maxPageFirstPaths, and none beyond.
const (
	maxPagePaths      = 50_000
	maxPageFirstPaths = 1_000_000
)

// pathRef is one path of a node: the path i of pred extended by the node
// (pred -1: the walk's start, a path of its own).
type pathRef struct{ pred, i int32 }

// pathRefs returns n's paths as references to its predecessors' paths,
// memoized in refs: its predecessors' paths in the order the walk met
// them, each extended by n, the first [maxPaths] of them. A reference
// costs 8 bytes however long its path.
func (g *graph) pathRefs(n int32, refs map[int32][]pathRef) []pathRef {
	if r, ok := refs[n]; ok {
		return r
	}
	var out []pathRef
	if n == 0 {
		out = []pathRef{{pred: -1}}
	}
	for _, p := range g.preds[n] {
		k := min(len(g.pathRefs(p, refs)), maxPaths-len(out))
		for i := range k {
			out = append(out, pathRef{pred: p, i: int32(i)})
		}
	}
	refs[n] = out
	return out
}

// path returns path i of n (see pathRefs), from the walk's start to n: a
// shortest path, degree(n)+1 URNs long, with the via entity of each edge
// that has one between its two ends.
func (g *graph) path(n int32, i int, refs map[int32][]pathRef) []string {
	out := make([]string, g.degree[n]+1)
	var vias []string // by the index of the edge's far end in out
	for k := len(out) - 1; k >= 0 && n >= 0; k-- {
		out[k] = g.urns[n]
		r := refs[n][i]
		if via := g.via[[2]int32{r.pred, n}]; via != "" && r.pred >= 0 {
			if vias == nil {
				vias = make([]string, len(out))
			}
			vias[k] = via
		}
		n, i = r.pred, int(r.i)
	}
	if vias == nil {
		return out
	}
	with := make([]string, 0, len(out)+len(vias))
	for k, u := range out {
		if vias[k] != "" {
			with = append(with, vias[k])
		}
		with = append(with, u)
	}
	return with
}

// pagePaths sets the paths of hits, a page, within the page's bounds (see
// maxPagePaths).
func (g *graph) pagePaths(hits []Hit) {
	refs := map[int32][]pathRef{}
	used := 0
	for h := range hits {
		nodes, ok := g.grouped[hits[h].URN]
		if !ok {
			n, ok := g.ids[hits[h].URN]
			if !ok {
				continue
			}
			nodes = []int32{n}
		}
		for _, n := range nodes {
			all := g.pathRefs(n, refs)
			length := g.degree[n] + 1
			k := min(len(all), maxPaths-len(hits[h].Paths))
			if used+k*length > maxPagePaths {
				k = max((maxPagePaths-used)/length, 1)
			}
			if used+k*length > maxPageFirstPaths {
				k = 0
			}
			if k <= 0 {
				continue
			}
			for i := range k {
				hits[h].Paths = append(hits[h].Paths, g.path(n, i, refs))
			}
			used += k * length
		}
	}
}

// size is about the bytes g holds (its URNs are shared with the index).
func (g *graph) size() int {
	n := 0
	for _, ps := range g.preds {
		n += 4 * len(ps)
	}
	return n + len(g.urns)*(16+8+24+8+48)
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
	out = append(out, x.fineNeighbors(u, upstream)...)
	slices.Sort(out)
	return slices.Compact(out)
}

// viaOf is the via entity of the lineage edge between u and its neighbor
// v ("" for none): the edge is defined by the downstream one's aspects
// (u walking upstream, v walking downstream); x.mu is held.
func (x *Index) viaOf(u, v string, upstream bool) string {
	if entityTypeOf(u) == "schemaField" && entityTypeOf(v) == "schemaField" {
		if via := x.fineVia(u, v, upstream); via != "" {
			return via
		}
	}
	holder, other := v, u
	if upstream {
		holder, other = u, v
	}
	d := x.docOf(holder)
	if d == nil {
		return ""
	}
	for _, e := range d.fields[fieldVia] {
		if n, via, ok := strings.Cut(e, "\x00"); ok && n == other {
			return via
		}
	}
	return ""
}

// docOf returns u's search document, nil when it has none; x.mu is held.
func (x *Index) docOf(u string) *searchDoc {
	i := x.indices[EntityIndexName(entityTypeOf(u))]
	if i == nil || i.search == nil {
		return nil
	}
	return i.search.docs[u]
}
