package index

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func ds(name string) string {
	return "urn:li:dataset:(urn:li:dataPlatform:hive," + name + ",PROD)"
}

// seedSearch writes a small catalog: three datasets and a model.
func seedSearch(t *testing.T) (*Index, *testClock) {
	t.Helper()
	st, x, clk := newTest(t, 0)
	put(t, st, ds("a"), "datasetKey", `{"platform":"urn:li:dataPlatform:hive","name":"a","origin":"PROD"}`)
	put(t, st, ds("a"), "datasetProperties", `{"name":"orders","description":"All orders","customProperties":{"team":"ml","tier":"1"}}`)
	put(t, st, ds("a"), "globalTags", `{"tags":[{"tag":"urn:li:tag:pii"},{"tag":"urn:li:tag:gold"}]}`)
	put(t, st, ds("b"), "datasetKey", `{"platform":"urn:li:dataPlatform:hive","name":"b","origin":"PROD"}`)
	put(t, st, ds("b"), "datasetProperties", `{"name":"customers","customProperties":{"team":"bi"}}`)
	put(t, st, ds("b"), "ownership", `{"owners":[{"owner":"urn:li:corpuser:jo","type":"DATAOWNER"}]}`)
	put(t, st, ds("c"), "datasetKey", `{"platform":"urn:li:dataPlatform:hive","name":"c","origin":"PROD"}`)
	put(t, st, ds("c"), "status", `{"removed":true}`)
	put(t, st, "urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)", "mlModelKey",
		`{"platform":"urn:li:dataPlatform:mlflow","name":"m","origin":"PROD"}`)
	put(t, st, "urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)", "globalTags", `{"tags":[{"tag":"urn:li:tag:pii"}]}`)
	return x, clk
}

func urnsOf(r Result) []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, h.URN)
	}
	return out
}

func TestSearchFilters(t *testing.T) {
	t.Parallel()
	x, _ := seedSearch(t)
	model := "urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)"
	c := func(field, cond string, values ...string) Criterion {
		return Criterion{Field: field, Condition: cond, Values: values}
	}
	not := func(c Criterion) Criterion { c.Negated = true; return c }
	tests := []struct {
		name string
		q    Query
		want []string
	}{
		{"all, soft-deleted left out", Query{}, []string{ds("a"), ds("b"), model}},
		{"include soft-deleted", Query{IncludeSoftDeleted: true}, []string{ds("a"), ds("b"), ds("c"), model}},
		{"a removed criterion lifts the default", Query{Filter: Filter{{c("removed", "", "true")}}}, []string{ds("c")}},
		{"negated removed", Query{Filter: Filter{{not(c("removed", CondEqual, "true"))}}}, []string{ds("a"), ds("b"), model}},
		{"tag EQUAL", Query{Filter: Filter{{c("tags", CondEqual, "urn:li:tag:pii")}}}, []string{ds("a"), model}},
		{"EQUAL any value", Query{Filter: Filter{{c("tags", "", "urn:li:tag:gold", "urn:li:tag:none")}}}, []string{ds("a")}},
		{"AND", Query{Filter: Filter{{c("tags", "", "urn:li:tag:pii"), c("_entityType", "", "DATASET")}}}, []string{ds("a")}},
		{"OR", Query{Filter: Filter{{c("owners", "", "urn:li:corpuser:jo")}, {c("_entityType", "", "mlModel")}}}, []string{ds("b"), model}},
		{"customProperties k=v", Query{Filter: Filter{{c("customProperties", "", "team=ml")}}}, []string{ds("a")}},
		{"platform.keyword", Query{Filter: Filter{{c("platform.keyword", "", "urn:li:dataPlatform:mlflow")}}}, []string{model}},
		{"CONTAIN ignores case", Query{Filter: Filter{{c("name", CondContain, "TOM")}}}, []string{ds("b")}},
		{"START_WITH", Query{Filter: Filter{{c("name", CondStartWith, "ord")}}}, []string{ds("a")}},
		{"END_WITH", Query{Filter: Filter{{c("name", CondEndWith, "MERS")}}}, []string{ds("b")}},
		{"IN", Query{Filter: Filter{{c("name", CondIn, "orders", "x")}}}, []string{ds("a")}},
		{"EXISTS", Query{Filter: Filter{{c("owners", CondExists)}}}, []string{ds("b")}},
		{"negated EXISTS", Query{Filter: Filter{{not(c("owners", CondExists)), c("_entityType", "", "DATASET")}}}, []string{ds("a")}},
		{"no values: dropped", Query{Filter: Filter{{c("tags", CondEqual)}}}, []string{ds("a"), ds("b"), model}},
		{"hasDescription", Query{Filter: Filter{{c("hasDescription", "", "true")}}}, []string{ds("a")}},
		{"GT", Query{Filter: Filter{{c("customProperties", CondGreater, "team=c")}}}, []string{ds("a")}},
		{"LTE", Query{Filter: Filter{{c("customProperties", CondLessOrEqual, "team=bi")}}}, []string{ds("b")}},
		{"types", Query{Types: []string{"mlModel"}}, []string{model}},
		{"text", Query{Text: "orders"}, []string{ds("a")}},
		{"text on a tag", Query{Text: "pii"}, []string{ds("a"), model}},
		{"text nothing", Query{Text: "zzz"}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.q.Count = 100
			r, err := x.Search(tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, urnsOf(r)); d != "" {
				t.Errorf("-want +got\n%s", d)
			}
			if r.Total != len(tc.want) {
				t.Errorf("total = %d, want %d", r.Total, len(tc.want))
			}
		})
	}
}

