package client

import (
	"context"
	"fmt"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/urn"
)

// LineageDirection is the way a lineage read walks.
type LineageDirection string

// The lineage directions.
const (
	// Upstream walks toward what the entity comes from.
	Upstream LineageDirection = "UPSTREAM"
	// Downstream walks toward what comes from the entity.
	Downstream LineageDirection = "DOWNSTREAM"
)

// LineageResult is one entity a lineage read reached.
type LineageResult struct {
	SearchResult
	// Degree is the number of hops from the start, the fewest.
	Degree int
	// Paths are the shortest paths from the start to this entity, each
	// starting with the start and ending with this entity.
	Paths [][]EntityRef
}

// lineageDocument is the lineage read, checked against DataHub's SDL by
// TestGraphQLDocumentsValidate.
const lineageDocument = `query scrollAcrossLineage($input: ScrollAcrossLineageInput!) {
  scrollAcrossLineage(input: $input) { nextScrollId count total
    searchResults { degree paths { path { urn type } } matchedFields { name value } ` + searchEntityFields + ` } } }`

// Lineage is the lineage operations of a client: adding edges between
// entities (with column-level lineage and the query that made them) and
// reading lineage, of entities and of columns (Python's client.lineage).
// Get it with [Client.Lineage]; it shares the client's connections,
// options and write strategy.
type Lineage struct {
	c *Client
}

// Lineage returns the lineage operations of c.
func (c *Client) Lineage() *Lineage { return &Lineage{c: c} }

// Get returns the entities up to hops hops upstream or downstream of
// u that filter keeps (soft-deleted ones left out unless the filter says
// otherwise), with their degree and shortest paths, by fewest hops then
// URN; DataHub's scrollAcrossLineage, page after page. DataHub's degree
// filter knows "1", "2" and "3+": for hops above 2 the server walks without
// a bound and Get keeps the results within hops. More results than
// the limit ([WithLimit]) give the first ones and an error matching
// [ErrResultLimit]; [WithFirst] takes the first ones without an error.
func (l *Lineage) Get(ctx context.Context, u urn.URN, direction LineageDirection, hops int, filter SearchFilter, opts ...SearchOption) ([]LineageResult, error) {
	c := l.c
	if err := checkURN(u); err != nil {
		return nil, err
	}
	if direction != Upstream && direction != Downstream {
		return nil, fmt.Errorf("client: lineage direction %q: want Upstream or Downstream: %w", direction, datahub.ErrValidation)
	}
	if hops < 1 {
		return nil, fmt.Errorf("client: lineage hops %d: must be at least 1: %w", hops, datahub.ErrValidation)
	}
	s, err := settingsOf(opts)
	if err != nil {
		return nil, err
	}
	degrees := []string{"1", "2", "3+"}
	if hops <= 2 {
		degrees = degrees[:hops]
	}
	clauses, types, err := And(Field("degree", Equal, degrees...), filter).compile()
	if err != nil {
		return nil, err
	}
	input := map[string]any{"urn": u.String(), "direction": string(direction), "query": "*",
		"orFilters": orFiltersJSON(clauses), "searchFlags": searchFlags, "count": s.pageSize}
	if types != nil {
		input["types"] = types
	}
	var out []LineageResult
	for {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		page, err := c.page(ctx, lineageDocument, "scrollAcrossLineage", input)
		if err != nil {
			return out, err
		}
		for _, r := range page.results {
			if r.Degree > hops {
				continue
			}
			if s.limit >= 0 && len(out) == s.limit {
				if s.first {
					return out, nil
				}
				return out, fmt.Errorf("%w: %d lineage results kept (WithLimit)", ErrResultLimit, len(out))
			}
			out = append(out, r)
		}
		if page.next == nil {
			return out, nil
		}
		input["scrollId"] = *page.next
	}
}

// lineagePairs are the pairs Lineage.Add records, upstream→downstream, in
// the order its documentation gives them.
var lineagePairs = []string{
	"dataset→dataset", "dataset→chart", "dataset→dashboard", "dataset→dataJob",
	"chart→dashboard", "dashboard→dashboard", "dataJob→dataJob", "dataJob→dataset",
	"dataset→mlFeature", "mlFeature→mlModel",
	"dataProcessInstance→mlModel", "dataJob→mlModel", "mlModel→mlModelGroup",
}

// lineageAdvice says what Lineage.Add refusing from→to can do instead: the
// pairs it records from an entity of type from (all of them when none),
// and, where DataHub models the link another way, that way.
func lineageAdvice(from, to string) string {
	var same []string
	for _, p := range lineagePairs {
		if strings.HasPrefix(p, from+"→") {
			same = append(same, p)
		}
	}
	var advice string
	if len(same) > 0 {
		advice = fmt.Sprintf("the pairs from %s are %s", from, strings.Join(same, ", "))
	} else {
		advice = fmt.Sprintf("the pairs are %s", strings.Join(lineagePairs, ", "))
	}
	switch {
	case from == urn.TypeDataset && to == urn.TypeMLModel:
		advice += "; DataHub links a dataset to a model through the features the model uses" +
			" (Lineage.Add dataset→mlFeature, then mlFeature→mlModel) or through a training run" +
			" (a dataProcessInstance with the dataset among its inputs, see entity.NewTrainingRun, then Lineage.Add dataProcessInstance→mlModel)"
	case from == urn.TypeDataset && to == urn.TypeMLModelGroup:
		advice += "; DataHub links a dataset to a model group through its models" +
			" (link the dataset to a model through its features or a training run, then Lineage.Add mlModel→mlModelGroup)"
	case from == urn.TypeMLFeature && to == urn.TypeMLModelGroup:
		advice += "; DataHub links a feature to a model group through its models (Lineage.Add mlFeature→mlModel, then mlModel→mlModelGroup)"
	}
	return advice
}
