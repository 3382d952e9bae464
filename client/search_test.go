package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

func TestFilterCompile(t *testing.T) {
	t.Parallel()
	notRemoved := Rule{Field: "removed", Condition: Equal, Values: []string{"true"}, Negated: true}
	tag := func(n string) Rule { return Rule{Field: "tags", Condition: Equal, Values: []string{"urn:li:tag:" + n}} }
	tests := []struct {
		name      string
		f         SearchFilter
		want      [][]Rule
		wantTypes []string
	}{
		{"zero: soft-deleted left out", SearchFilter{}, [][]Rule{{notRemoved}}, nil},
		{"and multiplies out", And(Or(Tag("a"), Tag("b")), Tag("c")),
			[][]Rule{{tag("a"), tag("c"), notRemoved}, {tag("b"), tag("c"), notRemoved}}, nil},
		{"not of one clause: De Morgan", Not(And(Tag("a"), Tag("b"))),
			[][]Rule{{{Field: "tags", Condition: Equal, Values: []string{"urn:li:tag:a"}, Negated: true}, notRemoved},
				{{Field: "tags", Condition: Equal, Values: []string{"urn:li:tag:b"}, Negated: true}, notRemoved}}, nil},
		{"not of two clauses", Not(Or(Tag("a"), Tag("b"))),
			[][]Rule{{{Field: "tags", Condition: Equal, Values: []string{"urn:li:tag:a"}, Negated: true},
				{Field: "tags", Condition: Equal, Values: []string{"urn:li:tag:b"}, Negated: true}, notRemoved}}, nil},
		{"soft-deleted only", SoftDeleted(OnlySoftDeleted), [][]Rule{{{Field: "removed", Condition: Equal, Values: []string{"true"}}}}, nil},
		{"soft-deleted any", And(Tag("a"), SoftDeleted(AnySoftDeleted)), [][]Rule{{tag("a")}}, nil},
		{"types when every clause has one", And(EntityType("dataset", urn.TypeMLModel), Platform("hive")),
			[][]Rule{{{Field: "_entityType", Condition: Equal, Values: []string{"DATASET", "MLMODEL"}},
				{Field: "platform.keyword", Condition: Equal, Values: []string{"urn:li:dataPlatform:hive"}}, notRemoved}},
			[]string{"DATASET", "MLMODEL"}},
		{"no types when a clause has none", Or(EntityType("dataset"), Tag("a")),
			[][]Rule{{{Field: "_entityType", Condition: Equal, Values: []string{"DATASET"}}, notRemoved}, {tag("a"), notRemoved}}, nil},
		{"env is two clauses", Env("PROD"), [][]Rule{
			{{Field: "origin", Condition: Equal, Values: []string{"PROD"}}, notRemoved},
			{{Field: "env", Condition: Equal, Values: []string{"PROD"}}, notRemoved}}, nil},
		{"custom property", HasCustomProperty("team", "ml"), [][]Rule{{{Field: "customProperties", Condition: Equal, Values: []string{"team=ml"}}, notRemoved}}, nil},
		{"or() is none", Or(), [][]Rule{{{Field: "urn", Condition: Exists, Values: []string{}, Negated: true}, notRemoved}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, types, err := tc.f.compile()
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("clauses -want +got\n%s", d)
			}
			if d := cmp.Diff(tc.wantTypes, types); d != "" {
				t.Errorf("types -want +got\n%s", d)
			}
		})
	}
	for name, f := range map[string]SearchFilter{
		"bad owner": OwnedBy("urn:li:tag:x"), "bad type": EntityType("nope"), "empty field": Field("", Equal),
		"in an and": And(Tag("a"), OwnedBy("jo")), "in a not": Not(EntityType("x")),
	} {
		if _, _, err := f.compile(); !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("%s: %v, want a validation error", name, err)
		}
	}
}

