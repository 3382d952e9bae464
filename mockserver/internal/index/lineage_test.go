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
