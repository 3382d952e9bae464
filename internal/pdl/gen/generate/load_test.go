package generate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRegistry(t *testing.T) {
	t.Parallel()
	src := `id: entity-registry
entities:
  - name: dataPlatform
    category: core
    keyAspect: dataPlatformKey
    aspects:
      - dataPlatformInfo
  - name: dataset
    doc: Datasets represent logical or physical data assets stored or represented in various
      data platforms.
    keyAspect: datasetKey
    searchGroup: primary
    aspects:
      - viewProperties
      - browsePaths # unclear if this will be used
      - viewProperties
    # a comment
  - name: noAspects
    keyAspect: noAspectsKey
events:
  - name: entityChangeEvent
plugins:
  aspectPayloadValidators:
    - className: 'x'
      enabled: true
`
	got, err := parseRegistry([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []registryEntity{
		{Name: "dataPlatform", KeyAspect: "dataPlatformKey", Aspects: []string{"dataPlatformInfo"}},
		{Name: "dataset", KeyAspect: "datasetKey", Aspects: []string{"viewProperties", "browsePaths"}},
		{Name: "noAspects", KeyAspect: "noAspectsKey"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseRegistry mismatch (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"", "entities:\n  - name: x\n", "entities:\n  - name: x\n    keyAspect: k\n    aspects:\n      - a: b\n"} {
		if _, err := parseRegistry([]byte(bad)); err == nil {
			t.Errorf("parseRegistry(%q) succeeded", bad)
		}
	}
}

func TestParseRecordNames(t *testing.T) {
	t.Parallel()
	got, err := parseRecordNames([]byte("# comment\n\nstatus com.linkedin.common.Status # trailing\nop  com.linkedin.common.Operation  timeseries\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]handFact{
		"status": {Record: "com.linkedin.common.Status"},
		"op":     {Record: "com.linkedin.common.Operation", Timeseries: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseRecordNames mismatch (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"status", "status Status", "a b.C timeSeries", "a b.C\na b.D", "a b.C timeseries extra"} {
		if _, err := parseRecordNames([]byte(bad)); err == nil {
			t.Errorf("parseRecordNames(%q) succeeded", bad)
		}
	}
}
