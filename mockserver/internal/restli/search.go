package restli

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// filterRecord is com.linkedin.metadata.query.filter.Filter.
type filterRecord struct {
	Or []struct {
		And []criterionRecord `json:"and"`
	} `json:"or"`
	Criteria []criterionRecord `json:"criteria"`
}

// criterionRecord is com.linkedin.metadata.query.filter.Criterion (value
// is the deprecated single value).
type criterionRecord struct {
	Field     string   `json:"field"`
	Value     *string  `json:"value"`
	Values    []string `json:"values"`
	Condition string   `json:"condition"`
	Negated   bool     `json:"negated"`
}

func (r criterionRecord) criterion() gms.Criterion {
	c := gms.Criterion{Field: r.Field, Condition: r.Condition, Values: r.Values, Negated: r.Negated}
	if c.Condition == "" {
		c.Condition = gms.CondEqual
	}
	if len(c.Values) == 0 && r.Value != nil && *r.Value != "" {
		c.Values = []string{*r.Value}
	}
	return c
}

// filter is the filter parameter name as the index's filter: or's clauses,
// else criteria as one clause.
func (c *Call) filter(name string) (gms.Filter, error) {
	var f filterRecord
	if err := c.decodeRecord(name, &f); err != nil {
		return nil, err
	}
	var out gms.Filter
	for _, and := range f.Or {
		clause := make([]gms.Criterion, 0, len(and.And))
		for _, r := range and.And {
			clause = append(clause, r.criterion())
		}
		out = append(out, clause)
	}
	if len(out) == 0 && len(f.Criteria) > 0 {
		clause := make([]gms.Criterion, 0, len(f.Criteria))
		for _, r := range f.Criteria {
			clause = append(clause, r.criterion())
		}
		out = gms.Filter{clause}
	}
	return out, nil
}

// searchFlags is the part of com.linkedin.metadata.query.SearchFlags the
// index honours.
type searchFlags struct {
	Fulltext           *bool `json:"fulltext"`
	IncludeSoftDeleted *bool `json:"includeSoftDeleted"`
	SkipAggregates     *bool `json:"skipAggregates"`
	MaxAggValues       *int  `json:"maxAggValues"`
	GroupingSpec       *struct {
		GroupingCriteria []struct {
			BaseEntityType     *string `json:"baseEntityType"`
			GroupingEntityType string  `json:"groupingEntityType"`
		} `json:"groupingCriteria"`
	} `json:"groupingSpec"`
}

// keepSchemaFields reads the searchFlags' groupingSpec for a lineage
// search (see gms.KeepSchemaFields).
func (c *Call) keepSchemaFields() (bool, error) {
	var f searchFlags
	if err := c.decodeRecord("searchFlags", &f); err != nil {
		return false, err
	}
	if f.GroupingSpec == nil {
		return false, nil
	}
	criteria := make([]gms.GroupingCriterion, 0, len(f.GroupingSpec.GroupingCriteria))
	for _, g := range f.GroupingSpec.GroupingCriteria {
		gc := gms.GroupingCriterion{Grouping: g.GroupingEntityType}
		if g.BaseEntityType != nil {
			gc.Base = *g.BaseEntityType
		}
		criteria = append(criteria, gc)
	}
	return gms.KeepSchemaFields(criteria), nil
}

// applyFlags applies the searchFlags to q. Given flags make the query a
// structured one unless their fulltext is true (DataHub's search service
// defaults an absent fulltext to false); without flags an action's query
// is a free-text one (see search for its fulltext parameter).
func (c *Call) applyFlags(q *gms.Query) error {
	var f searchFlags
	if err := c.decodeRecord("searchFlags", &f); err != nil {
		return err
	}
	if c.has("searchFlags") {
		q.Structured = f.Fulltext == nil || !*f.Fulltext
	}
	if f.IncludeSoftDeleted != nil {
		q.IncludeSoftDeleted = *f.IncludeSoftDeleted
	}
	if f.SkipAggregates != nil {
		q.SkipAggregates = *f.SkipAggregates
	}
	if f.MaxAggValues != nil {
		q.MaxAggValues = *f.MaxAggValues
	}
	return nil
}

