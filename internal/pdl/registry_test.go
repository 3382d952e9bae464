package pdl_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

func TestLookupAspect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want pdl.AspectInfo
	}{
		{"status", pdl.AspectInfo{Name: "status", RecordName: "com.linkedin.common.Status"}},
		{"schemaMetadata", pdl.AspectInfo{Name: "schemaMetadata", RecordName: "com.linkedin.schema.SchemaMetadata"}},
		{"mlFeatureProperties", pdl.AspectInfo{Name: "mlFeatureProperties", RecordName: "com.linkedin.ml.metadata.MLFeatureProperties"}},
		{"datasetKey", pdl.AspectInfo{Name: "datasetKey", RecordName: "com.linkedin.metadata.key.DatasetKey"}},
		{"datasetProfile", pdl.AspectInfo{Name: "datasetProfile", RecordName: "com.linkedin.dataset.DatasetProfile", Timeseries: true}},
		{"datasetUsageStatistics", pdl.AspectInfo{Name: "datasetUsageStatistics", RecordName: "com.linkedin.dataset.DatasetUsageStatistics", Timeseries: true}},
		{"operation", pdl.AspectInfo{Name: "operation", RecordName: "com.linkedin.common.Operation", Timeseries: true}},
		{"upstreamLineage", pdl.AspectInfo{Name: "upstreamLineage", RecordName: "com.linkedin.dataset.UpstreamLineage", SchemaVersion: 2}},
		{"corpUserEditableInfo", pdl.AspectInfo{Name: "corpUserEditableInfo", RecordName: "com.linkedin.identity.CorpUserEditableInfo"}},
		{"subTypes", pdl.AspectInfo{Name: "subTypes", RecordName: "com.linkedin.common.SubTypes"}},
		{"propertyDefinition", pdl.AspectInfo{Name: "propertyDefinition", RecordName: "com.linkedin.structured.StructuredPropertyDefinition", SchemaVersion: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := pdl.LookupAspect(tt.name)
			if !ok {
				t.Fatalf("LookupAspect(%q) not found", tt.name)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("LookupAspect(%q) mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
	// Schema is the @Aspect schemaVersion, 1 where the annotation names none.
	for name, want := range map[string]int64{"status": 1, "upstreamLineage": 2, "assertionInfo": 3, "aiAgentInfo": 8} {
		if a, _ := pdl.LookupAspect(name); a.Schema() != want {
			t.Errorf("LookupAspect(%q).Schema() = %d, want %d", name, a.Schema(), want)
		}
	}
	if _, ok := pdl.LookupAspect("noSuchAspect"); ok {
		t.Error(`LookupAspect("noSuchAspect") found`)
	}
}

// TestTimeseriesAspects pins WIRE.md §5's list of timeseries aspects.
func TestTimeseriesAspects(t *testing.T) {
	t.Parallel()
	want := []string{"assertionRunEvent", "chartUsageStatistics", "dashboardUsageStatistics", "dataProcessInstanceRunEvent",
		"datahubIngestionCheckpoint", "datahubIngestionRunSummary", "datasetProfile", "datasetUsageStatistics",
		"documentUsageStatistics", "operation", "queryUsageStatistics"}
	var got []string
	seen := map[string]bool{}
	for _, e := range pdl.Entities() {
		for _, a := range append([]string{e.KeyAspect}, e.Aspects...) {
			info, ok := pdl.LookupAspect(a)
			if !ok {
				t.Errorf("entity %s: aspect %s has no record name", e.Name, a)
				continue
			}
			if info.RecordName == "" || info.Name != a {
				t.Errorf("entity %s: aspect %s has bad facts %+v", e.Name, a, info)
			}
			if info.Timeseries && !seen[a] {
				got = append(got, a)
			}
			seen[a] = true
		}
	}
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("timeseries aspects mismatch (-want +got):\n%s", diff)
	}
}

func TestLookupEntity(t *testing.T) {
	t.Parallel()
	tests := []struct {
		entity, key string
		allows      []string
		refuses     []string
	}{
		{"dataset", "datasetKey", []string{"schemaMetadata", "datasetKey", "datasetProfile", "status", "upstreamLineage"}, []string{"mlFeatureProperties", "bogus"}},
		{"mlFeature", "mlFeatureKey", []string{"mlFeatureProperties", "editableMlFeatureProperties", "globalTags"}, []string{"schemaMetadata"}},
		{"mlFeatureTable", "mlFeatureTableKey", []string{"mlFeatureTableProperties"}, []string{"mlFeatureProperties"}},
		{"mlModel", "mlModelKey", []string{"mlModelProperties", "cost"}, nil},
		{"mlModelGroup", "mlModelGroupKey", []string{"mlModelGroupProperties"}, nil},
		{"dataPlatform", "dataPlatformKey", []string{"dataPlatformInfo"}, []string{"status"}},
		{"test", "testKey", []string{"testInfo"}, nil},
		{"corpuser", "corpUserKey", []string{"corpUserEditableInfo"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.entity, func(t *testing.T) {
			t.Parallel()
			e, ok := pdl.LookupEntity(tt.entity)
			if !ok {
				t.Fatalf("LookupEntity(%q) not found", tt.entity)
			}
			if diff := cmp.Diff(tt.key, e.KeyAspect); diff != "" {
				t.Errorf("key aspect (-want +got):\n%s", diff)
			}
			for _, a := range tt.allows {
				if !e.Allows(a) {
					t.Errorf("%s does not allow %s", tt.entity, a)
				}
			}
			for _, a := range tt.refuses {
				if e.Allows(a) {
					t.Errorf("%s allows %s", tt.entity, a)
				}
			}
		})
	}
	if _, ok := pdl.LookupEntity("nope"); ok {
		t.Error(`LookupEntity("nope") found`)
	}
}

func TestEntitiesOrderAndCopy(t *testing.T) {
	t.Parallel()
	es := pdl.Entities()
	if len(es) < 60 {
		t.Fatalf("Entities() = %d entities, want the whole registry", len(es))
	}
	if diff := cmp.Diff([]string{"dataPlatform", "role", "dataset"}, []string{es[0].Name, es[1].Name, es[2].Name}); diff != "" {
		t.Errorf("registry order (-want +got):\n%s", diff)
	}
	ds, _ := pdl.LookupEntity("dataset")
	if diff := cmp.Diff([]string{"viewProperties", "subTypes", "datasetProfile"}, ds.Aspects[:3]); diff != "" {
		t.Errorf("dataset aspect order (-want +got):\n%s", diff)
	}
	es[2].Aspects[0] = "mutated"
	again, _ := pdl.LookupEntity("dataset")
	if again.Aspects[0] != "viewProperties" {
		t.Error("Entities() result shares memory with the registry")
	}
}

// The registry's shared views (Registry, Registered) see the same entries
// as its copies (Entities, LookupEntity), and a change to a copy leaves
// them as they were.
func TestRegistryCopiesAreTheCallers(t *testing.T) {
	shared, ok := pdl.Registered("dataset")
	if !ok || shared.KeyAspect != "datasetKey" || !slices.Contains(shared.Aspects, "datasetProperties") {
		t.Fatalf("Registered(dataset) = %+v, %v", shared, ok)
	}
	if reg := pdl.Registry(); len(reg) != len(pdl.Entities()) || !slices.ContainsFunc(reg, func(e pdl.Entity) bool { return e.Name == "dataset" }) {
		t.Fatalf("Registry has %d entities, Entities %d", len(reg), len(pdl.Entities()))
	}
	want := slices.Clone(shared.Aspects)
	e, _ := pdl.LookupEntity("dataset")
	e.Aspects[0] = "changed"
	for _, c := range pdl.Entities() {
		if c.Name == "dataset" {
			c.Aspects[0] = "changed"
		}
	}
	if !slices.Equal(shared.Aspects, want) {
		t.Errorf("a change to a copy reached the registry: %v", shared.Aspects[:3])
	}
	if _, ok := pdl.Registered("noSuchEntity"); ok {
		t.Error("Registered(noSuchEntity): found")
	}
}
