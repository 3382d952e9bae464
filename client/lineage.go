package client

import (
	"context"
	"fmt"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter/patch"
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

// GetLineage returns the entities up to hops hops upstream or downstream of
// u that filter keeps (soft-deleted ones left out unless the filter says
// otherwise), with their degree and shortest paths, by fewest hops then
// URN; DataHub's scrollAcrossLineage, page after page. DataHub's degree
// filter knows "1", "2" and "3+": for hops above 2 the server walks without
// a bound and GetLineage keeps the results within hops. More results than
// the limit ([WithLimit]) give the first ones and an error matching
// [ErrResultLimit]; [WithFirst] takes the first ones without an error.
func (c *Client) GetLineage(ctx context.Context, u urn.URN, direction LineageDirection, hops int, filter SearchFilter, opts ...SearchOption) ([]LineageResult, error) {
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

// ColumnLineage is one column-level lineage edge of a dataset-to-dataset
// [Client.AddLineage]: the upstream column feeds the downstream column
// (field paths of the two datasets).
type ColumnLineage struct {
	Upstream, Downstream string
}

// LineageOption configures [Client.AddLineage].
type LineageOption struct{ apply func(*lineageSettings) }

type lineageSettings struct{ columns []ColumnLineage }

// WithColumnLineage adds column-level lineage to a dataset-to-dataset
// edge.
func WithColumnLineage(columns ...ColumnLineage) LineageOption {
	return LineageOption{func(s *lineageSettings) { s.columns = append(s.columns, columns...) }}
}

// AddLineage records that upstream feeds downstream, as a PATCH of the
// aspect that holds the edge, so that concurrent writers of other edges
// lose nothing (whatever the client's write strategy); the entity patched
// must exist. The pairs:
//
//   - dataset → dataset: the downstream's upstreamLineage (type COPY),
//     with column lineage from [WithColumnLineage];
//   - dataset → mlFeature: the feature's sources;
//   - mlFeature → mlModel: the model's features;
//   - dataProcessInstance (a training run) or dataJob → mlModel: the
//     model's training jobs;
//   - mlModel → mlModelGroup: the model's groups (the model is patched).
//
// Other pairs are refused with an error matching datahub.ErrValidation
// that names the pairs recorded from the upstream's type. DataHub has no
// edge from a dataset to a model: a model's data is linked through the
// features it uses (dataset → mlFeature, then mlFeature → mlModel) or
// through a training run that read the dataset (a dataProcessInstance
// with the dataset among its inputs, see entity.NewTrainingRun, then
// dataProcessInstance → mlModel).
func (c *Client) AddLineage(ctx context.Context, upstream, downstream urn.URN, opts ...LineageOption) error {
	for _, u := range []urn.URN{upstream, downstream} {
		if err := checkURN(u); err != nil {
			return err
		}
	}
	var s lineageSettings
	for _, o := range opts {
		o.apply(&s)
	}
	up, down := upstream.String(), downstream.String()
	pair := upstream.EntityType() + "→" + downstream.EntityType()
	if len(s.columns) > 0 && pair != "dataset→dataset" {
		return fmt.Errorf("client: column lineage needs two datasets, not %s: %w", pair, datahub.ErrValidation)
	}
	switch pair {
	case "dataset→dataset":
		b := patch.New(downstream)
		d := &patch.Dataset{Builder: b}
		d.AddUpstream(aspects.Upstream{Dataset: up, Type: aspects.DatasetLineageTypeCopy})
		for _, col := range s.columns {
			from, err := urn.NewSchemaField(upstream, col.Upstream)
			if err != nil {
				return err
			}
			to, err := urn.NewSchemaField(downstream, col.Downstream)
			if err != nil {
				return err
			}
			d.AddFineGrainedUpstream("", to.String(), "", from.String(), 1)
		}
		return c.writePatch(ctx, downstream, "upstreamLineage", b, true)
	case "dataset→mlFeature":
		b := patch.New(downstream)
		(&patch.MLFeature{Builder: b}).AddSource(up)
		return c.writePatch(ctx, downstream, mlFeatureProps, b, true)
	case "mlFeature→mlModel":
		b := patch.New(downstream)
		(&patch.MLModel{Builder: b}).AddFeature(up)
		return c.writePatch(ctx, downstream, mlModelProps, b, true)
	case "dataProcessInstance→mlModel", "dataJob→mlModel":
		b := patch.New(downstream)
		(&patch.MLModel{Builder: b}).AddTrainingJob(up)
		return c.writePatch(ctx, downstream, mlModelProps, b, true)
	case "mlModel→mlModelGroup":
		b := patch.New(upstream)
		(&patch.MLModel{Builder: b}).AddGroup(down)
		return c.writePatch(ctx, upstream, mlModelProps, b, true)
	}
	return fmt.Errorf("client: unsupported lineage %s (%s -> %s): %s: %w", pair, up, down,
		lineageAdvice(upstream.EntityType(), downstream.EntityType()), datahub.ErrValidation)
}

// lineagePairs are the pairs AddLineage records, upstream→downstream, in
// the order its documentation gives them.
var lineagePairs = []string{
	"dataset→dataset", "dataset→mlFeature", "mlFeature→mlModel",
	"dataProcessInstance→mlModel", "dataJob→mlModel", "mlModel→mlModelGroup",
}

// lineageAdvice says what AddLineage refusing from→to can do instead: the
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
			" (AddLineage dataset→mlFeature, then mlFeature→mlModel) or through a training run" +
			" (a dataProcessInstance with the dataset among its inputs, see entity.NewTrainingRun, then AddLineage dataProcessInstance→mlModel)"
	case from == urn.TypeDataset && to == urn.TypeMLModelGroup:
		advice += "; DataHub links a dataset to a model group through its models" +
			" (link the dataset to a model through its features or a training run, then AddLineage mlModel→mlModelGroup)"
	case from == urn.TypeMLFeature && to == urn.TypeMLModelGroup:
		advice += "; DataHub links a feature to a model group through its models (AddLineage mlFeature→mlModel, then mlModel→mlModelGroup)"
	}
	return advice
}