// searchEntity is com.linkedin.metadata.search.SearchEntity.
type searchEntity struct {
	Entity        string         `json:"entity"`
	MatchedFields []matchedField `json:"matchedFields"`
	Score         *float64       `json:"score,omitempty"`
}

type matchedField struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// lineageSearchEntity is com.linkedin.metadata.search.LineageSearchEntity.
type lineageSearchEntity struct {
	searchEntity
	Paths   [][]string `json:"paths"`
	Path    []string   `json:"path"`
	Degree  int        `json:"degree"`
	Degrees []int      `json:"degrees"`
}

// searchMetadata is com.linkedin.metadata.search.SearchResultMetadata.
type searchMetadata struct {
	Aggregations []aggregation `json:"aggregations"`
	Suggestions  []any         `json:"suggestions"`
}

type aggregation struct {
	Name         string           `json:"name"`
	DisplayName  string           `json:"displayName,omitempty"`
	Aggregations map[string]int64 `json:"aggregations"`
	FilterValues []filterValue    `json:"filterValues"`
}

type filterValue struct {
	Value      string `json:"value"`
	FacetCount int64  `json:"facetCount"`
}

// searchResult is com.linkedin.metadata.search.SearchResult.
type searchResult struct {
	Entities    []searchEntity `json:"entities"`
	Metadata    searchMetadata `json:"metadata"`
	From        int            `json:"from"`
	PageSize    int            `json:"pageSize"`
	NumEntities int            `json:"numEntities"`
}

// scrollResult is com.linkedin.metadata.search.ScrollResult.
type scrollResult struct {
	Entities    []searchEntity `json:"entities"`
	Metadata    searchMetadata `json:"metadata"`
	ScrollID    string         `json:"scrollId,omitempty"`
	PageSize    int            `json:"pageSize"`
	NumEntities int            `json:"numEntities"`
}

// lineageSearchResult is LineageSearchResult (From set) and
// LineageScrollResult (ScrollID set).
type lineageSearchResult struct {
	Entities    []lineageSearchEntity `json:"entities"`
	Metadata    searchMetadata        `json:"metadata"`
	From        *int                  `json:"from,omitempty"`
	ScrollID    string                `json:"scrollId,omitempty"`
	PageSize    int                   `json:"pageSize"`
	NumEntities int                   `json:"numEntities"`
}

func metadataOf(r gms.SearchResult) searchMetadata {
	m := searchMetadata{Aggregations: []aggregation{}, Suggestions: []any{}}
	for _, f := range r.Facets {
		a := aggregation{Name: f.Field, DisplayName: f.DisplayName, Aggregations: map[string]int64{}, FilterValues: []filterValue{}}
		for _, v := range f.Values {
			a.Aggregations[v.Value] = int64(v.Count)
			a.FilterValues = append(a.FilterValues, filterValue{Value: v.Value, FacetCount: int64(v.Count)})
		}
		m.Aggregations = append(m.Aggregations, a)
	}
	return m
}

func entitiesOf(hits []gms.SearchHit) []searchEntity {
	out := make([]searchEntity, 0, len(hits))
	for _, h := range hits {
		e := searchEntity{Entity: h.URN, MatchedFields: []matchedField{}}
		score := h.Score
		e.Score = &score
		for _, m := range h.Matched {
			e.MatchedFields = append(e.MatchedFields, matchedField{Name: m.Name, Value: m.Value})
		}
		out = append(out, e)
	}
	return out
}

func lineageEntitiesOf(hits []gms.SearchHit) []lineageSearchEntity {
	out := make([]lineageSearchEntity, 0, len(hits))
	for i, e := range entitiesOf(hits) {
		h := hits[i]
		le := lineageSearchEntity{searchEntity: e, Paths: [][]string{}, Path: []string{}, Degree: h.Degree, Degrees: []int{h.Degree}}
		le.Paths = append(le.Paths, h.Paths...)
		if len(h.Paths) > 0 {
			le.Path = h.Paths[0]
		}
		out = append(out, le)
	}
	return out
}

