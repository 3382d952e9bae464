package index

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	linFeature = "urn:li:mlFeature:(t,f)"
	linModel   = "urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)"
	linGroup   = "urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,g,PROD)"
	linRun     = "urn:li:dataProcessInstance:run1"
)

// seedLineage writes a ← b ← f ← m → g, and a run that produced m from a.
func seedLineage(t *testing.T) (*Index, func(urn, aspect, value string)) {
	t.Helper()
	st, x, _ := newTest(t, 0)
	p := func(urn, aspect, value string) { t.Helper(); put(t, st, urn, aspect, value) }
	p(ds("a"), "status", `{"removed":false}`)
	p(ds("b"), "upstreamLineage", `{"upstreams":[{"dataset":"`+ds("a")+`","type":"COPY","auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}]}`)
	p(linFeature, "mlFeatureProperties", `{"sources":["`+ds("b")+`"]}`)
	p(linModel, "mlModelProperties", `{"mlFeatures":["`+linFeature+`"],"groups":["`+linGroup+`"],"trainingJobs":["`+linRun+`"]}`)
	p(linGroup, "status", `{"removed":false}`)
	p(linRun, "dataProcessInstanceInput", `{"inputs":[],"inputEdges":[{"destinationUrn":"`+ds("a")+`"}]}`)
	return x, p
}

type degreeHit struct {
	URN    string
	Degree int
	Paths  [][]string
}

func lineageHits(r Result) []degreeHit {
	out := []degreeHit{}
	for _, h := range r.Hits {
		out = append(out, degreeHit{h.URN, h.Degree, h.Paths})
	}
	return out
}

