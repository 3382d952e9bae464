package graphql

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// searcher runs the searches of the search fields: the core's methods (a
// test gives a spy, see withSearcher).
type searcher interface {
	Search(ctx context.Context, q gms.Query) (gms.SearchResult, error)
	Scroll(ctx context.Context, q gms.Query, scrollID, keepAlive string) (gms.SearchResult, error)
	SearchLineage(ctx context.Context, q gms.LineageQuery) (gms.SearchResult, error)
	ScrollLineage(ctx context.Context, q gms.LineageQuery, scrollID, keepAlive string) (gms.SearchResult, error)
}

// withSearcher has the handler's search fields run their searches on s
// instead of the core (tests only).
func withSearcher(s searcher) Option {
	return func(h *Handler) { h.search = s }
}

// facetFilterInput is FacetFilterInput.
type facetFilterInput struct {
	Field     string
	Values    *[]string
	Negated   *bool
	Condition *string
}

// andFilterInput is AndFilterInput.
type andFilterInput struct{ And *[]facetFilterInput }

// searchFlagsInput is SearchFlags.
type searchFlagsInput struct {
	SkipCache               *bool
	MaxAggValues            *int32
	Fulltext                *bool
	SkipHighlighting        *bool
	SkipAggregates          *bool
	GetSuggestions          *bool
	IncludeSoftDeleted      *bool
	IncludeRestricted       *bool
	FilterNonLatestVersions *bool
	GroupingSpec            *groupingSpecInput
}

type groupingSpecInput struct {
	GroupingCriteria *[]groupingCriterionInput
}

type groupingCriterionInput struct {
	BaseEntityType     *string
	GroupingEntityType string
}

// keepSchemaFields reads flags' groupingSpec for a lineage search (see
// gms.KeepSchemaFields).
func keepSchemaFields(flags *searchFlagsInput) bool {
	if flags == nil || flags.GroupingSpec == nil || flags.GroupingSpec.GroupingCriteria == nil {
		return false
	}
	criteria := make([]gms.GroupingCriterion, 0, len(*flags.GroupingSpec.GroupingCriteria))
	for _, c := range *flags.GroupingSpec.GroupingCriteria {
		g := gms.GroupingCriterion{Grouping: registryName(c.GroupingEntityType)}
		if c.BaseEntityType != nil {
			g.Base = registryName(*c.BaseEntityType)
		}
		criteria = append(criteria, g)
	}
	return gms.KeepSchemaFields(criteria)
}

// searchableTypes are DataHub's SEARCHABLE_ENTITY_TYPES that the mock
// serves: the types searched when none are given.
var searchableTypes = []string{"DATASET", "MLMODEL", "MLMODEL_GROUP", "MLFEATURE_TABLE", "MLFEATURE",
	"DATA_FLOW", "DATA_JOB", "CHART", "DASHBOARD", "GLOSSARY_TERM", "TAG", "CORP_USER", "CORP_GROUP",
	"CONTAINER", "DOMAIN", "MLPRIMARY_KEY"}

// registryName maps an EntityType value to its registry entity name.
func registryName(t string) string {
	for name, et := range entityTypes {
		if et == t {
			return name
		}
	}
	return ""
}