// searchError maps a refused search to GMS's answer: a query or scroll id
// the index refuses is a 400, anything else a 500.
func searchError(err error) error {
	for _, s := range []error{gms.ErrBadQuery, gms.ErrScrollBase64} {
		if errors.Is(err, s) {
			return &Error{Status: http.StatusBadRequest, Message: strings.TrimPrefix(err.Error(), s.Error()+": ")}
		}
	}
	if ge := gms.AsError(err); ge.Kind != gms.Internal {
		return err
	}
	return &Error{Status: http.StatusInternalServerError, Message: err.Error()}
}

// query builds the search of an action: its types, text, filter, page and
// flags.
func (c *Call) query(types []string, text string, start, count int) (gms.Query, error) {
	f, err := c.filter("filter")
	if err != nil {
		return gms.Query{}, err
	}
	q := gms.Query{Types: types, Text: text, Filter: f, Start: start, Count: count}
	if err := c.applyFlags(&q); err != nil {
		return gms.Query{}, err
	}
	return q, nil
}

// types is the entities parameter (nil, every entity type, when absent or
// empty, as GMS's getEntitiesToSearch).
func (c *Call) types() []string {
	ts := c.strs("entities")
	if len(ts) == 0 {
		return nil
	}
	return ts
}

// sortCriterionRecord is com.linkedin.metadata.query.filter.SortCriterion.
type sortCriterionRecord struct {
	Field string `json:"field"`
	Order string `json:"order"`
}

// sort is the search's order: the sortCriteria parameter, else sort, as
// GMS reads them (none: by score).
func (c *Call) sort() ([]gms.SortCriterion, error) {
	var crits []sortCriterionRecord
	if err := c.decodeRecord("sortCriteria", &crits); err != nil {
		return nil, err
	}
	if len(crits) == 0 {
		var one *sortCriterionRecord
		if err := c.decodeRecord("sort", &one); err != nil {
			return nil, err
		}
		if one != nil {
			crits = append(crits, *one)
		}
	}
	var out []gms.SortCriterion
	for _, s := range crits {
		if s.Field == "" {
			continue
		}
		out = append(out, gms.SortCriterion{Field: s.Field, Descending: s.Order == "DESCENDING"})
	}
	return out, nil
}

func runSearch(h *Handler, ctx context.Context, c *Call, q gms.Query) (any, error) {
	sort, err := c.sort()
	if err != nil {
		return nil, err
	}
	res, err := h.core.SearchSorted(ctx, q, sort)
	if err != nil {
		return nil, searchError(err)
	}
	return searchResult{Entities: entitiesOf(res.Hits), Metadata: metadataOf(res), From: res.Start, PageSize: res.PageSize, NumEntities: res.Total}, nil
}

// search serves entities?action=search: one entity type, by offset.
// Without searchFlags, the query is a free-text one only when the
// deprecated fulltext parameter is true (DataHub's EntityResource).
func search(h *Handler, ctx context.Context, c *Call) (any, error) {
	q, err := c.query([]string{c.str("entity")}, c.str("input"), c.integer("start", 0), c.integer("count", 10))
	if err != nil {
		return nil, err
	}
	if !c.has("searchFlags") {
		fulltext := c.boolean("fulltext")
		q.Structured = fulltext == nil || !*fulltext
	}
	return runSearch(h, ctx, c, q)
}

// searchAcrossEntities serves entities?action=searchAcrossEntities.
func searchAcrossEntities(h *Handler, ctx context.Context, c *Call) (any, error) {
	q, err := c.query(c.types(), c.str("input"), c.integer("start", 0), c.integer("count", 10))
	if err != nil {
		return nil, err
	}
	return runSearch(h, ctx, c, q)
}

// filterAction serves entities?action=filter: the filter alone, no text.
func filterAction(h *Handler, ctx context.Context, c *Call) (any, error) {
	q, err := c.query([]string{c.str("entity")}, "*", c.integer("start", 0), c.integer("count", 10))
	if err != nil {
		return nil, err
	}
	return runSearch(h, ctx, c, q)
}

