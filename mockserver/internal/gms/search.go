package gms

import (
	"context"

	"github.com/catalogkit/datahub-go/mockserver/internal/index"
)

// The search vocabulary of the core: a search, a lineage walk and their
// answers are the search index's values, named here so that adapters speak
// to the core alone.
type (
	// Query is a search (searchAcrossEntities, scrollAcrossEntities,
	// aggregateAcrossEntities).
	Query = index.Query
	// LineageQuery is a lineage search (searchAcrossLineage,
	// scrollAcrossLineage).
	LineageQuery = index.LineageQuery
	// Filter is a search's filter: OR of ANDs of criteria.
	Filter = index.Filter
	// Criterion is one criterion of a [Filter].
	Criterion = index.Criterion
	// SearchResult is a page of a search or a scroll.
	SearchResult = index.Result
	// SearchHit is one entity of a [SearchResult].
	SearchHit = index.Hit
	// Facet is one aggregation of a [SearchResult].
	Facet = index.Facet
)

// CondEqual is a criterion's default condition.
const CondEqual = index.CondEqual

// MaxCount is DataHub's largest page of a search or scroll.
const MaxCount = index.MaxCount

// The refusals of a search, matched with errors.Is.
var (
	// ErrBadQuery is a query the search refuses as a bad request (a bad
	// criterion or keep-alive, a query too long).
	ErrBadQuery = index.ErrBadQuery
	// ErrQuerySyntax is a structured query Elasticsearch cannot parse,
	// which fails the search (a server error).
	ErrQuerySyntax = index.ErrQuerySyntax
	// ErrKeepAlive is a keep-alive Elasticsearch refuses.
	ErrKeepAlive = index.ErrKeepAlive
	// ErrScrollBase64 is a scroll id that is not Base64.
	ErrScrollBase64 = index.ErrScrollBase64
	// ErrScrollID is a scroll id that names no open scroll.
	ErrScrollID = index.ErrScrollID
)

// ClampCount applies DataHub's count limit to a page size: a negative count
// or one above [MaxCount] is MaxCount.
func ClampCount(n int) int { return index.ClampCount(n) }

// CheckScrollBase64 reports the error of a scroll id that is not Base64 as
// DataHub decodes it (nil when it is).
func CheckScrollBase64(id string) error {
	_, err := index.DecodeBase64(id)
	return err
}

// Search runs q on the search index, which follows the store after the
// async lag as DataHub's Elasticsearch does; it stops when ctx is done.
func (c *Core) Search(ctx context.Context, q Query) (SearchResult, error) {
	c.barrier()
	return c.ix.SearchContext(ctx, q)
}

// Scroll runs q from the scroll id (""; the first page), keeping the
// scroll open for keepAlive ("5m").
func (c *Core) Scroll(ctx context.Context, q Query, scrollID, keepAlive string) (SearchResult, error) {
	c.barrier()
	return c.ix.ScrollContext(ctx, q, scrollID, keepAlive)
}

// SearchLineage runs a lineage search from q.URN.
func (c *Core) SearchLineage(ctx context.Context, q LineageQuery) (SearchResult, error) {
	c.barrier()
	return c.ix.SearchLineageContext(ctx, q)
}

// ScrollLineage runs a lineage search from q.URN from the scroll id.
func (c *Core) ScrollLineage(ctx context.Context, q LineageQuery, scrollID, keepAlive string) (SearchResult, error) {
	c.barrier()
	return c.ix.ScrollLineageContext(ctx, q, scrollID, keepAlive)
}
