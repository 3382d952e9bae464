package gms

import (
	"cmp"
	"slices"

	"github.com/catalogkit/datahub-go/mockserver/internal/index"
)

// pageEntityFacet is the "entity" facet DataHub's scrollAcrossEntities
// adds to a list or scroll that skips aggregations (the OpenAPI v3 default):
// the number of hits of each entity type on the page itself, not over every
// match, so a page of one dataset among three matches counts dataset 1. An
// empty page gives the facet with no values.
func pageEntityFacet(urns []string) Facet {
	counts := map[string]int{}
	for _, u := range urns {
		counts[EntityTypeOf(u)]++
	}
	values := make([]index.FacetValue, 0, len(counts))
	for v, n := range counts {
		values = append(values, index.FacetValue{Value: v, Count: n})
	}
	slices.SortFunc(values, func(a, b index.FacetValue) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Value, b.Value))
	})
	return Facet{Field: "entity", DisplayName: "Type", Values: values}
}