// list serves entities?action=list: the filter's URNs as a ListResult.
func list(h *Handler, ctx context.Context, c *Call) (any, error) {
	q, err := c.query([]string{c.str("entity")}, "*", c.integer("start", 0), c.integer("count", 10))
	if err != nil {
		return nil, err
	}
	q.SkipAggregates = true
	sort, err := c.sort()
	if err != nil {
		return nil, err
	}
	res, err := h.core.SearchSorted(ctx, q, sort)
	if err != nil {
		return nil, searchError(err)
	}
	out := listResult{Entities: []string{}, Start: res.Start, Count: res.PageSize, Total: res.Total}
	for _, hit := range res.Hits {
		out.Entities = append(out.Entities, hit.URN)
	}
	return out, nil
}

// keepAlive is the keepAlive parameter ("5m" when absent).
func (c *Call) keepAlive() string {
	if k := c.str("keepAlive"); k != "" {
		return k
	}
	return "5m"
}

// scrollAcrossEntities serves entities?action=scrollAcrossEntities.
func scrollAcrossEntities(h *Handler, ctx context.Context, c *Call) (any, error) {
	text := c.str("input")
	if strings.TrimSpace(text) == "" {
		text = "*"
	}
	q, err := c.query(c.types(), text, 0, c.integer("count", 10))
	if err != nil {
		return nil, err
	}
	sort, err := c.sort()
	if err != nil {
		return nil, err
	}
	res, err := h.core.ScrollSorted(ctx, q, sort, c.str("scrollId"), c.keepAlive())
	if err != nil {
		return nil, searchError(err)
	}
	return scrollResult{Entities: entitiesOf(res.Hits), Metadata: metadataOf(res), ScrollID: res.NextScrollID,
		PageSize: res.PageSize, NumEntities: res.Total}, nil
}

// lineageQuery builds a lineage search: direction UPSTREAM or DOWNSTREAM,
// maxHops as DataHub's degree filter.
func (c *Call) lineageQuery(start, count int) (gms.LineageQuery, error) {
	text := c.str("input")
	if strings.TrimSpace(text) == "" {
		text = "*"
	}
	q, err := c.query(c.types(), text, start, count)
	if err != nil {
		return gms.LineageQuery{}, err
	}
	dir := c.str("direction")
	if dir != "UPSTREAM" && dir != "DOWNSTREAM" {
		return gms.LineageQuery{}, badRequest(msgBadDirection, dir)
	}
	if n := c.integer("maxHops", 0); n > 0 && n < 3 {
		vals := []string{"1"}
		if n == 2 {
			vals = append(vals, "2")
		}
		deg := gms.Criterion{Field: "degree", Condition: gms.CondEqual, Values: vals}
		if len(q.Filter) == 0 {
			q.Filter = gms.Filter{{deg}}
		} else {
			for i := range q.Filter {
				q.Filter[i] = append(q.Filter[i], deg)
			}
		}
	}
	keep, err := c.keepSchemaFields()
	if err != nil {
		return gms.LineageQuery{}, err
	}
	return gms.LineageQuery{Query: q, URN: c.str("urn"), Upstream: dir == "UPSTREAM", KeepSchemaFields: keep}, nil
}

// searchAcrossLineage serves entities?action=searchAcrossLineage.
func searchAcrossLineage(h *Handler, ctx context.Context, c *Call) (any, error) {
	q, err := c.lineageQuery(c.integer("start", 0), c.integer("count", 10))
	if err != nil {
		return nil, err
	}
	if _, err := gms.CheckURN(q.URN); err != nil {
		return nil, err
	}
	res, err := h.core.SearchLineage(ctx, q)
	if err != nil {
		return nil, searchError(err)
	}
	from := res.Start
	return lineageSearchResult{Entities: lineageEntitiesOf(res.Hits), Metadata: metadataOf(res), From: &from,
		PageSize: res.PageSize, NumEntities: res.Total}, nil
}

