package pdl_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

func TestValuesAt(t *testing.T) {
	t.Parallel()
	doc := ` {"upstreams": [{"dataset": "urn:a", "type": "COPY"}, {"type": "X"}, {"dataset": "urn:b"}],
	"customProperties": {"k": "v", "k\u0032": "w"}, "name": "old", "name": "new", "none": null,
	"type": {"com.linkedin.schema.StringType": {}}, "nested": [[1, 2], [3]], "esc\u0061ped": 1} `
	tests := []struct {
		path string
		want []string
	}{
		{"/upstreams/*/dataset", []string{`"urn:a"`, `"urn:b"`}},
		{"/customProperties", []string{`{"k": "v", "k\u0032": "w"}`}},
		{"/customProperties/*", []string{`"v"`, `"w"`}},
		{"/customProperties/$key", []string{`"k"`, `"k\u0032"`}},
		{"/name", []string{`"new"`}}, // the last duplicate wins
		{"/none", nil},
		{"/missing/x", nil},
		{"/type/com.linkedin.schema.StringType", []string{`{}`}},
		{"/nested/*/*", []string{"1", "2", "3"}},
		{"/name/*", nil},
		{"/escaped", []string{"1"}},
	}
	for _, tt := range tests {
		var got []string
		for _, v := range pdl.ValuesAt([]byte(doc), tt.path) {
			got = append(got, string(v))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ValuesAt(%s) (-want +got):\n%s", tt.path, diff)
		}
	}
	if got := pdl.ValuesAt([]byte(` {"a":1} `), "/"); len(got) != 1 || string(got[0]) != `{"a":1}` {
		t.Errorf(`ValuesAt("/") = %q`, got)
	}
	if got := pdl.ValuesAt([]byte(`{"a": [1, }`), "/a/*"); len(got) != 0 {
		t.Errorf("ValuesAt of broken JSON = %q", got)
	}
}

// TestValuesAtSearchablePaths extracts every searchable and relationship path of an aspect from a
// value of it.
func TestValuesAtSearchablePaths(t *testing.T) {
	t.Parallel()
	doc := []byte(`{"upstreams":[{"dataset":"urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)","type":"COPY",
		"auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}],
		"fineGrainedLineages":[{"upstreamType":"FIELD_SET","downstreamType":"FIELD","upstreams":["urn:li:schemaField:(u,a)"]}]}`)
	got := map[string]int{}
	for _, f := range pdl.SearchableFields("upstreamLineage") {
		got[f.FieldName] = len(pdl.ValuesAt(doc, f.Path))
	}
	for _, r := range pdl.Relationships("upstreamLineage") {
		got[r.Name+r.Path] = len(pdl.ValuesAt(doc, r.Path))
	}
	want := map[string]int{"upstreams": 1, "fineGrainedUpstreams": 1,
		"DownstreamOf/upstreams/*/dataset": 1, "DownstreamOf/fineGrainedLineages/*/upstreams/*": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("values per field (-want +got):\n%s", diff)
	}
}
