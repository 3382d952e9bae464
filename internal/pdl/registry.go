package pdl

import "slices"

// Entity is an entity type of DataHub's entity registry.
type Entity struct {
	// Name is the entity type, e.g. "dataset".
	Name string
	// KeyAspect is the name of the entity's key aspect, e.g. "datasetKey".
	KeyAspect string
	// Aspects lists the entity's aspects in entity-registry.yml order, without the key aspect.
	Aspects []string
}

// Allows reports whether aspect is the entity's key aspect or one of its aspects.
func (e Entity) Allows(aspect string) bool {
	return aspect == e.KeyAspect || slices.Contains(e.Aspects, aspect)
}

// AspectInfo describes an aspect named in DataHub's entity registry.
type AspectInfo struct {
	// Name is the aspect name, e.g. "status".
	Name string
	// RecordName is the fully qualified Pegasus record name, e.g. "com.linkedin.common.Status".
	RecordName string
	// Timeseries reports whether the aspect is a timeseries aspect.
	Timeseries bool
	// SchemaVersion is the schemaVersion of the aspect's @Aspect annotation,
	// 0 when it names none; see [AspectInfo.Schema].
	SchemaVersion int64
}

// Schema is the aspect's schema version as DataHub stamps it on the
// systemMetadata of each write: its @Aspect schemaVersion, 1 when the
// annotation names none.
func (a AspectInfo) Schema() int64 {
	if a.SchemaVersion == 0 {
		return 1
	}
	return a.SchemaVersion
}

var entityIndex = func() map[string]int {
	m := make(map[string]int, len(entities))
	for i, e := range entities {
		m[e.Name] = i
	}
	return m
}()

// Entities returns every entity of DataHub's entity registry, in entity-registry.yml order.
// The result is a copy; callers may modify it.
func Entities() []Entity {
	out := make([]Entity, len(entities))
	for i, e := range entities {
		e.Aspects = slices.Clone(e.Aspects)
		out[i] = e
	}
	return out
}

// LookupEntity returns the registry entry of the entity type name.
func LookupEntity(name string) (Entity, bool) {
	shared, ok := Registered(name)
	if !ok {
		return Entity{}, false
	}
	e := *shared
	e.Aspects = slices.Clone(e.Aspects)
	return e, true
}

// Registry returns every entity of DataHub's entity registry, in
// entity-registry.yml order, without a copy, for the request paths that
// only read it: the caller must not modify it (Entities returns a copy).
func Registry() []Entity { return entities }

// Registered returns the registry entry of the entity type name without a
// copy, for the hot paths that only read it (a proposal's checks, the
// mock's indexing): the caller must not modify it or its Aspects.
func Registered(name string) (*Entity, bool) {
	i, ok := entityIndex[name]
	if !ok {
		return nil, false
	}
	return &entities[i], true
}

// LookupAspect returns the facts of an aspect named in DataHub's entity registry.
func LookupAspect(name string) (AspectInfo, bool) {
	a, ok := aspectInfos[name]
	return a, ok
}