func TestSearchScoreOrder(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	put(t, st, ds("x"), "datasetProperties", `{"name":"sales","description":"sales figures"}`)
	put(t, st, ds("y"), "datasetProperties", `{"name":"other","description":"about sales"}`)
	put(t, st, ds("w"), "datasetProperties", `{"name":"w","description":"sales again"}`)
	r, err := x.Search(Query{Text: "sales", Count: 10})
	if err != nil {
		t.Fatal(err)
	}
	// name (boost 10, exact: 20) + description (1) first; then the two
	// description-only matches (1 each) by URN.
	if d := cmp.Diff([]string{ds("x"), ds("w"), ds("y")}, urnsOf(r)); d != "" {
		t.Errorf("-want +got\n%s", d)
	}
	if r.Hits[0].Score != 21 || r.Hits[1].Score != 1 {
		t.Errorf("scores = %v, %v", r.Hits[0].Score, r.Hits[1].Score)
	}
}

func TestSearchFacets(t *testing.T) {
	t.Parallel()
	x, _ := seedSearch(t)
	r, err := x.Search(Query{Count: 0})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]FacetValue{}
	for _, f := range r.Facets {
		got[f.Field] = f.Values
	}
	want := map[string][]FacetValue{
		"_entityType": {{"dataset", 2}, {"mlModel", 1}},
		"owners":      {{"urn:li:corpuser:jo", 1}},
		"origin":      {{"PROD", 3}},
		"platform":    {{"urn:li:dataPlatform:hive", 2}, {"urn:li:dataPlatform:mlflow", 1}},
		"tags":        {{"urn:li:tag:pii", 2}, {"urn:li:tag:gold", 1}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("-want +got\n%s", d)
	}
	if len(r.Hits) != 0 || r.Total != 3 {
		t.Errorf("count 0: %d hits, total %d", len(r.Hits), r.Total)
	}
	r, err = x.Search(Query{Facets: []string{"tags"}, MaxAggValues: 1})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]Facet{{Field: "tags", DisplayName: "Tagged With", Values: []FacetValue{{"urn:li:tag:pii", 2}}}}, r.Facets); d != "" {
		t.Errorf("-want +got\n%s", d)
	}
}