// seedSearch writes two feast feature tables (one soft-deleted), a hive
// dataset with a tag and a model.
func seedSearch(t *testing.T, s *mockserver.Server) {
	t.Helper()
	put := func(u string, a aspects.Aspect) {
		t.Helper()
		if err := s.PutAspect(u, a); err != nil {
			t.Fatal(err)
		}
	}
	put("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)", aspects.MLFeatureTableProperties{
		Description: aspects.Ptr("Users"), MLFeatures: []string{"urn:li:mlFeature:(users,age)"}})
	put("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,old)", aspects.MLFeatureTableProperties{Description: aspects.Ptr("Old")})
	put("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,old)", aspects.Status{Removed: true})
	put("urn:li:mlFeatureTable:(urn:li:dataPlatform:tecton,other)", aspects.MLFeatureTableProperties{Description: aspects.Ptr("Other")})
	put("urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)", aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:pii"}}})
	put("urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)", aspects.MLModelProperties{Description: aspects.Ptr("Churn")})
}

func collect[T any](t *testing.T, seq func(func(T, error) bool)) ([]T, error) {
	t.Helper()
	var out []T
	for v, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

func TestSearchEndToEnd(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	seedSearch(t, s)
	c := newTestClient(t, s)
	ctx := t.Context()

	tables, err := collect(t, SearchAs[MLFeatureTableView](ctx, c, "*", Platform("feast")))
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 || tables[0].URN != "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)" ||
		tables[0].Properties == nil || len(tables[0].Properties.MLFeatures) != 1 || tables[0].Platform.Name != "feast" {
		t.Fatalf("feast tables = %+v", tables)
	}
	deleted, err := collect(t, c.Search().Results(ctx, "", And(EntityType("mlFeatureTable"), SoftDeleted(OnlySoftDeleted))))
	if err != nil || len(deleted) != 1 || deleted[0].MLFeatureTable == nil || deleted[0].URN != "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,old)" {
		t.Fatalf("soft-deleted = %+v, %v", deleted, err)
	}
	all, err := collect(t, c.Search().Results(ctx, "*", SearchFilter{}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range all {
		got = append(got, r.Type)
	}
	// By URN (equal scores): the dataset, the two live tables, the model.
	if d := cmp.Diff([]string{"DATASET", "MLFEATURE_TABLE", "MLFEATURE_TABLE", "MLMODEL"}, got); d != "" {
		t.Errorf("types -want +got\n%s", d)
	}
	if all[0].Dataset == nil || all[0].Dataset.Tags == nil || all[3].MLModel == nil ||
		all[3].MLModel.Properties == nil || *all[3].MLModel.Properties.Description != "Churn" {
		t.Errorf("typed results: %+v", all)
	}
	text, err := collect(t, c.Search().Results(ctx, "churn", SearchFilter{}))
	if err != nil || len(text) != 1 || len(text[0].MatchedFields) == 0 {
		t.Errorf("text search: %+v, %v", text, err)
	}
	n, err := c.Search().Count(ctx, "*", Tag("pii"))
	if err != nil || n != 1 {
		t.Errorf("Count = %d, %v", n, err)
	}
	facets, err := c.Search().Facets(ctx, "*", EntityType("mlFeatureTable"), "platform")
	if err != nil || len(facets) != 1 || len(facets[0].Values) != 2 || facets[0].Values[0].Value != "urn:li:dataPlatform:feast" {
		t.Errorf("Facets = %+v, %v", facets, err)
	}
}

func TestSearchLimitAndErrors(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	for i := range 30 {
		if err := s.PutAspectJSON(fmt.Sprintf("urn:li:tag:t%02d", i), "status", []byte(`{"removed":false}`)); err != nil {
			t.Fatal(err)
		}
	}
	c := newTestClient(t, s, datahub.ForTests())
	ctx := t.Context()
	tags := EntityType("tag")

	got, err := collect(t, c.Search().Results(ctx, "*", tags, WithLimit(25), WithPageSize(10)))
	if !errors.Is(err, ErrResultLimit) || len(got) != 25 {
		t.Errorf("limit 25 of 30: %d results, %v", len(got), err)
	}
	// WithFirst takes the first results without an error, and asks for no
	// more than it takes.
	before := s.RequestCount(mockserver.OpGraphQL)
	got, err = collect(t, c.Search().Results(ctx, "*", tags, WithFirst(25), WithPageSize(10)))
	if err != nil || len(got) != 25 {
		t.Errorf("first 25 of 30: %d results, %v", len(got), err)
	}
	if n := s.RequestCount(mockserver.OpGraphQL) - before; n != 3 {
		t.Errorf("first 25 by pages of 10: %d requests, want 3", n)
	}
	got, err = collect(t, c.Search().Results(ctx, "*", tags, WithFirst(0)))
	if err != nil || len(got) != 0 {
		t.Errorf("first 0: %d results, %v", len(got), err)
	}
	got, err = collect(t, c.Search().Results(ctx, "*", tags, WithFirst(5), WithLimit(3)))
	if !errors.Is(err, ErrResultLimit) || len(got) != 3 {
		t.Errorf("WithLimit after WithFirst: %d results, %v, want 3 and ErrResultLimit", len(got), err)
	}
	got, err = collect(t, c.Search().Results(ctx, "*", tags, WithLimit(30), WithPageSize(7)))
	if err != nil || len(got) != 30 {
		t.Errorf("limit 30 of 30: %d results, %v", len(got), err)
	}
	n := 0
	for range c.Search().Results(ctx, "*", tags, WithLimit(5)) {
		if n++; n == 2 {
			break // stopping early is no error
		}
	}

	// A refused page ends the search with the server's error.
	s.FailGraphQL("scrollAcrossEntities", mockserver.FailSpec{Status: 500, Times: mockserver.Forever, GraphQLError: "Failed to execute search"})
	got, err = collect(t, c.Search().Results(ctx, "*", tags, WithPageSize(10)))
	var ge *GraphQLError
	if !errors.As(err, &ge) || len(got) != 0 {
		t.Errorf("refused page: %d results, %v", len(got), err)
	}
	s.ClearFaults()

	// Cancelled between pages.
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n = 0
	var last error
	for _, err := range c.Search().Results(cctx, "*", tags, WithPageSize(10)) {
		if err != nil {
			last = err
			break
		}
		if n++; n == 10 {
			cancel()
		}
	}
	if !errors.Is(last, context.Canceled) || n != 10 {
		t.Errorf("cancelled: %d results, %v", n, last)
	}
	if _, err := collect(t, c.Search().Results(ctx, "*", tags, WithPageSize(0))); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("page size 0: %v", err)
	}
}

// TestSearchScroll25000 pages through 25,000 results and sees each once;
// an offset page past 10,000 is refused by the server, which the iterator
// (scroll ids only) never asks for.
func TestSearchScroll25000(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	const n = 25000
	for i := range n {
		if err := s.PutAspectJSON(fmt.Sprintf("urn:li:tag:t%05d", i), "status", []byte(`{"removed":false}`)); err != nil {
			t.Fatal(err)
		}
	}
	// No per-attempt timeout: under -race on a loaded machine a 1,000-hit
	// page can outlast DefaultTimeout, and the retry of a timed-out attempt
	// would count as one more request than the pages asked.
	c := newTestClient(t, s, datahub.WithTimeout(0))
	seen := make(map[string]int, n)
	for r, err := range c.Search().Results(t.Context(), "*", EntityType("tag"), WithLimit(-1), WithPageSize(MaxPageSize)) {
		if err != nil {
			t.Fatal(err)
		}
		seen[r.URN]++
	}
	if len(seen) != n {
		t.Fatalf("%d distinct results, want %d", len(seen), n)
	}
	for u, k := range seen {
		if k != 1 {
			t.Fatalf("%s seen %d times", u, k)
		}
	}
	_, err := c.GraphQL(t.Context(), countDocument, map[string]any{"input": map[string]any{
		"query": "*", "types": []string{"TAG"}, "start": 10000, "count": 10}}, "")
	var ge *GraphQLError
	if !errors.As(err, &ge) || ge.Code != 500 {
		t.Fatalf("offset page past 10,000: %v", err)
	}
	if got := s.RequestCount(mockserver.OpGraphQL); got != n/MaxPageSize+2 {
		t.Errorf("%d GraphQL requests, want %d scroll pages and the offset page", got, n/MaxPageSize+2)
	}
}

func TestLineageEndToEnd(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	ctx := t.Context()
	raw := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:s3,raw,PROD)")
	clean := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,clean,PROD)")
	feature := urn.MustParse("urn:li:mlFeature:(users,age)")
	model := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)")
	group := urn.MustParse("urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)")
	run := urn.MustParse("urn:li:dataProcessInstance:run-1")
	for _, u := range []urn.URN{raw, clean, feature, model, group, run} {
		if err := s.PutAspectJSON(u.String(), "status", []byte(`{"removed":false}`)); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range [][2]urn.URN{{raw, clean}, {clean, feature}, {feature, model}, {run, model}, {model, group}} {
		var opts []LineageOption
		if e[0] == raw {
			opts = append(opts, WithColumnLineage(ColumnLineage{Upstream: "id", Downstream: "user_id"}))
		}
		if err := c.Lineage().Add(ctx, e[0], e[1], opts...); err != nil {
			t.Fatalf("AddLineage %s -> %s: %v", e[0], e[1], err)
		}
	}
	if err := c.Lineage().Add(ctx, model, raw); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("model -> dataset: %v", err)
	}
	if err := c.Lineage().Add(ctx, feature, model, WithColumnLineage(ColumnLineage{"a", "b"})); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("column lineage on a feature: %v", err)
	}
	ul, err := upstreamsOf(s, clean)
	if err != nil || len(ul.Upstreams) != 1 || len(ul.FineGrainedLineages) != 1 {
		t.Fatalf("upstreamLineage = %+v, %v", ul, err)
	}

	got, err := c.Lineage().Get(ctx, model, Upstream, 3, SearchFilter{})
	if err != nil {
		t.Fatal(err)
	}
	type hop struct {
		URN    string
		Degree int
		Path   []string
	}
	var hops []hop
	for _, r := range got {
		var p []string
		for _, e := range r.Paths[0] {
			p = append(p, e.URN)
		}
		hops = append(hops, hop{r.URN, r.Degree, p})
	}
	want := []hop{
		{run.String(), 1, []string{model.String(), run.String()}},
		{feature.String(), 1, []string{model.String(), feature.String()}},
		{clean.String(), 2, []string{model.String(), feature.String(), clean.String()}},
		{raw.String(), 3, []string{model.String(), feature.String(), clean.String(), raw.String()}},
	}
	if d := cmp.Diff(want, hops); d != "" {
		t.Errorf("upstream of the model -want +got\n%s", d)
	}
	if got[2].Dataset == nil || got[2].Dataset.Platform.Name != "hive" {
		t.Errorf("typed dataset result: %+v", got[2])
	}
	got, err = c.Lineage().Get(ctx, model, Upstream, 2, EntityType("dataset"))
	if err != nil || len(got) != 1 || got[0].URN != clean.String() {
		t.Errorf("2 hops, datasets: %+v, %v", got, err)
	}
	got, err = c.Lineage().Get(ctx, raw, Downstream, 10, SearchFilter{})
	if err != nil || len(got) != 4 || got[3].URN != group.String() || got[3].Degree != 4 {
		t.Errorf("downstream of raw: %+v, %v", got, err)
	}
	if _, err := c.Lineage().Get(ctx, raw, "SIDEWAYS", 1, SearchFilter{}); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("bad direction: %v", err)
	}
}

