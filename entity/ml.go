package entity

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/entitystate"
	"github.com/catalogkit/datahub-go/urn"
)

// MLModel is an ML model, the outcome of one training run, with its
// aspects.
type MLModel struct {
	Meta
	// URN is the model's URN.
	URN urn.MLModel
	// Properties is mlModelProperties: description, hyper-parameters,
	// training metrics, groups, training jobs, deployments, features.
	Properties *aspects.MLModelProperties
	// EditableProperties is editableMlModelProperties: its description as
	// edited in DataHub.
	EditableProperties *aspects.EditableMLModelProperties
	// Ownership is ownership: its owners.
	Ownership *aspects.Ownership
	// GlobalTags is globalTags: its tags.
	GlobalTags *aspects.GlobalTags
	// GlossaryTerms is glossaryTerms: its glossary terms.
	GlossaryTerms *aspects.GlossaryTerms
	// InstitutionalMemory is institutionalMemory: its links.
	InstitutionalMemory *aspects.InstitutionalMemory
	// Container is container: the container (such as an ML experiment or
	// a project) it is in.
	Container *aspects.Container
	// SubTypes is subTypes: what kind of it this is.
	SubTypes *aspects.SubTypes
	// DataPlatformInstance is dataPlatformInstance: its platform and
	// platform instance.
	DataPlatformInstance *aspects.DataPlatformInstance
	// BrowsePathsV2 is browsePathsV2: where DataHub's UI shows it when
	// browsing.
	BrowsePathsV2 *aspects.BrowsePathsV2
	// Domains is domains: the domains it belongs to.
	Domains *aspects.Domains
	// Deprecation is deprecation: whether it is deprecated, and why.
	Deprecation *aspects.Deprecation
	// Status is status: whether it is soft-deleted.
	Status *aspects.Status
}

// MLModelGroup is an ML model group, all runs (versions) of one model,
// with its aspects.
type MLModelGroup struct {
	Meta
	// URN is the group's URN.
	URN urn.MLModelGroup
	// Properties is mlModelGroupProperties.
	Properties *aspects.MLModelGroupProperties
	// EditableProperties is editableMlModelGroupProperties.
	EditableProperties *aspects.EditableMLModelGroupProperties
	// Ownership is ownership: its owners.
	Ownership *aspects.Ownership
	// GlobalTags is globalTags: its tags.
	GlobalTags *aspects.GlobalTags
	// GlossaryTerms is glossaryTerms: its glossary terms.
	GlossaryTerms *aspects.GlossaryTerms
	// InstitutionalMemory is institutionalMemory: its links.
	InstitutionalMemory *aspects.InstitutionalMemory
	// Container is container: the container (such as an ML experiment or
	// a project) it is in.
	Container *aspects.Container
	// SubTypes is subTypes: what kind of it this is.
	SubTypes *aspects.SubTypes
	// DataPlatformInstance is dataPlatformInstance: its platform and
	// platform instance.
	DataPlatformInstance *aspects.DataPlatformInstance
	// BrowsePathsV2 is browsePathsV2: where DataHub's UI shows it when
	// browsing.
	BrowsePathsV2 *aspects.BrowsePathsV2
	// Domains is domains: the domains it belongs to.
	Domains *aspects.Domains
	// Deprecation is deprecation: whether it is deprecated, and why.
	Deprecation *aspects.Deprecation
	// Status is status: whether it is soft-deleted.
	Status *aspects.Status
}

