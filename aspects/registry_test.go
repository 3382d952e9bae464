package aspects_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/google/go-cmp/cmp"
)

// Both T and *T are Aspects.
var (
	_ aspects.Aspect = aspects.Status{}
	_ aspects.Aspect = (*aspects.Status)(nil)
	_ aspects.Aspect = aspects.SchemaMetadata{}
	_ aspects.Aspect = (*aspects.DatasetProfile)(nil)
)

func TestLookup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		want   aspects.Info
		wantOK bool
	}{
		{"schemaMetadata", aspects.Info{Name: "schemaMetadata", RecordName: "com.linkedin.schema.SchemaMetadata", Typed: true}, true},
		{"mlFeatureProperties", aspects.Info{Name: "mlFeatureProperties", RecordName: "com.linkedin.ml.metadata.MLFeatureProperties", Typed: true}, true},
		{"editableMlModelGroupProperties", aspects.Info{Name: "editableMlModelGroupProperties", RecordName: "com.linkedin.ml.metadata.EditableMLModelGroupProperties", Typed: true}, true},
		{"datasetKey", aspects.Info{Name: "datasetKey", RecordName: "com.linkedin.metadata.key.DatasetKey", Typed: true}, true},
		{"datasetProfile", aspects.Info{Name: "datasetProfile", RecordName: "com.linkedin.dataset.DatasetProfile", Timeseries: true, Typed: true}, true},
		{"operation", aspects.Info{Name: "operation", RecordName: "com.linkedin.common.Operation", Timeseries: true, Typed: true}, true},
		{"subTypes", aspects.Info{Name: "subTypes", RecordName: "com.linkedin.common.SubTypes", Typed: true}, true},
		{"noSuchAspect", aspects.Info{}, false},
		{"", aspects.Info{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := aspects.Lookup(tt.name)
			if ok != tt.wantOK {
				t.Fatalf("Lookup(%q) ok = %v, want %v", tt.name, ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Lookup(%q) (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

func TestNewEveryTypedAspect(t *testing.T) {
	t.Parallel()
	names := aspects.TypedAspects()
	if len(names) != 255 {
		t.Errorf("TypedAspects() has %d names, want the registry's 255", len(names))
	}
	for _, name := range names {
		info, ok := aspects.Lookup(name)
		if !ok || !info.Typed {
			t.Errorf("Lookup(%q) = %+v, %v; want a typed aspect", name, info, ok)
			continue
		}
		v, ok := aspects.New(name)
		if !ok {
			t.Errorf("New(%q) failed", name)
			continue
		}
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Pointer || !rv.Elem().IsZero() {
			t.Errorf("New(%q) = %#v, want a pointer to a zero struct", name, v)
		}
		if v.AspectName() != name {
			t.Errorf("New(%q).AspectName() = %q", name, v.AspectName())
		}
		// The struct is named after the record (initialisms aside).
		simple := info.RecordName[strings.LastIndex(info.RecordName, ".")+1:]
		if !strings.EqualFold(rv.Elem().Type().Name(), simple) {
			t.Errorf("aspect %s: Go type %s, record %s", name, rv.Elem().Type().Name(), info.RecordName)
		}
		// Every typed aspect belongs to at least one entity.
		if !slices.ContainsFunc(aspects.Entities(), func(e aspects.EntitySpec) bool { return e.Allows(name) }) {
			t.Errorf("no entity allows typed aspect %s", name)
		}
	}
	if v, ok := aspects.New("noSuchAspect"); ok || v != nil {
		t.Errorf("New(noSuchAspect) = %v, %v; want nil, false", v, ok)
	}
}

func TestLookupEntity(t *testing.T) {
	t.Parallel()
	tests := []struct {
		entity, key string
		allows      []string
		refuses     []string
	}{
		{"dataset", "datasetKey",
			[]string{"datasetKey", "datasetProperties", "schemaMetadata", "editableDatasetProperties", "institutionalMemory", "editableSchemaMetadata", "ownership", "globalTags", "glossaryTerms", "status", "datasetProfile", "datasetUsageStatistics", "operation", "testResults", "subTypes"},
			[]string{"mlModelProperties", "mlFeatureKey", "testInfo", ""}},
		{"mlFeature", "mlFeatureKey", []string{"mlFeatureProperties", "editableMlFeatureProperties", "ownership", "status"}, []string{"schemaMetadata", "datasetProfile"}},
		{"mlFeatureTable", "mlFeatureTableKey", []string{"mlFeatureTableProperties", "editableMlFeatureTableProperties"}, []string{"mlFeatureProperties"}},
		{"mlModel", "mlModelKey", []string{"mlModelProperties", "editableMlModelProperties", "institutionalMemory"}, []string{"mlModelGroupProperties"}},
		{"mlModelGroup", "mlModelGroupKey", []string{"mlModelGroupProperties", "editableMlModelGroupProperties"}, []string{"mlModelProperties"}},
		{"dataPlatform", "dataPlatformKey", []string{"dataPlatformInfo"}, []string{"status"}},
		{"test", "testKey", []string{"testInfo"}, []string{"testResults"}},
	}
	for _, tt := range tests {
		t.Run(tt.entity, func(t *testing.T) {
			t.Parallel()
			e, ok := aspects.LookupEntity(tt.entity)
			if !ok {
				t.Fatalf("LookupEntity(%q) failed", tt.entity)
			}
			if e.Name != tt.entity || e.KeyAspect != tt.key {
				t.Errorf("LookupEntity(%q) = {%q, %q}, want key %q", tt.entity, e.Name, e.KeyAspect, tt.key)
			}
			for _, a := range tt.allows {
				if !e.Allows(a) {
					t.Errorf("%s.Allows(%q) = false", tt.entity, a)
				}
			}
			for _, a := range tt.refuses {
				if e.Allows(a) {
					t.Errorf("%s.Allows(%q) = true", tt.entity, a)
				}
			}
		})
	}
	if _, ok := aspects.LookupEntity("noSuchEntity"); ok {
		t.Error("LookupEntity(noSuchEntity) succeeded")
	}
}

func TestEntitiesAreCopies(t *testing.T) {
	t.Parallel()
	es := aspects.Entities()
	if len(es) == 0 || es[0].Name != "dataPlatform" {
		t.Fatalf("Entities() starts with %v, want dataPlatform first (entity-registry.yml order)", es[:min(1, len(es))])
	}
	es[0].Aspects[0] = "mutated"
	e, _ := aspects.LookupEntity("dataset")
	e.Aspects[0] = "mutated too"
	if got := aspects.Entities()[0].Aspects[0]; strings.HasPrefix(got, "mutated") {
		t.Errorf("mutating a returned Entity changed the registry: %q", got)
	}
}