// TestAddLineageConcurrent: 16 concurrent AddLineage calls to one dataset
// keep 16 upstreams (PATCH, whatever the client's strategy).
func TestAddLineageConcurrent(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s, WithWriteStrategy(Conditional))
	down := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,sink,PROD)")
	if err := s.PutAspectJSON(down.String(), "status", []byte(`{"removed":false}`)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Go(func() {
			errs <- c.Lineage().Add(t.Context(), urn.MustParse(fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,src%d,PROD)", i)), down)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	ul, err := upstreamsOf(s, down)
	if err != nil || len(ul.Upstreams) != 16 {
		t.Fatalf("%d upstreams, want 16 (%v)", len(ul.Upstreams), err)
	}

	// The same for 16 features of one model (mlModelProperties.mlFeatures).
	model := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)")
	if err := s.PutAspectJSON(model.String(), "status", []byte(`{"removed":false}`)); err != nil {
		t.Fatal(err)
	}
	errs = make(chan error, 16)
	for i := range 16 {
		wg.Go(func() {
			errs <- c.Lineage().Add(t.Context(), urn.MustParse(fmt.Sprintf("urn:li:mlFeature:(t,f%d)", i)), model)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	props, err := GetAspect[aspects.MLModelProperties](t.Context(), c, model.(urn.MLModel))
	if err != nil || len(props.MLFeatures) != 16 {
		t.Fatalf("%d features, want 16 (%v)", len(props.MLFeatures), err)
	}
}

type upstreamLineageJSON struct {
	Upstreams           []map[string]any `json:"upstreams"`
	FineGrainedLineages []map[string]any `json:"fineGrainedLineages"`
}

// upstreamsOf reads u's upstreamLineage from the mock.
func upstreamsOf(s *mockserver.Server, u urn.URN) (upstreamLineageJSON, error) {
	var ul upstreamLineageJSON
	raw, err := s.GetAspectJSON(u.String(), "upstreamLineage", 0)
	if err == nil {
		err = json.Unmarshal(raw, &ul)
	}
	return ul, err
}
