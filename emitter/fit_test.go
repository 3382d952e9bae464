package emitter_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
)

func TestFitSchemaMetadata(t *testing.T) {
	t.Parallel()
	s := &aspects.SchemaMetadata{SchemaName: "t", Platform: "urn:li:dataPlatform:hive", Hash: "",
		PlatformSchema: aspects.OtherSchema{RawSchema: strings.Repeat("x", 5000)}}
	for _, p := range []string{"a.b.c", "a", "a.b", "[version=2.0].[type=struct].d", "e.f.g.h"} {
		s.Fields = append(s.Fields, aspects.SchemaField{FieldPath: p, NativeDataType: strings.Repeat("n", 300), Type: aspects.SchemaFieldDataType{Type: aspects.StringType{}}})
	}
	full, _ := json.Marshal(s)
	limit := 2200
	res, err := emitter.Fit(s, limit)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.Fields {
		got = append(got, f.FieldPath)
	}
	// Shallowest first: depth 1 (a, d), then 2 (a.b), then 3 (a.b.c).
	if diff := cmp.Diff([]string{"a", "[version=2.0].[type=struct].d", "a.b", "a.b.c"}, got); diff != "" || !res.Trimmed {
		t.Errorf("fields (-want +got):\n%s\nresult %+v", diff, res)
	}
	if s.PlatformSchema.(aspects.OtherSchema).RawSchema != "" {
		t.Error("raw schema kept")
	}
	b, _ := json.Marshal(s)
	if len(b) >= int(float64(limit)*0.985) || len(full) < limit {
		t.Errorf("%d bytes after, %d before, limit %d", len(b), len(full), limit)
	}
	// An aspect that fits is left alone.
	res, err = emitter.Fit(s, 0)
	if err != nil || res.Trimmed {
		t.Errorf("fitting aspect: %+v, %v", res, err)
	}
}

func TestFitDatasetProfile(t *testing.T) {
	t.Parallel()
	p := &aspects.DatasetProfile{FieldProfiles: []aspects.DatasetFieldProfile{
		{FieldPath: "a", SampleValues: []string{"1234", "5678"}},
		{FieldPath: "b", SampleValues: []string{"123456"}},
		{FieldPath: "c", SampleValues: []string{"12"}},
	}}
	res, err := emitter.Fit(p, 10)
	if err != nil {
		t.Fatal(err)
	}
	if p.FieldProfiles[0].SampleValues == nil || p.FieldProfiles[1].SampleValues != nil || p.FieldProfiles[2].SampleValues == nil || !res.Trimmed {
		t.Errorf("profiles %+v, %+v", p.FieldProfiles, res)
	}
}

func TestFitUpstreamLineage(t *testing.T) {
	t.Parallel()
	l := &aspects.UpstreamLineage{}
	for i := range 3 {
		l.Upstreams = append(l.Upstreams, aspects.Upstream{Dataset: fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,t%d,PROD)", i), Type: aspects.DatasetLineageTypeCopy})
	}
	fg := func(typ aspects.FineGrainedLineageUpstreamType, up string) aspects.FineGrainedLineage {
		return aspects.FineGrainedLineage{UpstreamType: typ, Upstreams: []string{up}, DownstreamType: aspects.FineGrainedLineageDownstreamTypeField}
	}
	l.FineGrainedLineages = []aspects.FineGrainedLineage{fg(aspects.FineGrainedLineageUpstreamTypeNone, "n"), fg(aspects.FineGrainedLineageUpstreamTypeDataset, "d")}
	size := func(v any) int { b, _ := json.Marshal(v); return len(b) }
	// Room for the upstreams and the DATASET lineage, not the NONE one.
	limit := size(l.Upstreams[0])*3 + size(l.FineGrainedLineages[1]) + 1
	res, err := emitter.Fit(l, limit)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Upstreams) != 3 || len(l.FineGrainedLineages) != 1 || l.FineGrainedLineages[0].Upstreams[0] != "d" || !res.Trimmed {
		t.Errorf("lineage %+v, %+v", l, res)
	}
	if _, err := emitter.Fit(aspects.UpstreamLineage{}, 0); err == nil {
		t.Error("Fit of a value: no error")
	}
	if res, err := emitter.Fit(&aspects.Status{}, 1); err != nil || res.Trimmed {
		t.Errorf("Fit of another aspect: %+v, %v", res, err)
	}
}

// A profile whose sample values exceed the limit loses those of the field
// that crosses it, and can then be written.
func ExampleFit() {
	p := &aspects.DatasetProfile{TimestampMillis: 1, FieldProfiles: []aspects.DatasetFieldProfile{
		{FieldPath: "id", SampleValues: []string{"1", "2"}},
		{FieldPath: "payload", SampleValues: []string{strings.Repeat("x", 20<<20)}},
	}}
	res, err := emitter.Fit(p, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Trimmed, res.Notes)
	// Output: true [the sample values of payload were removed]
}
