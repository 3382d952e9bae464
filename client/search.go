package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"

	datahub "github.com/catalogkit/datahub-go"
)

// Search paging limits.
const (
	// DefaultPageSize is the number of results a search asks for per page.
	DefaultPageSize = 200
	// MaxPageSize caps [WithPageSize]: pages of a few hundred results with
	// their entities are heavy for a server (a count of 900 broke one,
	// datahub#13013), and more pages cost only round trips.
	MaxPageSize = 500
	// DefaultSearchLimit is the number of results a search yields at most
	// unless [WithLimit] says otherwise.
	DefaultSearchLimit = 10000
)

// ErrResultLimit is yielded, after the results, by a search or returned by
// a lineage read that has more results than its limit (see [WithLimit]):
// a search never stops short without saying so.
var ErrResultLimit = errors.New("datahub: more results than the limit")

// SearchOption configures [Search.Results], [SearchAs] and [Lineage.Get].
type SearchOption struct{ apply func(*searchSettings) }

type searchSettings struct {
	pageSize int
	limit    int
	// first reports that the limit is WithFirst's: reaching it ends the
	// results without an error.
	first bool
}

// WithPageSize sets the number of results asked for per page, capped at
// [MaxPageSize] (default [DefaultPageSize]).
func WithPageSize(n int) SearchOption {
	return SearchOption{func(s *searchSettings) { s.pageSize = n }}
}

// WithLimit sets the largest number of results a search yields (default
// [DefaultSearchLimit]; a negative n sets no limit). When more results
// match, the search yields [ErrResultLimit] after the first n, so that a
// cut list is never taken for the whole. To take the first n results, use
// [WithFirst]. Of WithLimit and WithFirst the last given wins.
func WithLimit(n int) SearchOption {
	return SearchOption{func(s *searchSettings) { s.limit, s.first = n, false }}
}

// WithFirst takes at most the first n results (n ≥ 0) and ends there
// without an error, however many more match: a search yields them and
// stops, a lineage read returns them. Pages ask for no more than needed.
// A negative n sets no limit. Of WithLimit and WithFirst the last given
// wins.
func WithFirst(n int) SearchOption {
	return SearchOption{func(s *searchSettings) { s.limit, s.first = n, n >= 0 }}
}

func settingsOf(opts []SearchOption) (searchSettings, error) {
	s := searchSettings{pageSize: DefaultPageSize, limit: DefaultSearchLimit}
	for _, o := range opts {
		o.apply(&s)
	}
	if s.pageSize <= 0 {
		return s, fmt.Errorf("client: search page size %d: must be positive: %w", s.pageSize, datahub.ErrValidation)
	}
	s.pageSize = min(s.pageSize, MaxPageSize)
	return s, nil
}

// SearchResult is one entity a search found. For datasets and the ML
// entities, the matching field holds the entity as [Client.Dataset] and the
// other typed reads return it; other entity types come with their URN and
// type only.
type SearchResult struct {
	// URN is the entity's URN.
	URN string
	// Type is its GraphQL EntityType, such as "DATASET" or "MLFEATURE_TABLE".
	Type string
	// MatchedFields are the index fields a free-text query matched.
	MatchedFields []MatchedField

	Dataset        *DatasetView
	MLFeature      *MLFeatureView
	MLFeatureTable *MLFeatureTableView
	MLModel        *MLModelView
	MLModelGroup   *MLModelGroupView
}

// MatchedField is a field of the search index that a query matched.
type MatchedField struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// searchEntityFields selects a result's entity: the typed fields of the
// five typed entities. The model's and the dataset's properties are
// aliased, as their members' types clash with the other types' (GraphQL
// refuses one response name with two shapes).
const searchEntityFields = `entity { urn type
      ... on MLFeature { ` + mlFeatureFields + ` }
      ... on MLFeatureTable { ` + mlFeatureTableFields + ` }
      ... on MLModel { ` + mlModelFields + `modelProperties: ` + mlModelProperties + ` }
      ... on MLModelGroup { ` + mlModelGroupFields + ` }
      ... on Dataset { ` + datasetFields + `datasetProperties: ` + datasetProperties + datasetSchema + ` } }`