// MLFeature is an ML feature with its aspects.
type MLFeature struct {
	Meta
	// URN is the feature's URN.
	URN urn.MLFeature
	// Properties is mlFeatureProperties: description, data type, source
	// datasets.
	Properties *aspects.MLFeatureProperties
	// EditableProperties is editableMlFeatureProperties.
	EditableProperties *aspects.EditableMLFeatureProperties
	// Ownership is ownership: its owners.
	Ownership *aspects.Ownership
	// GlobalTags is globalTags: its tags.
	GlobalTags *aspects.GlobalTags
	// GlossaryTerms is glossaryTerms: its glossary terms.
	GlossaryTerms *aspects.GlossaryTerms
	// InstitutionalMemory is institutionalMemory: its links.
	InstitutionalMemory *aspects.InstitutionalMemory
	// SubTypes is subTypes: what kind of it this is.
	SubTypes *aspects.SubTypes
	// DataPlatformInstance is dataPlatformInstance: its platform and
	// platform instance.
	DataPlatformInstance *aspects.DataPlatformInstance
	// BrowsePathsV2 is browsePathsV2: where DataHub's UI shows it when
	// browsing.
	BrowsePathsV2 *aspects.BrowsePathsV2
	// Domains is domains: the domains it belongs to.
	Domains *aspects.Domains
	// Deprecation is deprecation: whether it is deprecated, and why.
	Deprecation *aspects.Deprecation
	// Status is status: whether it is soft-deleted.
	Status *aspects.Status
}

// MLFeatureTable is an ML feature table with its aspects.
type MLFeatureTable struct {
	Meta
	// URN is the table's URN.
	URN urn.MLFeatureTable
	// Properties is mlFeatureTableProperties: description, features,
	// primary keys.
	Properties *aspects.MLFeatureTableProperties
	// EditableProperties is editableMlFeatureTableProperties.
	EditableProperties *aspects.EditableMLFeatureTableProperties
	// Ownership is ownership: its owners.
	Ownership *aspects.Ownership
	// GlobalTags is globalTags: its tags.
	GlobalTags *aspects.GlobalTags
	// GlossaryTerms is glossaryTerms: its glossary terms.
	GlossaryTerms *aspects.GlossaryTerms
	// InstitutionalMemory is institutionalMemory: its links.
	InstitutionalMemory *aspects.InstitutionalMemory
	// SubTypes is subTypes: what kind of it this is.
	SubTypes *aspects.SubTypes
	// DataPlatformInstance is dataPlatformInstance: its platform and
	// platform instance.
	DataPlatformInstance *aspects.DataPlatformInstance
	// BrowsePathsV2 is browsePathsV2: where DataHub's UI shows it when
	// browsing.
	BrowsePathsV2 *aspects.BrowsePathsV2
	// Domains is domains: the domains it belongs to.
	Domains *aspects.Domains
	// Deprecation is deprecation: whether it is deprecated, and why.
	Deprecation *aspects.Deprecation
	// Status is status: whether it is soft-deleted.
	Status *aspects.Status
}

func init() {
	register(urn.TypeMLModel, func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseMLModel)
		return &MLModel{URN: t}, err
	})
	register(urn.TypeMLModelGroup, func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseMLModelGroup)
		return &MLModelGroup{URN: t}, err
	})
	register(urn.TypeMLFeature, func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseMLFeature)
		return &MLFeature{URN: t}, err
	})
	register(urn.TypeMLFeatureTable, func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseMLFeatureTable)
		return &MLFeatureTable{URN: t}, err
	})
}

// EntityURN returns m.URN.
func (m *MLModel) EntityURN() urn.URN { return m.URN }

// KeyAspect returns the mlModelKey of m.URN.
func (m *MLModel) KeyAspect() aspects.Aspect {
	return aspects.MLModelKey{Platform: m.URN.Platform().String(), Name: m.URN.Name(), Origin: aspects.FabricType(m.URN.Env())}
}

func (m *MLModel) access() entitystate.Access {
	return access(&m.Meta, field(&m.Properties), field(&m.EditableProperties), field(&m.Ownership),
		field(&m.GlobalTags), field(&m.GlossaryTerms), field(&m.InstitutionalMemory), field(&m.Container), field(&m.SubTypes),
		field(&m.DataPlatformInstance), field(&m.BrowsePathsV2), field(&m.Domains), field(&m.Deprecation), field(&m.Status))
}

// EntityURN returns g.URN.
func (g *MLModelGroup) EntityURN() urn.URN { return g.URN }