func TestSearchLimits(t *testing.T) {
	t.Parallel()
	x, _ := seedSearch(t)
	for _, tc := range []struct {
		start, count int
		wantErr      bool
	}{{0, 10000, false}, {9990, 10, false}, {9991, 10, true}, {10000, 1, true}, {9000, 20000, true}, {5000, 20000, false}, {0, -1, false}} {
		_, err := x.Search(Query{Start: tc.start, Count: tc.count})
		if got := errors.Is(err, ErrWindow); got != tc.wantErr {
			t.Errorf("start %d count %d: err = %v, want window error %v", tc.start, tc.count, err, tc.wantErr)
		}
	}
	for in, want := range map[int]int{-1: 5000, 0: 0, 10: 10, 10000: 10000, 10001: 5000} {
		if got := ClampCount(in); got != want {
			t.Errorf("ClampCount(%d) = %d, want %d", in, got, want)
		}
	}
	if _, err := x.Search(Query{Filter: Filter{{{Field: "x", Condition: "NEAR", Values: []string{"1"}}}}}); !errors.Is(err, ErrBadQuery) {
		t.Errorf("bad condition: %v", err)
	}
}

func TestSearchFollowsLagAndRestore(t *testing.T) {
	t.Parallel()
	st, x, clk := newTest(t, 2*time.Second)
	put(t, st, ds("late"), "globalTags", `{"tags":[{"tag":"urn:li:tag:t"}]}`)
	q := Query{Count: 10, Filter: Filter{{{Field: "tags", Values: []string{"urn:li:tag:t"}}}}}
	if r, _ := x.Search(q); r.Total != 0 {
		t.Fatalf("searchable before the lag: %v", urnsOf(r))
	}
	clk.Add(2 * time.Second)
	if r, _ := x.Search(q); r.Total != 1 {
		t.Fatalf("not searchable after the lag: %v", urnsOf(r))
	}
	x.SetPaused(true)
	put(t, st, ds("late"), "globalTags", `{"tags":[{"tag":"urn:li:tag:u"}]}`)
	clk.Add(2 * time.Second)
	x.SetPaused(false)
	if r, _ := x.Search(q); r.Total != 1 {
		t.Fatalf("drift expected while events were dropped: %v", urnsOf(r))
	}
	if _, err := x.Restore(RestoreArgs{URN: ds("late"), BatchSize: 10}); err != nil {
		t.Fatal(err)
	}
	if r, _ := x.Search(q); r.Total != 0 {
		t.Fatalf("restore did not repair: %v", urnsOf(r))
	}
	q.Filter[0][0].Values = []string{"urn:li:tag:u"}
	if r, _ := x.Search(q); r.Total != 1 {
		t.Fatalf("restored value not searchable: %v", urnsOf(r))
	}
}