// The search documents, checked against DataHub's SDL by
// TestGraphQLDocumentsValidate.
const (
	scrollDocument = `query scrollAcrossEntities($input: ScrollAcrossEntitiesInput!) {
  scrollAcrossEntities(input: $input) { nextScrollId count total
    searchResults { matchedFields { name value } ` + searchEntityFields + ` } } }`
	countDocument = `query searchAcrossEntities($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) { total } }`
	facetsDocument = `query aggregateAcrossEntities($input: AggregateAcrossEntitiesInput!) {
  aggregateAcrossEntities(input: $input) { facets { field displayName aggregations { value count displayName } } } }`
)

// entityJSON is a result's entity as the search documents select it.
type entityJSON struct {
	URN             string          `json:"urn"`
	Type            string          `json:"type"`
	ModelProperties json.RawMessage `json:"modelProperties"`
	DatasetProps    json.RawMessage `json:"datasetProperties"`
}

// decodeEntity fills r's typed field from the entity's JSON.
func decodeEntity(raw json.RawMessage, r *SearchResult) error {
	var head entityJSON
	if err := json.Unmarshal(raw, &head); err != nil {
		return err
	}
	r.URN, r.Type = head.URN, head.Type
	var err error
	switch head.Type {
	case "DATASET":
		r.Dataset = new(DatasetView)
		if err = json.Unmarshal(raw, r.Dataset); err == nil && len(head.DatasetProps) > 0 {
			err = json.Unmarshal(head.DatasetProps, &r.Dataset.Properties)
		}
	case "MLFEATURE":
		r.MLFeature = new(MLFeatureView)
		err = json.Unmarshal(raw, r.MLFeature)
	case "MLFEATURE_TABLE":
		r.MLFeatureTable = new(MLFeatureTableView)
		err = json.Unmarshal(raw, r.MLFeatureTable)
	case "MLMODEL":
		r.MLModel = new(MLModelView)
		if err = json.Unmarshal(raw, r.MLModel); err == nil && len(head.ModelProperties) > 0 {
			err = json.Unmarshal(head.ModelProperties, &r.MLModel.Properties)
		}
	case "MLMODEL_GROUP":
		r.MLModelGroup = new(MLModelGroupView)
		err = json.Unmarshal(raw, r.MLModelGroup)
	}
	return err
}

// searchFlags are the flags a page asks with: no highlighting, no
// aggregates.
var searchFlags = map[string]any{"skipHighlighting": true, "skipAggregates": true}

// orFiltersJSON is the orFilters variable of clauses.
func orFiltersJSON(clauses [][]Rule) []map[string]any {
	out := make([]map[string]any, len(clauses))
	for i, c := range clauses {
		and := make([]Rule, len(c))
		copy(and, c)
		for j := range and {
			if and[j].Values == nil {
				and[j].Values = []string{}
			}
		}
		out[i] = map[string]any{"and": and}
	}
	return out
}

// Search is the search operations of a client: free-text and filtered
// search across entities, counts and facets (Python's client.search). Get
// it with [Client.Search]; it shares the client's connections and options.
type Search struct {
	c *Client
}

// Search returns the search operations of c.
func (c *Client) Search() *Search { return &Search{c: c} }

