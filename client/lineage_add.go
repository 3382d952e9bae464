package client

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/urn"
)

// ColumnLineage is one column-level lineage edge of a dataset-to-dataset
// [Lineage.Add]: the upstream column feeds the downstream column (field
// paths of the two datasets).
type ColumnLineage struct {
	Upstream, Downstream string
}

// ColumnMatch is how [WithColumnMatching] pairs the columns of two
// datasets.
type ColumnMatch int

// The column matchings, as DataHub's Python SDK names them.
const (
	// MatchStrict pairs columns whose field paths are equal ignoring case
	// (Python's "auto_strict").
	MatchStrict ColumnMatch = iota + 1
	// MatchFuzzy pairs a downstream column with the upstream column of the
	// same field path; failing that, the one equal to it in lower case
	// without "_"; failing that, the one most similar to it so (difflib's
	// ratio, at least 0.8; see [Similarity]) (Python's "auto_fuzzy", and
	// what column_lineage=True means there).
	MatchFuzzy
)

// LineageOption configures [Lineage.Add].
type LineageOption struct{ apply func(*lineageSettings) }

type lineageSettings struct {
	columns   []ColumnLineage
	match     ColumnMatch
	matchSet  bool
	query     string
	querySet  bool
	badOption error
}

// WithColumnLineage adds column-level lineage to a dataset-to-dataset
// edge, given column by column.
func WithColumnLineage(columns ...ColumnLineage) LineageOption {
	return LineageOption{func(s *lineageSettings) { s.columns = append(s.columns, columns...) }}
}

// WithColumnMatching adds column-level lineage to a dataset-to-dataset
// edge by matching the field paths of the two datasets' schemaMetadata
// with m. A dataset without a schema has no columns to match.
func WithColumnMatching(m ColumnMatch) LineageOption {
	return LineageOption{func(s *lineageSettings) {
		if m != MatchStrict && m != MatchFuzzy {
			s.badOption = fmt.Errorf("client: column matching %d: want MatchStrict or MatchFuzzy: %w", m, datahub.ErrValidation)
		}
		s.match, s.matchSet = m, true
	}}
}

// WithTransformation records the text (SQL) that made a
// dataset-to-dataset edge as a query entity, as DataHub's Python SDK
// does: urn:li:query:<hex SHA-256 of the text> with queryProperties
// (the statement, language SQL, source SYSTEM, created and lastModified
// at time 0 by urn:li:corpuser:__ingestion) and querySubjects (the two
// datasets, then the columns of the column lineage); the upstream is then
// of type TRANSFORMED and it and the column lineage name the query.
func WithTransformation(text string) LineageOption {
	return LineageOption{func(s *lineageSettings) {
		if text == "" {
			s.badOption = fmt.Errorf("client: empty transformation text: %w", datahub.ErrValidation)
		}
		s.query, s.querySet = text, true
	}}
}

// QueryURN returns the URN DataHub's Python SDK gives the query entity
// recording transformation text: urn:li:query: and the hex SHA-256 of the
// text's UTF-8 bytes.
func QueryURN(text string) urn.Query {
	sum := sha256.Sum256([]byte(text))
	q, _ := urn.NewQuery(hex.EncodeToString(sum[:]))
	return q
}

// queryActor is the actor of the query entity's audit stamps, DataHub's
// Python SDK's default actor.
const queryActor = "urn:li:corpuser:__ingestion"