// typesOf maps the input's types (searchableTypes when none) to registry
// names, keeping only the types that have a GraphQL type.
func typesOf(types *[]string) []string {
	in := searchableTypes
	if types != nil && len(*types) > 0 {
		in = *types
	}
	out := []string{} // not nil: none served searches nothing
	for _, t := range in {
		n := registryName(t)
		if sdlTypeOf(n) != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// buildFilter is DataHub's ResolverUtils.buildFilter: orFilters when any,
// else the legacy filters as one clause; values keep their order without
// repeats; the condition defaults to EQUAL.
func buildFilter(filters *[]facetFilterInput, orFilters *[]andFilterInput) gms.Filter {
	crit := func(in []facetFilterInput) []gms.Criterion {
		out := make([]gms.Criterion, 0, len(in))
		for _, f := range in {
			c := gms.Criterion{Field: f.Field, Condition: gms.CondEqual}
			if f.Condition != nil {
				c.Condition = *f.Condition
			}
			if f.Negated != nil {
				c.Negated = *f.Negated
			}
			if f.Values != nil {
				seen := make(map[string]bool, len(*f.Values)) // O(values), however many
				for _, v := range *f.Values {
					if !seen[v] {
						seen[v] = true
						c.Values = append(c.Values, v)
					}
				}
			}
			out = append(out, c)
		}
		return out
	}
	if orFilters != nil && len(*orFilters) > 0 {
		var f gms.Filter
		for _, and := range *orFilters {
			var clause []facetFilterInput
			if and.And != nil {
				clause = *and.And
			}
			f = append(f, crit(clause))
		}
		return f
	}
	if filters != nil && len(*filters) > 0 {
		return gms.Filter{crit(*filters)}
	}
	return nil
}

// applyFlags sets the query's options from the search flags.
func applyFlags(q *gms.Query, flags *searchFlagsInput) {
	if flags == nil {
		return
	}
	if flags.IncludeSoftDeleted != nil {
		q.IncludeSoftDeleted = *flags.IncludeSoftDeleted
	}
	if flags.SkipAggregates != nil {
		q.SkipAggregates = *flags.SkipAggregates
	}
	if flags.MaxAggValues != nil {
		q.MaxAggValues = int(*flags.MaxAggValues)
	}
}

// scrollArgs are a scroll's id ("" to start) and keep-alive (DataHub's
// default "5m").
func scrollArgs(id, keepAlive *string) (string, string) {
	i, k := "", "5m"
	if id != nil {
		i = *id
	}
	if keepAlive != nil {
		k = *keepAlive
	}
	return i, k
}

func intOr(p *int32, def int) int {
	if p == nil {
		return def
	}
	return int(*p)
}

// searchFailed is DataHub's wrapping of a failed search
// (SearchAcrossEntitiesResolver): a RuntimeException naming the request,
// with its root cause, answered as SERVER_ERROR; a refused argument (or a
// scroll id that is not Base64) is an IllegalArgumentException
// (BAD_REQUEST), but a keep-alive Elasticsearch refuses fails the search.
func searchFailed(types []string, query string, f gms.Filter, start, count int, err error) *gqlError {
	if errors.Is(err, gms.ErrKeepAlive) { // Elasticsearch's refusal: a failed search to DataHub
		err = errors.New(strings.TrimPrefix(err.Error(), gms.ErrKeepAlive.Error()+": "))
	}
	for _, sentinel := range []error{gms.ErrBadQuery, gms.ErrScrollBase64} {
		if errors.Is(err, sentinel) { // DataHub's text, after the sentinel's
			return badRequest(strings.TrimPrefix(err.Error(), sentinel.Error()+": "))
		}
	}
	if errors.Is(err, gms.ErrScrollID) {
		// An id that decodes but cannot be mapped is an
		// IllegalStateException, whose own message DataHub's error handler
		// answers as a server error.
		return serverError(strings.TrimPrefix(err.Error(), gms.ErrScrollID.Error()+": "))
	}
	ets := make([]string, len(types))
	for i, t := range types {
		ets[i] = entityTypes[t]
	}
	return serverError(fmt.Sprintf("Failed to execute search: entity types [%s], query %s, filters: %v, start: %d, count: %d. Root cause: %v",
		strings.Join(ets, ", "), query, f, start, count, err))
}

type searchInput struct {
	Type        string
	Query       string
	Start       *int32
	Count       *int32
	Filters     *[]facetFilterInput
	OrFilters   *[]andFilterInput
	SearchFlags *searchFlagsInput
}

// Search resolves Query.search (SearchResolver): one entity type, by
// offset, "/" escaped in the query, which is a structured query when
// searchFlags.fulltext is false (a free-text one by default).
func (r *resolver) Search(ctx context.Context, a struct{ Input searchInput }) (*searchResultsR, error) {
	in := a.Input
	types := typesOf(&[]string{in.Type})
	structured := in.SearchFlags != nil && in.SearchFlags.Fulltext != nil && !*in.SearchFlags.Fulltext
	return r.offsetSearch(ctx, types, strings.ReplaceAll(in.Query, "/", `\/`), buildFilter(in.Filters, in.OrFilters),
		intOr(in.Start, 0), intOr(in.Count, 10), in.SearchFlags, structured)
}

type searchAcrossEntitiesInput struct {
	Types       *[]string
	Query       string
	Start       *int32
	Count       *int32
	Filters     *[]facetFilterInput
	OrFilters   *[]andFilterInput
	SearchFlags *searchFlagsInput
}

// SearchAcrossEntities resolves Query.searchAcrossEntities
// (SearchAcrossEntitiesResolver): start 0 and count 10 by default, "/"
// escaped in the query, always a free-text query (DataHub's entity client
// sets fulltext whatever the flags say).
func (r *resolver) SearchAcrossEntities(ctx context.Context, a struct{ Input searchAcrossEntitiesInput }) (*searchResultsR, error) {
	in := a.Input
	return r.offsetSearch(ctx, typesOf(in.Types), strings.ReplaceAll(in.Query, "/", `\/`),
		buildFilter(in.Filters, in.OrFilters), intOr(in.Start, 0), intOr(in.Count, 10), in.SearchFlags, false)
}

func (r *resolver) offsetSearch(ctx context.Context, types []string, query string, f gms.Filter, start, count int, flags *searchFlagsInput, structured bool) (*searchResultsR, error) {
	if e := charge(ctx); e != nil {
		return nil, e
	}
	q := gms.Query{Types: types, Text: query, Structured: structured, Filter: f, Start: start, Count: count}
	applyFlags(&q, flags)
	wantHits := selectedParts(ctx, &q)
	res, err := r.search.Search(ctx, q)
	if err != nil {
		return nil, searchFailed(types, query, f, start, count, err)
	}
	hits, gerr := r.hits(ctx, res, wantHits(res.Hits))
	if gerr != nil {
		return nil, gerr
	}
	return &searchResultsR{start: int32(res.Start), count: int32(res.PageSize), total: int32(res.Total),
		results: hits, facets: facetsOf(res.Facets)}, nil
}

type scrollAcrossEntitiesInput struct {
	Types       *[]string
	Query       string
	ScrollId    *string
	KeepAlive   *string
	Count       *int32
	OrFilters   *[]andFilterInput
	SearchFlags *searchFlagsInput
}

// ScrollAcrossEntities resolves Query.scrollAcrossEntities
// (ScrollAcrossEntitiesResolver): count 10 and keep-alive "5m" by default,
// a blank query is "*", "/" escaped in the query, always a free-text query
// (as searchAcrossEntities), only orFilters count.
func (r *resolver) ScrollAcrossEntities(ctx context.Context, a struct{ Input scrollAcrossEntitiesInput }) (*scrollResultsR, error) {
	in := a.Input
	types := typesOf(in.Types)
	query := strings.ReplaceAll(in.Query, "/", `\/`)
	if strings.TrimSpace(query) == "" {
		query = "*"
	}
	if e := charge(ctx); e != nil {
		return nil, e
	}
	f := buildFilter(nil, in.OrFilters)
	q := gms.Query{Types: types, Text: query, Filter: f, Count: intOr(in.Count, 10)}
	applyFlags(&q, in.SearchFlags)
	wantHits := selectedParts(ctx, &q)
	id, keepAlive := scrollArgs(in.ScrollId, in.KeepAlive)
	res, err := r.search.Scroll(ctx, q, id, keepAlive)
	if err != nil {
		return nil, searchFailed(types, query, f, 0, q.Count, err)
	}
	hits, gerr := r.hits(ctx, res, wantHits(res.Hits))
	if gerr != nil {
		return nil, gerr
	}
	out := &scrollResultsR{count: int32(res.PageSize), total: int32(res.Total), results: hits, facets: facetsOf(res.Facets)}
	if res.NextScrollID != "" {
		out.next = &res.NextScrollID
	}
	return out, nil
}

type aggregateAcrossEntitiesInput struct {
	Types       *[]string
	Query       string
	Facets      *[]*string
	OrFilters   *[]andFilterInput
	SearchFlags *searchFlagsInput
}

// AggregateAcrossEntities resolves Query.aggregateAcrossEntities
// (AggregateAcrossEntitiesResolver): a search with count 0 whose facets
// are the ones asked, or all the default ones.
func (r *resolver) AggregateAcrossEntities(ctx context.Context, a struct{ Input aggregateAcrossEntitiesInput }) (*aggregateResultsR, error) {
	in := a.Input
	if e := charge(ctx); e != nil {
		return nil, e
	}
	types := typesOf(in.Types)
	f := buildFilter(nil, in.OrFilters)
	q := gms.Query{Types: types, Text: in.Query, Filter: f}
	applyFlags(&q, in.SearchFlags)
	q.SkipAggregates = false
	if in.Facets != nil && len(*in.Facets) > 0 {
		for _, s := range *in.Facets {
			if s != nil {
				q.Facets = append(q.Facets, *s)
			}
		}
	}
	res, err := r.search.Search(ctx, q)
	if err != nil {
		return nil, searchFailed(types, in.Query, f, 0, 0, err)
	}
	return &aggregateResultsR{facets: facetsOf(res.Facets)}, nil
}

// MaxSearches bounds the search and lineage fields (search,
// searchAcrossEntities, scrollAcrossEntities, aggregateAcrossEntities,
// searchAcrossLineage, scrollAcrossLineage) one request may run, aliases
// included: a request with more is refused as one past the complexity
// limit is, after at most MaxSearches of them ran. DataHub counts such a
// field as one field (more only with its searchResultFields fragment).
const MaxSearches = 50

// charge counts a search field of the request and refuses it past
// MaxSearches.
func charge(ctx context.Context) *gqlError {
	st, ok := ctx.Value(execStateKey{}).(*execState)
	if !ok || st.searches.Add(1) <= MaxSearches {
		return nil
	}
	return badRequest(fmt.Sprintf(msgSearchLimit, MaxSearches))
}

// selectedParts sets q to compute no facets when the field's answer does
// not select them, and returns what of a page of hits to load: all of it
// when the answer selects searchResults (whose entities are then shown from
// the hits' index documents, see loadHit), else none.
func selectedParts(ctx context.Context, q *gms.Query) func([]gms.SearchHit) []gms.SearchHit {
	if !selectsField(ctx, "facets") {
		q.SkipAggregates = true
	}
	if selectsField(ctx, "searchResults") {
		q.WithAspects = true
		return func(hs []gms.SearchHit) []gms.SearchHit { return hs }
	}
	return func([]gms.SearchHit) []gms.SearchHit { return nil }
}

// checkEvery is how many results a page's loads take between two looks at
// the request's context.
const checkEvery = 64

// stopped is the error of a page's load of its i-th result once the
// request's context is done (checked every checkEvery results): the client
// has gone, nothing more is loaded.
func stopped(ctx context.Context, i int) *gqlError {
	if i%checkEvery != 0 || ctx.Err() == nil {
		return nil
	}
	return serverError(ctx.Err().Error())
}

// hits loads the entities of a page of res.
func (r *resolver) hits(ctx context.Context, res gms.SearchResult, hs []gms.SearchHit) ([]*searchResultR, *gqlError) {
	out := make([]*searchResultR, 0, len(hs))
	for i, h := range hs {
		if err := stopped(ctx, i); err != nil {
			return nil, err
		}
		e, err := r.loadHit(ctx, res, h)
		if err != nil {
			return nil, err
		}
		mf := make([]*matchedFieldR, 0, len(h.Matched))
		for _, m := range h.Matched {
			mf = append(mf, &matchedFieldR{m.Name, m.Value})
		}
		out = append(out, &searchResultR{entity: newEntityR(e), matched: mf})
	}
	return out, nil
}

func facetsOf(fs []gms.Facet) *[]*facetR {
	if fs == nil {
		return nil
	}
	out := make([]*facetR, 0, len(fs))
	for _, f := range fs {
		aggs := make([]*aggregationR, 0, len(f.Values))
		for _, v := range f.Values {
			val := v.Value
			if f.Field == "_entityType" {
				val = entityTypes[v.Value]
			}
			aggs = append(aggs, &aggregationR{value: val, count: Long(v.Count)})
		}
		d := f.DisplayName
		out = append(out, &facetR{field: f.Field, displayName: &d, aggs: aggs})
	}
	return &out
}

type searchResultsR struct {
	start, count, total int32
	results             []*searchResultR
	facets              *[]*facetR
}

func (s *searchResultsR) Start() int32                    { return s.start }
func (s *searchResultsR) Count() int32                    { return s.count }
func (s *searchResultsR) Total() int32                    { return s.total }
func (s *searchResultsR) SearchResults() []*searchResultR { return s.results }
func (s *searchResultsR) Facets() *[]*facetR              { return s.facets }
func (s *searchResultsR) Suggestions() *[]*suggestionR    { return &[]*suggestionR{} }

type scrollResultsR struct {
	next         *string
	count, total int32
	results      []*searchResultR
	facets       *[]*facetR
}

func (s *scrollResultsR) NextScrollId() *string           { return s.next }
func (s *scrollResultsR) Count() int32                    { return s.count }
func (s *scrollResultsR) Total() int32                    { return s.total }
func (s *scrollResultsR) SearchResults() []*searchResultR { return s.results }
func (s *scrollResultsR) Facets() *[]*facetR              { return s.facets }

type aggregateResultsR struct{ facets *[]*facetR }

func (a *aggregateResultsR) Facets() *[]*facetR { return a.facets }

type searchResultR struct {
	entity  *entityR
	matched []*matchedFieldR
}

func (s *searchResultR) Entity() *entityR                { return s.entity }
func (s *searchResultR) Insights() *[]*insightR          { return nil }
func (s *searchResultR) MatchedFields() []*matchedFieldR { return s.matched }

type matchedFieldR struct{ name, value string }

func (m *matchedFieldR) Name() string  { return m.name }
func (m *matchedFieldR) Value() string { return m.value }

type insightR struct{}

func (insightR) Text() string  { return "" }
func (insightR) Icon() *string { return nil }

type suggestionR struct{}

func (suggestionR) Text() string      { return "" }
func (suggestionR) Score() *float64   { return nil }
func (suggestionR) Frequency() *int32 { return nil }

type facetR struct {
	field       string
	displayName *string
	aggs        []*aggregationR
}

func (f *facetR) Field() string                 { return f.field }
func (f *facetR) DisplayName() *string          { return f.displayName }
func (f *facetR) Aggregations() []*aggregationR { return f.aggs }

type aggregationR struct {
	value string
	count Long
}

func (a *aggregationR) Value() string        { return a.value }
func (a *aggregationR) Count() Long          { return a.count }
func (a *aggregationR) DisplayName() *string { return nil }