// Results finds the entities that match query and filter ("" or "*" for
// all; the query is DataHub's free-text syntax, where terms all match, "|"
// is OR, "-" excludes and parentheses group, or after "/q " a structured
// query with AND, OR, NOT, field:value and ranges), page after page with DataHub's scrollAcrossEntities
// (scroll ids, so past 10,000 results too; never offset pages), in the
// server's order (relevance, then URN). It yields each result once, then
// [ErrResultLimit] if more results than the limit match; an error from the
// server, the context or a bad filter is yielded and ends the search, as is
// a scroll that does not move (a next scroll id with an empty page, or the
// scroll id that was sent): a *datahub.Error saying the answer is bad.
//
//	for r, err := range c.Search().Results(ctx, "*", client.And(client.EntityType("mlFeatureTable"), client.Platform("feast"))) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(r.URN)
//	}
func (sr *Search) Results(ctx context.Context, query string, filter SearchFilter, opts ...SearchOption) iter.Seq2[SearchResult, error] {
	c := sr.c
	return func(yield func(SearchResult, error) bool) {
		s, err := settingsOf(opts)
		if err != nil {
			yield(SearchResult{}, err)
			return
		}
		clauses, types, err := filter.compile()
		if err != nil {
			yield(SearchResult{}, err)
			return
		}
		if query == "" {
			query = "*"
		}
		input := map[string]any{"query": query, "orFilters": orFiltersJSON(clauses), "searchFlags": searchFlags}
		if types != nil {
			input["types"] = types
		}
		n := 0
		for {
			if err := ctx.Err(); err != nil {
				yield(SearchResult{}, err)
				return
			}
			if s.first && n == s.limit {
				return
			}
			size := s.pageSize
			switch {
			case s.first:
				size = min(size, s.limit-n)
			case s.limit >= 0:
				size = min(size, s.limit-n+1) // one more than the limit tells whether it cut
			}
			input["count"] = size
			page, err := c.page(ctx, scrollDocument, "scrollAcrossEntities", input)
			if err != nil {
				yield(SearchResult{}, err)
				return
			}
			for _, lr := range page.results {
				r := lr.SearchResult
				if s.limit >= 0 && n == s.limit {
					if s.first {
						return
					}
					yield(SearchResult{}, fmt.Errorf("%w: %d of %d results yielded (WithLimit)", ErrResultLimit, n, page.total))
					return
				}
				n++
				if !yield(r, nil) {
					return
				}
			}
			if page.next == nil {
				return
			}
			input["scrollId"] = *page.next
		}
	}
}

// scrollPage is one decoded page of scrollAcrossEntities or
// scrollAcrossLineage (whose results also have a degree and paths).
type scrollPage struct {
	next    *string
	total   int
	results []LineageResult
}

// page asks for one page of the scroll field with document.
func (c *Client) page(ctx context.Context, document, field string, input map[string]any) (scrollPage, error) {
	data, err := c.GraphQL(ctx, document, map[string]any{"input": input}, field)
	if err != nil {
		return scrollPage{}, err
	}
	var out map[string]*struct {
		NextScrollID  *string `json:"nextScrollId"`
		Total         int     `json:"total"`
		SearchResults []struct {
			Degree int `json:"degree"`
			Paths  []*struct {
				Path []*EntityRef `json:"path"`
			} `json:"paths"`
			MatchedFields []MatchedField  `json:"matchedFields"`
			Entity        json.RawMessage `json:"entity"`
		} `json:"searchResults"`
	}
	if err := json.Unmarshal(data, &out); err != nil || out[field] == nil {
		return scrollPage{}, c.badAnswer(field, err)
	}
	p := scrollPage{next: out[field].NextScrollID, total: out[field].Total}
	for _, sr := range out[field].SearchResults {
		r := LineageResult{SearchResult: SearchResult{MatchedFields: sr.MatchedFields}, Degree: sr.Degree}
		if err := decodeEntity(sr.Entity, &r.SearchResult); err != nil {
			return scrollPage{}, c.badAnswer(field, err)
		}
		for _, path := range sr.Paths {
			if path == nil {
				continue
			}
			refs := make([]EntityRef, 0, len(path.Path))
			for _, e := range path.Path {
				if e != nil {
					refs = append(refs, *e)
				}
			}
			r.Paths = append(r.Paths, refs)
		}
		p.results = append(p.results, r)
	}
	if p.next != nil {
		// A scroll that does not move would be asked for the same page
		// forever.
		if len(p.results) == 0 {
			return scrollPage{}, c.badAnswer(field, fmt.Errorf("an empty page with a next scroll id %q", *p.next))
		}
		if prev, ok := input["scrollId"].(string); ok && prev == *p.next {
			return scrollPage{}, c.badAnswer(field, fmt.Errorf("the next scroll id %q is the one asked for", prev))
		}
	}
	return p, nil
}

// badAnswer is the error of an answer that does not decode.
func (c *Client) badAnswer(field string, err error) error {
	if err == nil {
		err = errors.New("no data")
	}
	return &datahub.Error{StatusCode: 200, Message: fmt.Sprintf("graphql %s: the answer does not decode: %v", field, err),
		Method: "POST", URL: datahub.RedactURL(c.gql.url)}
}

// Searchable are the entity types [SearchAs] yields typed.
type Searchable interface {
	DatasetView | MLFeatureView | MLFeatureTableView | MLModelView | MLModelGroupView
}

