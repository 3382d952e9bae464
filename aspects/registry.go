package aspects

import (
	"slices"
	"sort"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// Info describes an aspect of DataHub's entity registry.
type Info struct {
	// Name is the aspect name, e.g. "schemaMetadata".
	Name string
	// RecordName is the fully qualified Pegasus record name, e.g.
	// "com.linkedin.schema.SchemaMetadata": the union key of the aspect in
	// GET /aspects answers.
	RecordName string
	// Timeseries reports whether the aspect is a timeseries aspect
	// (appended by timestamp rather than versioned).
	Timeseries bool
	// Typed reports whether this package has a struct for the aspect, so
	// that New and Decode work for it.
	Typed bool
}

// typed maps the name of every aspect this package types by hand to a
// constructor of a new *T; newGenerated makes the others.
var typed = map[string]func() Aspect{
	"mlFeatureProperties":              func() Aspect { return new(MLFeatureProperties) },
	"mlFeatureTableProperties":         func() Aspect { return new(MLFeatureTableProperties) },
	"mlModelProperties":                func() Aspect { return new(MLModelProperties) },
	"mlModelGroupProperties":           func() Aspect { return new(MLModelGroupProperties) },
	"datasetProperties":                func() Aspect { return new(DatasetProperties) },
	"schemaMetadata":                   func() Aspect { return new(SchemaMetadata) },
	"editableDatasetProperties":        func() Aspect { return new(EditableDatasetProperties) },
	"institutionalMemory":              func() Aspect { return new(InstitutionalMemory) },
	"editableSchemaMetadata":           func() Aspect { return new(EditableSchemaMetadata) },
	"datasetKey":                       func() Aspect { return new(DatasetKey) },
	"mlFeatureKey":                     func() Aspect { return new(MLFeatureKey) },
	"mlFeatureTableKey":                func() Aspect { return new(MLFeatureTableKey) },
	"mlModelKey":                       func() Aspect { return new(MLModelKey) },
	"mlModelGroupKey":                  func() Aspect { return new(MLModelGroupKey) },
	"dataPlatformKey":                  func() Aspect { return new(DataPlatformKey) },
	"testKey":                          func() Aspect { return new(TestKey) },
	"status":                           func() Aspect { return new(Status) },
	"editableMlFeatureProperties":      func() Aspect { return new(EditableMLFeatureProperties) },
	"editableMlFeatureTableProperties": func() Aspect { return new(EditableMLFeatureTableProperties) },
	"editableMlModelProperties":        func() Aspect { return new(EditableMLModelProperties) },
	"editableMlModelGroupProperties":   func() Aspect { return new(EditableMLModelGroupProperties) },
	"globalTags":                       func() Aspect { return new(GlobalTags) },
	"glossaryTerms":                    func() Aspect { return new(GlossaryTerms) },
	"ownership":                        func() Aspect { return new(Ownership) },
	"datasetProfile":                   func() Aspect { return new(DatasetProfile) },
	"datasetUsageStatistics":           func() Aspect { return new(DatasetUsageStatistics) },
	"operation":                        func() Aspect { return new(Operation) },
	"testInfo":                         func() Aspect { return new(TestInfo) },
	"testResults":                      func() Aspect { return new(TestResults) },
	"dataPlatformInfo":                 func() Aspect { return new(DataPlatformInfo) },
}

// Lookup returns the facts of an aspect named in DataHub's entity registry,
// typed by this package or not. It reports false for a name the registry
// does not know.
func Lookup(aspectName string) (Info, bool) {
	a, ok := pdl.LookupAspect(aspectName)
	if !ok {
		return Info{}, false
	}
	_, isTyped := typed[aspectName]
	if !isTyped {
		_, isTyped = slices.BinarySearch(generatedNames, aspectName)
	}
	return Info{Name: a.Name, RecordName: a.RecordName, Timeseries: a.Timeseries, Typed: isTyped}, true
}

// New returns a new zero *T for the aspect this package types under
// aspectName, e.g. a *Status for "status". It reports false for an aspect
// without a struct.
func New(aspectName string) (Aspect, bool) {
	if f, ok := typed[aspectName]; ok {
		return f(), true
	}
	if a := newGenerated(aspectName); a != nil {
		return a, true
	}
	return nil, false
}

// TypedAspects returns the names of the aspects this package types, sorted.
func TypedAspects() []string {
	names := make([]string, 0, len(typed)+len(generatedNames))
	for n := range typed {
		names = append(names, n)
	}
	names = append(names, generatedNames...)
	sort.Strings(names)
	return names
}

// EntitySpec is an entity type of DataHub's entity registry.
type EntitySpec struct {
	// Name is the entity type, e.g. "dataset".
	Name string
	// KeyAspect is the name of the entity's key aspect, e.g. "datasetKey".
	KeyAspect string
	// Aspects lists the entity's other aspects, in entity-registry.yml order.
	Aspects []string
}

// Allows reports whether aspect may be written to the entity: its key
// aspect or one of its aspects.
func (e EntitySpec) Allows(aspect string) bool {
	return aspect == e.KeyAspect || slices.Contains(e.Aspects, aspect)
}

func fromPDL(e pdl.Entity) EntitySpec {
	return EntitySpec{Name: e.Name, KeyAspect: e.KeyAspect, Aspects: e.Aspects}
}

// LookupEntity returns the registry entry of an entity type such as
// "dataset" or "mlModel". The result is the caller's to modify.
func LookupEntity(entityType string) (EntitySpec, bool) {
	e, ok := pdl.LookupEntity(entityType)
	if !ok {
		return EntitySpec{}, false
	}
	return fromPDL(e), true
}

// Entities returns every entity type of DataHub's entity registry, in
// entity-registry.yml order. The result is the caller's to modify.
func Entities() []EntitySpec {
	es := pdl.Entities()
	out := make([]EntitySpec, len(es))
	for i, e := range es {
		out[i] = fromPDL(e)
	}
	return out
}