// scrollAcrossLineage serves entities?action=scrollAcrossLineage.
func scrollAcrossLineage(h *Handler, ctx context.Context, c *Call) (any, error) {
	q, err := c.lineageQuery(0, c.integer("count", 10))
	if err != nil {
		return nil, err
	}
	if _, err := gms.CheckURN(q.URN); err != nil {
		return nil, err
	}
	res, err := h.core.ScrollLineage(ctx, q, c.str("scrollId"), c.keepAlive())
	if err != nil {
		return nil, searchError(err)
	}
	return lineageSearchResult{Entities: lineageEntitiesOf(res.Hits), Metadata: metadataOf(res), ScrollID: res.NextScrollID,
		PageSize: res.PageSize, NumEntities: res.Total}, nil
}

// autoCompleteResult is com.linkedin.metadata.query.AutoCompleteResult.
type autoCompleteResult struct {
	Query       string              `json:"query"`
	Suggestions []string            `json:"suggestions"`
	Entities    []autoCompleteEntry `json:"entities"`
}

type autoCompleteEntry struct {
	URN string `json:"urn"`
}

// autocomplete serves entities?action=autocomplete: the entities of the
// type the query matches, with the values it matched (of field when
// given) as suggestions.
func autocomplete(h *Handler, ctx context.Context, c *Call) (any, error) {
	query := c.str("query")
	text := query
	if strings.TrimSpace(text) == "" {
		text = "*"
	}
	q, err := c.query([]string{c.str("entity")}, text, 0, c.integer("limit", 10))
	if err != nil {
		return nil, err
	}
	q.Structured = false // DataHub's autocomplete builds its own query, whatever the flags
	q.SkipAggregates = true
	sort, err := c.sort()
	if err != nil {
		return nil, err
	}
	res, err := h.core.SearchSorted(ctx, q, sort)
	if err != nil {
		return nil, searchError(err)
	}
	field := c.str("field")
	out := autoCompleteResult{Query: query, Suggestions: []string{}, Entities: []autoCompleteEntry{}}
	seen := map[string]bool{}
	for _, hit := range res.Hits {
		out.Entities = append(out.Entities, autoCompleteEntry{URN: hit.URN})
		for _, m := range hit.Matched {
			if (field == "" || m.Name == field) && !seen[m.Value] {
				seen[m.Value] = true
				out.Suggestions = append(out.Suggestions, m.Value)
				break
			}
		}
	}
	return out, nil
}

// browseResult is com.linkedin.metadata.query.BrowseResult.
type browseResult struct {
	Entities    []browseEntity `json:"entities"`
	Metadata    browseMetadata `json:"metadata"`
	From        int            `json:"from"`
	PageSize    int            `json:"pageSize"`
	NumEntities int            `json:"numEntities"`
}

type browseEntity struct {
	Name string `json:"name,omitempty"`
	URN  string `json:"urn"`
}

type browseMetadata struct {
	Path             string        `json:"path"`
	Groups           []browseGroup `json:"groups"`
	TotalNumEntities int64         `json:"totalNumEntities"`
}

type browseGroup struct {
	Name  string `json:"name"`
	Count int64  `json:"count"`
}

// browse serves entities?action=browse over the entities' browsePaths.
func browse(h *Handler, ctx context.Context, c *Call) (any, error) {
	path := c.str("path")
	start, limit := c.integer("start", 0), c.integer("limit", 10)
	b, err := h.core.Browse(ctx, c.str("entity"), path, start, limit)
	if err != nil {
		return nil, err
	}
	out := browseResult{Entities: []browseEntity{}, From: start, PageSize: limit, NumEntities: b.Total,
		Metadata: browseMetadata{Path: path, Groups: []browseGroup{}, TotalNumEntities: int64(b.TotalUnder)}}
	for _, e := range b.Entities {
		out.Entities = append(out.Entities, browseEntity{Name: e.Name, URN: e.URN})
	}
	for _, g := range b.Groups {
		out.Metadata.Groups = append(out.Metadata.Groups, browseGroup{Name: g.Name, Count: int64(g.Count)})
	}
	return out, nil
}

// getBrowsePaths serves entities?action=getBrowsePaths.
func getBrowsePaths(h *Handler, ctx context.Context, c *Call) (any, error) {
	return h.core.BrowsePaths(ctx, c.str("urn"))
}
