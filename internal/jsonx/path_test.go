package jsonx_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/jsonx"
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
		for _, v := range jsonx.ValuesAt([]byte(doc), tt.path) {
			got = append(got, string(v))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ValuesAt(%s) (-want +got):\n%s", tt.path, diff)
		}
	}
	if got := jsonx.ValuesAt([]byte(` {"a":1} `), "/"); len(got) != 1 || string(got[0]) != `{"a":1}` {
		t.Errorf(`ValuesAt("/") = %q`, got)
	}
	if got := jsonx.ValuesAt([]byte(`{"a": [1, }`), "/a/*"); len(got) != 0 {
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
		got[f.FieldName] = len(jsonx.ValuesAt(doc, f.Path))
	}
	for _, r := range pdl.Relationships("upstreamLineage") {
		got[r.Name+r.Path] = len(jsonx.ValuesAt(doc, r.Path))
	}
	want := map[string]int{"upstreams": 1, "fineGrainedUpstreams": 1,
		"DownstreamOf/upstreams/*/dataset": 1, "DownstreamOf/fineGrainedLineages/*/upstreams/*": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("values per field (-want +got):\n%s", diff)
	}
}

// valuesRef is ValuesAt over a value decoded by encoding/json, each result re-encoded.
func valuesRef(v any, segs []string, out *[]string) {
	if v == nil {
		return
	}
	if len(segs) == 0 {
		b, _ := json.Marshal(v)
		*out = append(*out, string(b))
		return
	}
	seg, rest := segs[0], segs[1:]
	switch x := v.(type) {
	case []any:
		if seg == "*" {
			for _, e := range x {
				valuesRef(e, rest, out)
			}
		}
	case map[string]any:
		for k, e := range x {
			switch {
			case seg == "*":
				valuesRef(e, rest, out)
			case seg == "$key" && len(rest) == 0:
				b, _ := json.Marshal(k)
				*out = append(*out, string(b))
			case k == seg:
				valuesRef(e, rest, out)
			}
		}
	}
}

// FuzzValuesAt holds ValuesAt to a walk over what encoding/json decodes, for valid JSON.
func FuzzValuesAt(f *testing.F) {
	f.Add(`{"a": [{"b": 1}, {"b": [2, 3]}], "a": {"x": {"b": null}}, "c\u0031": {"k": "v"}}`, "/a/*/b")
	f.Add(`{"m": {"k": 1, "k": 2, "j": {"z": true}}}`, "/m/$key")
	f.Add(`[1, 2]`, "/*")
	f.Fuzz(func(t *testing.T, data, path string) {
		got := jsonx.ValuesAt([]byte(data), path)
		for _, v := range got {
			if !json.Valid(v) {
				t.Fatalf("ValuesAt(%q, %q) gave invalid JSON %q", data, path, v)
			}
		}
		var v any
		dec := json.NewDecoder(strings.NewReader(data))
		dec.UseNumber()
		if !json.Valid([]byte(data)) || dec.Decode(&v) != nil {
			return
		}
		segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
		if path == "" || path == "/" {
			segs = nil
		}
		var want []string
		valuesRef(v, segs, &want)
		var have []string
		for _, g := range got {
			var x any
			d := json.NewDecoder(bytes.NewReader(g))
			d.UseNumber()
			if err := d.Decode(&x); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(x)
			have = append(have, string(b))
		}
		slices.Sort(want)
		slices.Sort(have)
		if diff := cmp.Diff(want, have); diff != "" {
			t.Fatalf("ValuesAt(%q, %q) (-encoding/json +ValuesAt):\n%s", data, path, diff)
		}
	})
}
