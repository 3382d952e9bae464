package generate

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/testshared"
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

// TestLoadPegasus reads DataHub's PDL tree and refuses a directory without its two roots.
func TestLoadPegasus(t *testing.T) {
	t.Parallel()
	s, err := loadPegasus(testshared.Path(t, "reference", "datahub-pegasus"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"com.linkedin.common.Status", "com.linkedin.common.Urn", "com.linkedin.ml.metadata.MLTrainingRunProperties"} {
		if _, ok := s.decls[name]; !ok {
			t.Errorf("loadPegasus has no %s", name)
		}
	}
	if _, err := loadPegasus(t.TempDir()); err == nil {
		t.Error("loadPegasus of an empty directory succeeded")
	}
}