// Add records that upstream feeds downstream, as a PATCH of the aspect
// that holds the edge (as DataHub's Python SDK writes it), so that
// concurrent writers of other edges lose nothing (whatever the client's
// write strategy); the entity patched must exist (an
// *EntityNotFoundError otherwise). The pairs:
//
//   - dataset → dataset: the downstream's upstreamLineage (type COPY, or
//     TRANSFORMED with [WithTransformation]), with column lineage from
//     [WithColumnLineage] or [WithColumnMatching];
//   - dataset → chart: the chart's chartInfo.inputEdges;
//   - dataset → dashboard: the dashboard's dashboardInfo.datasetEdges;
//   - chart → dashboard: the dashboard's dashboardInfo.chartEdges;
//   - dashboard → dashboard: the dashboard's dashboardInfo.dashboards;
//   - dataset → dataJob: the job's dataJobInputOutput.inputDatasetEdges;
//   - dataJob → dataJob: the job's dataJobInputOutput.inputDatajobEdges;
//   - dataJob → dataset: the upstream job's
//     dataJobInputOutput.outputDatasetEdges (the job is patched);
//   - dataset → mlFeature: the feature's sources;
//   - mlFeature → mlModel: the model's features;
//   - dataProcessInstance (a training run) or dataJob → mlModel: the
//     model's training jobs;
//   - mlModel → mlModelGroup: the model's groups (the model is patched).
//
// Column lineage and transformation text are for two datasets only. Other
// pairs are refused with an error matching datahub.ErrValidation that
// names the pairs recorded from the upstream's type. DataHub has no edge
// from a dataset to a model: a model's data is linked through the
// features it uses (dataset → mlFeature, then mlFeature → mlModel) or
// through a training run that read the dataset (a dataProcessInstance
// with the dataset among its inputs, see entity.NewTrainingRun, then
// dataProcessInstance → mlModel).
func (l *Lineage) Add(ctx context.Context, upstream, downstream urn.URN, opts ...LineageOption) error {
	c := l.c
	for _, u := range []urn.URN{upstream, downstream} {
		if err := checkURN(u); err != nil {
			return err
		}
	}
	var s lineageSettings
	for _, o := range opts {
		o.apply(&s)
	}
	if s.badOption != nil {
		return s.badOption
	}
	up, down := upstream.String(), downstream.String()
	pair := upstream.EntityType() + "→" + downstream.EntityType()
	if (len(s.columns) > 0 || s.matchSet || s.querySet) && pair != "dataset→dataset" {
		return fmt.Errorf("client: column lineage and transformation text need two datasets, not %s: %w", pair, datahub.ErrValidation)
	}
	if len(s.columns) > 0 && s.matchSet {
		return fmt.Errorf("client: column lineage given and matched: choose WithColumnLineage or WithColumnMatching: %w", datahub.ErrValidation)
	}
	switch pair {
	case "dataset→dataset":
		return l.addDatasetLineage(ctx, upstream, downstream, s)
	case "dataset→chart":
		b := patch.New(downstream)
		(&patch.Chart{Builder: b}).AddInput(up)
		return c.writePatch(ctx, downstream, "chartInfo", b, true)
	case "dataset→dashboard", "chart→dashboard", "dashboard→dashboard":
		b := patch.New(downstream)
		d := &patch.Dashboard{Builder: b}
		switch upstream.EntityType() {
		case urn.TypeDataset:
			d.AddDataset(up)
		case urn.TypeChart:
			d.AddChart(up)
		default:
			d.AddDashboard(up)
		}
		return c.writePatch(ctx, downstream, "dashboardInfo", b, true)
	case "dataset→dataJob", "dataJob→dataJob":
		b := patch.New(downstream)
		j := &patch.DataJob{Builder: b}
		if upstream.EntityType() == urn.TypeDataset {
			j.AddInputDataset(up)
		} else {
			j.AddInputJob(up)
		}
		return c.writePatch(ctx, downstream, "dataJobInputOutput", b, true)
	case "dataJob→dataset":
		b := patch.New(upstream)
		(&patch.DataJob{Builder: b}).AddOutputDataset(down)
		return c.writePatch(ctx, upstream, "dataJobInputOutput", b, true)
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

// addDatasetLineage writes the dataset-to-dataset edge, its column
// lineage and, with transformation text, the query entity, in one emit.
func (l *Lineage) addDatasetLineage(ctx context.Context, upstream, downstream urn.URN, s lineageSettings) error {
	c := l.c
	columns := s.columns
	if s.matchSet {
		var err error
		if columns, err = l.matchColumns(ctx, upstream, downstream, s.match); err != nil {
			return err
		}
	}
	type edge struct{ from, to string }
	edges := make([]edge, 0, len(columns))
	for _, col := range columns {
		from, err := urn.NewSchemaField(upstream, col.Upstream)
		if err != nil {
			return err
		}
		to, err := urn.NewSchemaField(downstream, col.Downstream)
		if err != nil {
			return err
		}
		edges = append(edges, edge{from.String(), to.String()})
	}
	b := patch.New(downstream)
	d := &patch.Dataset{Builder: b}
	query := ""
	if s.querySet {
		query = QueryURN(s.query).String()
		d.AddUpstream(aspects.Upstream{Dataset: upstream.String(), Type: aspects.DatasetLineageTypeTransformed, Query: &query})
	} else {
		d.AddUpstream(aspects.Upstream{Dataset: upstream.String(), Type: aspects.DatasetLineageTypeCopy})
	}
	for _, e := range edges {
		d.AddFineGrainedUpstream("", e.to, query, e.from, 1)
	}
	if !s.querySet {
		return c.writePatch(ctx, downstream, "upstreamLineage", b, true)
	}
	// Python's order of subjects: the two datasets, then for each column
	// edge its upstreams and downstreams, each once.
	var subjects []aspects.QuerySubject
	seen := map[string]bool{}
	for _, u := range []string{upstream.String(), downstream.String()} {
		if !seen[u] {
			seen[u] = true
			subjects = append(subjects, aspects.QuerySubject{Entity: u})
		}
	}
	for _, e := range edges {
		for _, u := range []string{e.from, e.to} {
			if !seen[u] {
				seen[u] = true
				subjects = append(subjects, aspects.QuerySubject{Entity: u})
			}
		}
	}
	stamp := aspects.AuditStamp{Time: 0, Actor: queryActor}
	q := QueryURN(s.query)
	props, err := emitter.NewProposal(q, aspects.QueryProperties{
		Statement: aspects.QueryStatement{Value: s.query, Language: aspects.QueryLanguageSQL},
		Source:    aspects.QuerySourceSystem, Created: stamp, LastModified: stamp,
	})
	if err != nil {
		return err
	}
	subj, err := emitter.NewProposal(q, aspects.QuerySubjects{Subjects: subjects})
	if err != nil {
		return err
	}
	return c.writePatch(ctx, downstream, "upstreamLineage", b, true, props, subj)
}

// matchColumns pairs the columns of the two datasets' schemas with m.
func (l *Lineage) matchColumns(ctx context.Context, upstream, downstream urn.URN, m ColumnMatch) ([]ColumnLineage, error) {
	fields := func(u urn.URN) ([]string, error) {
		sm, err := GetAspect[aspects.SchemaMetadata](ctx, l.c, u)
		if errors.Is(err, datahub.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		out := make([]string, 0, len(sm.Fields))
		for _, f := range sm.Fields {
			out = append(out, f.FieldPath)
		}
		return out, nil
	}
	ups, err := fields(upstream)
	if err != nil {
		return nil, err
	}
	downs, err := fields(downstream)
	if err != nil {
		return nil, err
	}
	if m == MatchStrict {
		return MatchColumnsStrict(ups, downs), nil
	}
	return MatchColumnsFuzzy(ups, downs), nil
}