func TestScroll(t *testing.T) {
	t.Parallel()
	st, x, clk := newTest(t, 0)
	for i := range 25 {
		put(t, st, ds(fmt.Sprintf("d%02d", i)), "status", `{"removed":false}`)
	}
	var got []string
	id := ""
	pages := 0
	for {
		r, err := x.Scroll(Query{Count: 10}, id, "1m")
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if r.Total != 25 {
			t.Fatalf("total = %d", r.Total)
		}
		got = append(got, urnsOf(r)...)
		if pages == 1 { // written after the scroll began: not in its point in time
			put(t, st, ds("a-new"), "status", `{"removed":false}`)
		}
		if r.NextScrollID == "" {
			break
		}
		id = r.NextScrollID
	}
	if len(got) != 25 || pages != 3 {
		t.Fatalf("%d results in %d pages", len(got), pages)
	}
	// A full last page leads to one more, empty page.
	r, err := x.Scroll(Query{Count: 13}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	r2, err := x.Scroll(Query{Count: 13}, r.NextScrollID, "")
	if err != nil || len(r2.Hits) != 13 || r2.NextScrollID == "" {
		t.Fatalf("second page: %d hits, next %q, %v", len(r2.Hits), r2.NextScrollID, err)
	}
	// Expired: the scroll goes on from its sort values over the current
	// index (a new point in time), which now has a-new first.
	clk.Add(time.Hour)
	r3, err := x.Scroll(Query{Count: 13}, r2.NextScrollID, "")
	if err != nil || len(r3.Hits) != 0 || r3.Total != 26 {
		t.Fatalf("after expiry: %v, total %d, %v", urnsOf(r3), r3.Total, err)
	}
	if _, err := x.Scroll(Query{Count: 1}, "not-base64!", ""); !errors.Is(err, ErrScrollID) {
		t.Errorf("bad id: %v", err)
	}
	if _, err := x.Scroll(Query{Count: 1}, "", "5 minutes"); !errors.Is(err, ErrBadQuery) {
		t.Errorf("bad keep-alive: %v", err)
	}
}

// TestScrollPitsBounded: at most maxPits points in time stay open; a scroll
// whose point in time was closed goes on over the current index.
func TestScrollPitsBounded(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	for i := range 3 {
		put(t, st, ds(fmt.Sprintf("p%d", i)), "status", `{"removed":false}`)
	}
	first, err := x.Scroll(Query{Count: 1}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	for range maxPits {
		if _, err := x.Scroll(Query{Count: 1}, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	x.pits.mu.Lock()
	n := len(x.pits.m)
	x.pits.mu.Unlock()
	if n != maxPits {
		t.Fatalf("%d points in time open, want %d", n, maxPits)
	}
	next, err := x.Scroll(Query{Count: 1}, first.NextScrollID, "")
	if err != nil || len(next.Hits) != 1 || next.Hits[0].URN != ds("p1") {
		t.Fatalf("scroll after its point in time closed: %v, %v", urnsOf(next), err)
	}
}

// manyValues is n distinct tag URNs followed by extra.
func manyValues(n int, extra ...string) []string {
	out := make([]string, 0, n+len(extra))
	for i := range n {
		out = append(out, fmt.Sprintf("urn:li:tag:t%06d", i))
	}
	return append(out, extra...)
}

// A criterion of many values matches as one of few does: through a set for
// EQUAL and IN (negated too), one by one for the other conditions and for
// the entity type, whose values are normalized.
func TestManyFilterValues(t *testing.T) {
	t.Parallel()
	x, _ := seedSearch(t)
	model := "urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)"
	tests := []struct {
		name string
		c    Criterion
		want []string
	}{
		{"EQUAL", Criterion{Field: "tags", Values: manyValues(100_000, "urn:li:tag:gold")}, []string{ds("a")}},
		{"IN", Criterion{Field: "tags.keyword", Condition: CondIn, Values: manyValues(100_000, "urn:li:tag:pii")}, []string{ds("a"), model}},
		{"negated EQUAL", Criterion{Field: "tags", Values: manyValues(100_000, "urn:li:tag:pii"), Negated: true}, []string{ds("b")}},
		{"none", Criterion{Field: "tags", Values: manyValues(100_000)}, []string{}},
		{"CONTAIN", Criterion{Field: "tags", Condition: CondContain, Values: manyValues(1000, "GOLD")}, []string{ds("a")}},
		{"entity type", Criterion{Field: "_entityType", Values: append(manyValues(100), "ML_MODEL")}, []string{model}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := x.Search(Query{Filter: Filter{{tt.c}}, Count: 10})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, urnsOf(r)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// BenchmarkManyFilterValues is a search of 2,000 documents filtered by a
// negated criterion of 100,000 values (each document tested).
func BenchmarkManyFilterValues(b *testing.B) {
	x, src := seedLattice(b, 40, 50)
	q := Query{Filter: Filter{{{Field: "upstreams", Values: manyValues(100_000, src), Negated: true}}}, Count: 10}
	if _, err := x.Search(Query{}); err != nil { // index the documents
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if r, err := x.Search(q); err != nil || r.Total != 1950 {
			b.Fatalf("%d hits, %v", r.Total, err)
		}
	}
}
