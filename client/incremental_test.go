package client

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

func lineageDataset(t *testing.T, name string, ups ...string) *entity.Dataset {
	t.Helper()
	u, err := urn.NewDataset("hive", name, "PROD")
	if err != nil {
		t.Fatal(err)
	}
	d := entity.NewDataset(u, "d")
	l := &aspects.UpstreamLineage{}
	for _, up := range ups {
		l.Upstreams = append(l.Upstreams, aspects.Upstream{Dataset: up, Type: aspects.DatasetLineageTypeTransformed, AuditStamp: aspects.AuditStamp{Actor: "urn:li:corpuser:etl"}})
	}
	d.UpstreamLineage = l
	return d
}

func storedUpstreams(t *testing.T, s *mockserver.Server, u string) []string {
	t.Helper()
	a, err := s.GetAspect(u, "upstreamLineage")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, up := range a.(*aspects.UpstreamLineage).Upstreams {
		out = append(out, up.Dataset)
	}
	slices.Sort(out)
	return out
}

// TestEnsureIncrementalLineage: with WithIncrementalLineage, Ensure adds
// the upstreams the dataset lacks by PATCH and keeps those another writer
// added; without it, the aspect is replaced and theirs is lost.
func TestEnsureIncrementalLineage(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	a := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)")
	b := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)")
	cu := "urn:li:dataset:(urn:li:dataPlatform:hive,c,PROD)"
	for _, tc := range []struct {
		name        string
		incremental bool
		want        []string
	}{
		{"incremental", true, []string{a.String(), b.String(), cu}},
		{"whole", false, []string{a.String(), cu}},
	} {
		d := lineageDataset(t, "out_"+tc.name, a.String())
		cl := c.WithIncrementalLineage(tc.incremental)
		if _, err := cl.Entities().Ensure(t.Context(), d); err != nil {
			t.Fatal(err)
		}
		if err := c.Lineage().Add(t.Context(), b, d.URN); err != nil { // another writer
			t.Fatal(err)
		}
		res, err := cl.Entities().Ensure(t.Context(), lineageDataset(t, "out_"+tc.name, a.String(), cu))
		if err != nil {
			t.Fatal(err)
		}
		if res.Aspects["upstreamLineage"] != Updated {
			t.Errorf("%s: %v", tc.name, res.Aspects)
		}
		if diff := cmp.Diff(tc.want, storedUpstreams(t, s, d.URN.String())); diff != "" {
			t.Errorf("%s: upstreams (-want +got):\n%s", tc.name, diff)
		}
		if !tc.incremental {
			continue
		}
		n := len(s.Proposals())
		res, err = cl.Entities().Ensure(t.Context(), lineageDataset(t, "out_"+tc.name, a.String(), cu))
		if err != nil || res.Changed() || len(s.Proposals()) != n {
			t.Errorf("third Ensure: %v, %v, %d proposals: want nothing written", res.Aspects, err, len(s.Proposals())-n)
		}
	}
}

// TestIncrementalLineageKeepsUpstream: an upstream added by PATCH keeps
// every member the dataset's aspect gave it (matchType was dropped).
func TestIncrementalLineageKeepsUpstream(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s).WithIncrementalLineage(true)
	a := "urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)"
	if _, err := c.Entities().Ensure(t.Context(), lineageDataset(t, "kept", a)); err != nil {
		t.Fatal(err)
	}
	d := lineageDataset(t, "kept", a, "urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)")
	match := aspects.LineageMatchType("NORMALIZED")
	up := &d.UpstreamLineage.Upstreams[1]
	up.MatchType = &match
	up.Query = aspects.Ptr("urn:li:query:q1")
	up.Properties = map[string]string{"k": "v"}
	up.Created = &aspects.AuditStamp{Time: 3, Actor: "urn:li:corpuser:etl"}
	n := len(s.Proposals())
	if _, err := c.Entities().Ensure(t.Context(), d); err != nil {
		t.Fatal(err)
	}
	if ps := s.Proposals()[n:]; len(ps) != 1 || ps[0].ChangeType != "PATCH" {
		t.Fatalf("second Ensure sent %+v, want one PATCH", ps)
	}
	got, err := s.GetAspect(d.URN.String(), "upstreamLineage")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(d.UpstreamLineage.Upstreams, got.(*aspects.UpstreamLineage).Upstreams); diff != "" {
		t.Errorf("stored upstreams (-want +got):\n%s", diff)
	}
}