// SearchAs is [Search.Results] restricted to the entities of type T, yielded
// as T:
//
//	for t, err := range client.SearchAs[client.MLFeatureTableView](ctx, c, "*", client.Platform("feast")) {
func SearchAs[T Searchable](ctx context.Context, c *Client, query string, filter SearchFilter, opts ...SearchOption) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		var zero *T
		typ := entityTypeOf(zero)
		for r, err := range c.Search().Results(ctx, query, And(EntityType(typ), filter), opts...) {
			if err != nil {
				yield(nil, err)
				return
			}
			var v any
			switch typ {
			case "DATASET":
				v = r.Dataset
			case "MLFEATURE":
				v = r.MLFeature
			case "MLFEATURE_TABLE":
				v = r.MLFeatureTable
			case "MLMODEL":
				v = r.MLModel
			default:
				v = r.MLModelGroup
			}
			t, ok := v.(*T)
			if !ok || t == nil {
				yield(nil, c.badAnswer("scrollAcrossEntities", fmt.Errorf("result %s is a %s, not a %s", r.URN, r.Type, typ)))
				return
			}
			if !yield(t, nil) {
				return
			}
		}
	}
}

// entityTypeOf returns the EntityType of a typed result.
func entityTypeOf(v any) string {
	switch v.(type) {
	case *DatasetView:
		return "DATASET"
	case *MLFeatureView:
		return "MLFEATURE"
	case *MLFeatureTableView:
		return "MLFEATURE_TABLE"
	case *MLModelView:
		return "MLMODEL"
	}
	return "MLMODEL_GROUP"
}

// Count returns the number of entities that match query and filter, from
// one searchAcrossEntities asking for no results.
func (sr *Search) Count(ctx context.Context, query string, filter SearchFilter) (int, error) {
	c := sr.c
	input, err := aggInput(query, filter)
	if err != nil {
		return 0, err
	}
	input["start"], input["count"] = 0, 0
	data, err := c.GraphQL(ctx, countDocument, map[string]any{"input": input}, "searchAcrossEntities")
	if err != nil {
		return 0, err
	}
	var out struct {
		Search *struct {
			Total int `json:"total"`
		} `json:"searchAcrossEntities"`
	}
	if err := json.Unmarshal(data, &out); err != nil || out.Search == nil {
		return 0, c.badAnswer("searchAcrossEntities", err)
	}
	return out.Search.Total, nil
}

func aggInput(query string, filter SearchFilter) (map[string]any, error) {
	clauses, types, err := filter.compile()
	if err != nil {
		return nil, err
	}
	if query == "" {
		query = "*"
	}
	input := map[string]any{"query": query, "orFilters": orFiltersJSON(clauses),
		"searchFlags": map[string]any{"skipHighlighting": true}}
	if types != nil {
		input["types"] = types
	}
	return input, nil
}

// Facet is the values of one index field over the entities a search
// matches, with their counts, most frequent first.
type Facet struct {
	Field       string       `json:"field"`
	DisplayName *string      `json:"displayName"`
	Values      []FacetValue `json:"aggregations"`
}

// FacetValue is one value of a facet and how many entities have it.
type FacetValue struct {
	Value       string  `json:"value"`
	Count       int64   `json:"count"`
	DisplayName *string `json:"displayName"`
}

// Facets returns the facets of the entities that match query and filter:
// those of the given index fields ("platform", "tags", "_entityType"), or
// every facet the server aggregates by default when none are given.
func (sr *Search) Facets(ctx context.Context, query string, filter SearchFilter, fields ...string) ([]Facet, error) {
	c := sr.c
	input, err := aggInput(query, filter)
	if err != nil {
		return nil, err
	}
	if len(fields) > 0 {
		input["facets"] = fields
	}
	data, err := c.GraphQL(ctx, facetsDocument, map[string]any{"input": input}, "aggregateAcrossEntities")
	if err != nil {
		return nil, err
	}
	var out struct {
		Agg *struct {
			Facets []Facet `json:"facets"`
		} `json:"aggregateAcrossEntities"`
	}
	if err := json.Unmarshal(data, &out); err != nil || out.Agg == nil {
		return nil, c.badAnswer("aggregateAcrossEntities", err)
	}
	return out.Agg.Facets, nil
}