// KeyAspect returns the mlModelGroupKey of g.URN.
func (g *MLModelGroup) KeyAspect() aspects.Aspect {
	return aspects.MLModelGroupKey{Platform: g.URN.Platform().String(), Name: g.URN.Name(), Origin: aspects.FabricType(g.URN.Env())}
}

func (g *MLModelGroup) access() entitystate.Access {
	return access(&g.Meta, field(&g.Properties), field(&g.EditableProperties), field(&g.Ownership),
		field(&g.GlobalTags), field(&g.GlossaryTerms), field(&g.InstitutionalMemory), field(&g.Container), field(&g.SubTypes),
		field(&g.DataPlatformInstance), field(&g.BrowsePathsV2), field(&g.Domains), field(&g.Deprecation), field(&g.Status))
}

// EntityURN returns f.URN.
func (f *MLFeature) EntityURN() urn.URN { return f.URN }

// KeyAspect returns the mlFeatureKey of f.URN.
func (f *MLFeature) KeyAspect() aspects.Aspect {
	return aspects.MLFeatureKey{FeatureNamespace: f.URN.Namespace(), Name: f.URN.Name()}
}

func (f *MLFeature) access() entitystate.Access {
	return access(&f.Meta, field(&f.Properties), field(&f.EditableProperties), field(&f.Ownership),
		field(&f.GlobalTags), field(&f.GlossaryTerms), field(&f.InstitutionalMemory), field(&f.SubTypes),
		field(&f.DataPlatformInstance), field(&f.BrowsePathsV2), field(&f.Domains), field(&f.Deprecation), field(&f.Status))
}

// EntityURN returns t.URN.
func (t *MLFeatureTable) EntityURN() urn.URN { return t.URN }

// KeyAspect returns the mlFeatureTableKey of t.URN.
func (t *MLFeatureTable) KeyAspect() aspects.Aspect {
	return aspects.MLFeatureTableKey{Platform: t.URN.Platform().String(), Name: t.URN.Name()}
}

func (t *MLFeatureTable) access() entitystate.Access {
	return access(&t.Meta, field(&t.Properties), field(&t.EditableProperties), field(&t.Ownership),
		field(&t.GlobalTags), field(&t.GlossaryTerms), field(&t.InstitutionalMemory), field(&t.SubTypes),
		field(&t.DataPlatformInstance), field(&t.BrowsePathsV2), field(&t.Domains), field(&t.Deprecation), field(&t.Status))
}

// NewMLModel returns a model with a description, hyper-parameters and
// training metrics in its mlModelProperties. Values are written as text
// (a float64 in Go's shortest form); names are sorted, so the same maps
// give the same aspect.
func NewMLModel(u urn.MLModel, description string, hyperParams, trainingMetrics map[string]any) *MLModel {
	p := &aspects.MLModelProperties{HyperParams: HyperParams(hyperParams), TrainingMetrics: Metrics(trainingMetrics)}
	if description != "" {
		p.Description = aspects.Ptr(description)
	}
	return &MLModel{URN: u, Properties: p}
}

// HyperParams returns params as DataHub's hyper-parameter records, sorted
// by name, with values as text (see NewMLModel); nil for none.
func HyperParams(params map[string]any) []aspects.MLHyperParam {
	var out []aspects.MLHyperParam
	for _, name := range sortedKeys(params) {
		out = append(out, aspects.MLHyperParam{Name: name, Value: aspects.Ptr(text(params[name]))})
	}
	return out
}

// Metrics returns metrics as DataHub's metric records, sorted by name,
// with values as text (see NewMLModel); nil for none.
func Metrics(metrics map[string]any) []aspects.MLMetric {
	var out []aspects.MLMetric
	for _, name := range sortedKeys(metrics) {
		out = append(out, aspects.MLMetric{Name: name, Value: aspects.Ptr(text(metrics[name]))})
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// text formats a parameter or metric value.
func text(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case string:
		return x
	}
	return fmt.Sprint(v)
}