func TestLineageWalk(t *testing.T) {
	t.Parallel()
	x, p := seedLineage(t)
	deg := func(vs ...string) Filter { return Filter{{{Field: "degree", Values: vs}}} }
	tests := []struct {
		name string
		q    LineageQuery
		want []degreeHit
	}{
		{"upstream of the model", LineageQuery{URN: linModel, Upstream: true}, []degreeHit{
			{linRun, 1, [][]string{{linModel, linRun}}},
			{linFeature, 1, [][]string{{linModel, linFeature}}},
			{ds("a"), 2, [][]string{{linModel, linRun, ds("a")}}},
			{ds("b"), 2, [][]string{{linModel, linFeature, ds("b")}}},
		}},
		{"downstream of a", LineageQuery{URN: ds("a")}, []degreeHit{
			{linRun, 1, [][]string{{ds("a"), linRun}}},
			{ds("b"), 1, [][]string{{ds("a"), ds("b")}}},
			{linFeature, 2, [][]string{{ds("a"), ds("b"), linFeature}}},
			{linModel, 2, [][]string{{ds("a"), linRun, linModel}}},
			{linGroup, 3, [][]string{{ds("a"), linRun, linModel, linGroup}}},
		}},
		{"degree 1 only", LineageQuery{URN: ds("a"), Query: Query{Filter: deg("1")}}, []degreeHit{
			{linRun, 1, [][]string{{ds("a"), linRun}}},
			{ds("b"), 1, [][]string{{ds("a"), ds("b")}}},
		}},
		{"degree 3+", LineageQuery{URN: ds("a"), Query: Query{Filter: deg("3+")}}, []degreeHit{
			{linGroup, 3, [][]string{{ds("a"), linRun, linModel, linGroup}}},
		}},
		{"types", LineageQuery{URN: ds("a"), Query: Query{Types: []string{"mlModelGroup"}}}, []degreeHit{
			{linGroup, 3, [][]string{{ds("a"), linRun, linModel, linGroup}}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.q.Count = 100
			r, err := x.SearchLineage(tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, lineageHits(r)); d != "" {
				t.Errorf("-want +got\n%s", d)
			}
		})
	}
	// Two hops at most: the group (3 hops) is neither walked to nor returned.
	r, err := x.SearchLineage(LineageQuery{URN: ds("a"), Query: Query{Count: 10, Filter: deg("1", "2")}})
	if err != nil || r.Total != 4 {
		t.Fatalf("degree 1, 2: %v, %v", lineageHits(r), err)
	}
	if d := cmp.Diff(Facet{Field: "degree", DisplayName: "Degree of Dependencies",
		Values: []FacetValue{{"1", 2}, {"2", 2}, {"3+", 0}}}, r.Facets[0]); d != "" {
		t.Errorf("degree facet -want +got\n%s", d)
	}
	if _, err := x.SearchLineage(LineageQuery{URN: ds("a"), Query: Query{Filter: deg("4")}}); !errors.Is(err, ErrBadQuery) {
		t.Errorf("degree 4: %v", err)
	}
	// A soft-deleted node is neither returned nor walked through.
	p(linRun, "status", `{"removed":true}`)
	p(linFeature, "status", `{"removed":true}`)
	r, err = x.SearchLineage(LineageQuery{URN: linModel, Upstream: true, Query: Query{Count: 10}})
	if err != nil || len(r.Hits) != 0 {
		t.Fatalf("through soft-deleted nodes: %v, %v", lineageHits(r), err)
	}
	r, err = x.SearchLineage(LineageQuery{URN: linModel, Upstream: true, Query: Query{Count: 10, IncludeSoftDeleted: true}})
	if err != nil || len(r.Hits) != 4 {
		t.Fatalf("including soft-deleted: %v, %v", lineageHits(r), err)
	}
}

func TestLineageScroll(t *testing.T) {
	t.Parallel()
	x, _ := seedLineage(t)
	var got []string
	id := ""
	for range 10 {
		r, err := x.ScrollLineage(LineageQuery{URN: ds("a"), Query: Query{Count: 2}}, id, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range r.Hits {
			got = append(got, h.URN)
		}
		if r.NextScrollID == "" {
			break
		}
		id = r.NextScrollID
	}
	want := []string{linRun, ds("b"), linFeature, linModel, linGroup}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("-want +got\n%s", d)
	}
}

// TestLineagePathsBounded: a page of 1,000 hits over a ladder of 300 levels
// of 2 datasets (each downstream of both datasets of the level before)
// allocates little and answers a bounded number of path URNs: the first
// hits get all their paths, every later one its first (a shortest path),
// and the paths are what DataHub's are: from the start to the hit, one URN
// per hop. It failed before: the page allocated past 1 GB (every ancestor's
// 100 paths copied in full) and answered 100 paths of up to 301 URNs per hit.
func TestLineagePathsBounded(t *testing.T) {
	x, src := seedLattice(t, 300, 2)
	q := LineageQuery{URN: src, Query: Query{Count: 1000, SkipAggregates: true}}
	if _, err := x.SearchLineage(q); err != nil { // index the documents
		t.Fatal(err)
	}
	var r Result
	bytes := allocated(func() {
		var err error
		if r, err = x.SearchLineage(q); err != nil {
			t.Fatal(err)
		}
	})
	if len(r.Hits) != 598 {
		t.Fatalf("%d hits, want 598", len(r.Hits))
	}
	urns, full, cut := 0, 0, 0
	for i, h := range r.Hits {
		want := maxPaths // a ladder node of degree d has 2^(d-1) shortest paths
		if h.Degree <= 8 {
			want = min(1<<(h.Degree-1), maxPaths)
		}
		switch {
		case len(h.Paths) == want && full == i:
			full++
		case len(h.Paths) > 1 && len(h.Paths) < want && full == i && cut == 0:
			cut++ // the hit where the bound falls: its first paths
		case len(h.Paths) != 1:
			t.Fatalf("hit %d (degree %d): %d paths, want %d, or 1 after the first hits", i, h.Degree, len(h.Paths), want)
		}
		for _, p := range h.Paths {
			if len(p) != h.Degree+1 || p[0] != src || p[len(p)-1] != h.URN {
				t.Fatalf("hit %d: path %v", i, p)
			}
			urns += len(p)
		}
	}
	if full < 20 {
		t.Errorf("%d hits with all their paths, want the first ones (at least 20)", full)
	}
	if urns > maxPagePaths+300*302 {
		t.Errorf("the page's paths hold %d URNs", urns)
	}
	if bytes > 16<<20 {
		t.Errorf("a page allocated %d bytes", bytes)
	}
	t.Logf("%d hits, %d with all paths, %d path URNs, %d bytes allocated", len(r.Hits), full, urns, bytes)
}
