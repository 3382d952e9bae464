package graphql

import (
	"context"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// msgLineageURN refuses a lineage search without a URN (the mock's words;
// DataHub's UrnUtils.requireUrn refuses it too).
const msgLineageURN = "A lineage search needs the urn of the entity it starts from (datahub-mock)"

// lineageTypes maps the input's types to registry names; none means every
// type with a GraphQL type but query (DataHub: every registry entity but
// query).
func lineageTypes(types *[]string) []string {
	if types != nil && len(*types) > 0 {
		return typesOf(types)
	}
	var out []string
	for name := range graphQLType {
		out = append(out, name)
	}
	for name := range urnOnlyTypes {
		if name != "query" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// lineageQuery builds the index's query; a blank query is "*" as in
// LineageSearchService, and the source URN is checked.
func lineageQuery(urn *string, direction string, types *[]string, query *string, f gms.Filter, flags *searchFlagsInput) (gms.LineageQuery, *gqlError) {
	if urn == nil || *urn == "" {
		return gms.LineageQuery{}, badRequest(msgLineageURN)
	}
	if _, err := gms.CheckURN(*urn); err != nil {
		return gms.LineageQuery{}, fromCore(err)
	}
	text := "*"
	if query != nil && strings.TrimSpace(*query) != "" {
		text = *query
	}
	q := gms.LineageQuery{URN: *urn, Upstream: direction == "UPSTREAM",
		Query: gms.Query{Types: lineageTypes(types), Text: text, Filter: f}}
	applyFlags(&q.Query, flags)
	return q, nil
}

type searchAcrossLineageInput struct {
	Urn         *string
	Direction   string
	Types       *[]string
	Query       *string
	Start       *int32
	Count       *int32
	Filters     *[]facetFilterInput
	OrFilters   *[]andFilterInput
	SearchFlags *searchFlagsInput
}

// SearchAcrossLineage resolves Query.searchAcrossLineage
// (SearchAcrossLineageResolver): start 0 and count 10 by default.
func (r *resolver) SearchAcrossLineage(ctx context.Context, a struct{ Input searchAcrossLineageInput }) (*lineageResultsR, error) {
	in := a.Input
	q, gerr := lineageQuery(in.Urn, in.Direction, in.Types, in.Query, buildFilter(in.Filters, in.OrFilters), in.SearchFlags)
	if gerr != nil {
		return nil, gerr
	}
	if e := charge(ctx); e != nil {
		return nil, e
	}
	q.Start, q.Count = intOr(in.Start, 0), intOr(in.Count, 10)
	wantHits := selectedParts(ctx, &q.Query)
	res, err := r.search.SearchLineage(ctx, q)
	if err != nil {
		return nil, searchFailed(q.Types, q.Text, q.Filter, q.Start, q.Count, err)
	}
	hits, gerr := r.lineageHits(ctx, res, wantHits(res.Hits))
	if gerr != nil {
		return nil, gerr
	}
	start := int32(res.Start)
	return &lineageResultsR{start: &start, count: int32(res.PageSize), total: int32(res.Total), results: hits,
		facets: facetsOf(res.Facets)}, nil
}

type scrollAcrossLineageInput struct {
	Urn         *string
	Direction   string
	Types       *[]string
	Query       *string
	ScrollId    *string
	KeepAlive   *string
	Count       *int32
	OrFilters   *[]andFilterInput
	SearchFlags *searchFlagsInput
}

// ScrollAcrossLineage resolves Query.scrollAcrossLineage
// (ScrollAcrossLineageResolver): count 10 and keep-alive "5m" by default.
func (r *resolver) ScrollAcrossLineage(ctx context.Context, a struct{ Input scrollAcrossLineageInput }) (*lineageResultsR, error) {
	in := a.Input
	q, gerr := lineageQuery(in.Urn, in.Direction, in.Types, in.Query, buildFilter(nil, in.OrFilters), in.SearchFlags)
	if gerr != nil {
		return nil, gerr
	}
	if e := charge(ctx); e != nil {
		return nil, e
	}
	q.Count = intOr(in.Count, 10)
	wantHits := selectedParts(ctx, &q.Query)
	id, keepAlive := scrollArgs(in.ScrollId, in.KeepAlive)
	res, err := r.search.ScrollLineage(ctx, q, id, keepAlive)
	if err != nil {
		return nil, searchFailed(q.Types, q.Text, q.Filter, 0, q.Count, err)
	}
	hits, gerr := r.lineageHits(ctx, res, wantHits(res.Hits))
	if gerr != nil {
		return nil, gerr
	}
	out := &lineageResultsR{count: int32(res.PageSize), total: int32(res.Total), results: hits, facets: facetsOf(res.Facets)}
	if res.NextScrollID != "" {
		out.next = &res.NextScrollID
	}
	return out, nil
}

// lineageHits loads the entities of a page and of their paths.
func (r *resolver) lineageHits(ctx context.Context, res gms.SearchResult, hs []gms.SearchHit) ([]*lineageResultR, *gqlError) {
	out := make([]*lineageResultR, 0, len(hs))
	loaded := map[string]*entityR{}
	for i, h := range hs { // the hits from their index documents; a path's other entities from the store
		if err := stopped(ctx, i); err != nil {
			return nil, err
		}
		e, err := r.loadHit(ctx, res, h)
		if err != nil {
			return nil, err
		}
		loaded[h.URN] = newEntityR(e)
	}
	get := func(u string) (*entityR, *gqlError) {
		if e, ok := loaded[u]; ok {
			return e, nil
		}
		e, err := r.load(ctx, u, "")
		if err != nil {
			return nil, err
		}
		loaded[u] = newEntityR(e)
		return loaded[u], nil
	}
	for i, h := range hs {
		if err := stopped(ctx, i); err != nil {
			return nil, err
		}
		e, err := get(h.URN)
		if err != nil {
			return nil, err
		}
		res := &lineageResultR{entity: e, degree: int32(h.Degree), matched: []*matchedFieldR{}}
		for _, m := range h.Matched {
			res.matched = append(res.matched, &matchedFieldR{m.Name, m.Value})
		}
		for _, p := range h.Paths {
			path := &entityPathR{}
			for _, u := range p {
				pe, err := get(u)
				if err != nil {
					return nil, err
				}
				path.path = append(path.path, pe)
			}
			res.paths = append(res.paths, path)
		}
		out = append(out, res)
	}
	return out, nil
}

// lineageResultsR is SearchAcrossLineageResults (start set) or
// ScrollAcrossLineageResults.
type lineageResultsR struct {
	start        *int32
	next         *string
	count, total int32
	results      []*lineageResultR
	facets       *[]*facetR
}

func (l *lineageResultsR) Start() int32 {
	if l.start == nil {
		return 0
	}
	return *l.start
}
func (l *lineageResultsR) NextScrollId() *string            { return l.next }
func (l *lineageResultsR) Count() int32                     { return l.count }
func (l *lineageResultsR) Total() int32                     { return l.total }
func (l *lineageResultsR) SearchResults() []*lineageResultR { return l.results }
func (l *lineageResultsR) Facets() *[]*facetR               { return l.facets }

type lineageResultR struct {
	entity  *entityR
	matched []*matchedFieldR
	paths   []*entityPathR
	degree  int32
}

func (l *lineageResultR) Entity() *entityR                { return l.entity }
func (l *lineageResultR) MatchedFields() []*matchedFieldR { return l.matched }
func (l *lineageResultR) Paths() *[]*entityPathR          { return &l.paths }
func (l *lineageResultR) Degree() int32                   { return l.degree }
func (l *lineageResultR) Degrees() *[]int32               { return &[]int32{l.degree} }
func (l *lineageResultR) Explored() bool                  { return true }
func (l *lineageResultR) TruncatedChildren() bool         { return false }
func (l *lineageResultR) IgnoredAsHop() bool              { return false }

type entityPathR struct{ path []*entityR }

func (p *entityPathR) Path() []*entityR { return p.path }

// lineageEdgeInput is LineageEdge.
type lineageEdgeInput struct{ DownstreamUrn, UpstreamUrn string }

// updateLineage resolves Mutation.updateLineage through the core
// ([gms.Core.UpdateLineage] holds DataHub's rules); null edges are skipped.
func updateLineage(c *Ctx, a Args) (any, error) {
	var args struct {
		Input struct {
			EdgesToAdd    []*lineageEdgeInput
			EdgesToRemove []*lineageEdgeInput
		}
	}
	if err := a.Decode(&args); err != nil {
		return nil, badRequest(err.Error())
	}
	edges := func(in []*lineageEdgeInput) []gms.LineageEdge {
		out := make([]gms.LineageEdge, 0, len(in))
		for _, e := range in {
			if e != nil {
				out = append(out, gms.LineageEdge{Downstream: e.DownstreamUrn, Upstream: e.UpstreamUrn})
			}
		}
		return out
	}
	if err := c.Core().UpdateLineage(c, edges(args.Input.EdgesToAdd), edges(args.Input.EdgesToRemove)); err != nil {
		return nil, fromCore(err)
	}
	return true, nil
}
