package patch

import (
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// DataHub GMS has no patch template for the ML properties aspects
// (mlModelProperties, mlModelGroupProperties, mlFeatureProperties,
// mlFeatureTableProperties): a bare patch of them, which is what DataHub's
// Python MLModelPatchBuilder sends, fails on the server. The builders here
// send them with forceGenericPatch, and address URN lists (features,
// groups, sources, ...) by value through arrayPrimaryKeys {"<field>": []},
// so that the server's generic patcher merges them.

// urnList adds or removes one URN of a string array field, keyed by value.
func (b *Builder) urnList(aspect, field, op, value string) {
	b.SetArrayPrimaryKeys(aspect, field)
	if op == OpAdd {
		b.Add(aspect, Path(field, value), value)
		return
	}
	b.Remove(aspect, Path(field, value))
}

// setList replaces a whole string array field.
func (b *Builder) setList(aspect, field string, values []string) {
	if values == nil {
		values = []string{}
	}
	b.Add(aspect, Path(field), values)
}

// MLModel builds the patches of an ML model (DataHub's MLModelPatchBuilder).
type MLModel struct {
	*Builder
}

// NewMLModel returns a patch builder for ML model u.
func NewMLModel(u urn.MLModel) *MLModel { return &MLModel{New(u)} }

const mlModelProps = "mlModelProperties"

// SetName sets mlModelProperties.name.
func (m *MLModel) SetName(name string) { m.Add(mlModelProps, "/name", name) }

// SetDescription sets mlModelProperties.description.
func (m *MLModel) SetDescription(description string) {
	m.Add(mlModelProps, "/description", description)
}

// SetExternalURL sets mlModelProperties.externalUrl.
func (m *MLModel) SetExternalURL(url string) { m.Add(mlModelProps, "/externalUrl", url) }

// SetType sets mlModelProperties.type.
func (m *MLModel) SetType(typ string) { m.Add(mlModelProps, "/type", typ) }

// SetVersion sets mlModelProperties.version.
func (m *MLModel) SetVersion(version aspects.VersionTag) { m.Add(mlModelProps, "/version", version) }

// SetHyperParams replaces mlModelProperties.hyperParams.
func (m *MLModel) SetHyperParams(params []aspects.MLHyperParam) {
	if params == nil {
		params = []aspects.MLHyperParam{}
	}
	m.Add(mlModelProps, "/hyperParams", params)
}

// SetTrainingMetrics replaces mlModelProperties.trainingMetrics.
func (m *MLModel) SetTrainingMetrics(metrics []aspects.MLMetric) {
	if metrics == nil {
		metrics = []aspects.MLMetric{}
	}
	m.Add(mlModelProps, "/trainingMetrics", metrics)
}

// AddFeature adds an ML feature URN to mlModelProperties.mlFeatures.
func (m *MLModel) AddFeature(feature string) { m.urnList(mlModelProps, "mlFeatures", OpAdd, feature) }

// RemoveFeature removes an ML feature URN.
func (m *MLModel) RemoveFeature(feature string) {
	m.urnList(mlModelProps, "mlFeatures", OpRemove, feature)
}

// SetFeatures replaces mlModelProperties.mlFeatures.
func (m *MLModel) SetFeatures(features []string) { m.setList(mlModelProps, "mlFeatures", features) }

// AddGroup adds an ML model group URN to mlModelProperties.groups.
func (m *MLModel) AddGroup(group string) { m.urnList(mlModelProps, "groups", OpAdd, group) }

// RemoveGroup removes an ML model group URN.
func (m *MLModel) RemoveGroup(group string) { m.urnList(mlModelProps, "groups", OpRemove, group) }

// SetGroups replaces mlModelProperties.groups.
func (m *MLModel) SetGroups(groups []string) { m.setList(mlModelProps, "groups", groups) }

// AddTrainingJob adds a training job URN to mlModelProperties.trainingJobs.
func (m *MLModel) AddTrainingJob(job string) { m.urnList(mlModelProps, "trainingJobs", OpAdd, job) }

// AddDownstreamJob adds a job URN to mlModelProperties.downstreamJobs.
func (m *MLModel) AddDownstreamJob(job string) {
	m.urnList(mlModelProps, "downstreamJobs", OpAdd, job)
}

// AddDeployment adds a deployment URN to mlModelProperties.deployments.
func (m *MLModel) AddDeployment(deployment string) {
	m.urnList(mlModelProps, "deployments", OpAdd, deployment)
}

// MLModelGroup builds the patches of an ML model group.
type MLModelGroup struct {
	*Builder
}

// NewMLModelGroup returns a patch builder for ML model group u.
func NewMLModelGroup(u urn.MLModelGroup) *MLModelGroup { return &MLModelGroup{New(u)} }

const mlGroupProps = "mlModelGroupProperties"

// SetName sets mlModelGroupProperties.name.
func (g *MLModelGroup) SetName(name string) { g.Add(mlGroupProps, "/name", name) }

// SetDescription sets mlModelGroupProperties.description.
func (g *MLModelGroup) SetDescription(description string) {
	g.Add(mlGroupProps, "/description", description)
}

// SetExternalURL sets mlModelGroupProperties.externalUrl.
func (g *MLModelGroup) SetExternalURL(url string) { g.Add(mlGroupProps, "/externalUrl", url) }

// SetEditableDescription sets editableMlModelGroupProperties.description,
// the description edited in DataHub's UI (DataHub's Java
// EditableMLModelGroupPropertiesPatchBuilder).
func (g *MLModelGroup) SetEditableDescription(description string) {
	g.Add("editableMlModelGroupProperties", "/description", description)
}

// AddTrainingJob adds a training job URN to trainingJobs.
func (g *MLModelGroup) AddTrainingJob(job string) {
	g.urnList(mlGroupProps, "trainingJobs", OpAdd, job)
}

// RemoveTrainingJob removes a training job URN.
func (g *MLModelGroup) RemoveTrainingJob(job string) {
	g.urnList(mlGroupProps, "trainingJobs", OpRemove, job)
}

// AddDownstreamJob adds a job URN to downstreamJobs.
func (g *MLModelGroup) AddDownstreamJob(job string) {
	g.urnList(mlGroupProps, "downstreamJobs", OpAdd, job)
}

// MLFeature builds the patches of an ML feature.
type MLFeature struct {
	*Builder
}

// NewMLFeature returns a patch builder for ML feature u.
func NewMLFeature(u urn.MLFeature) *MLFeature { return &MLFeature{New(u)} }

const mlFeatureProps = "mlFeatureProperties"

// SetDescription sets mlFeatureProperties.description.
func (f *MLFeature) SetDescription(description string) {
	f.Add(mlFeatureProps, "/description", description)
}

// SetDataType sets mlFeatureProperties.dataType.
func (f *MLFeature) SetDataType(t aspects.MLFeatureDataType) { f.Add(mlFeatureProps, "/dataType", t) }

// AddSource adds a source dataset URN to mlFeatureProperties.sources.
func (f *MLFeature) AddSource(dataset string) { f.urnList(mlFeatureProps, "sources", OpAdd, dataset) }

// RemoveSource removes a source dataset URN.
func (f *MLFeature) RemoveSource(dataset string) {
	f.urnList(mlFeatureProps, "sources", OpRemove, dataset)
}

// SetSources replaces mlFeatureProperties.sources.
func (f *MLFeature) SetSources(datasets []string) { f.setList(mlFeatureProps, "sources", datasets) }

// MLFeatureTable builds the patches of an ML feature table.
type MLFeatureTable struct {
	*Builder
}

// NewMLFeatureTable returns a patch builder for ML feature table u.
func NewMLFeatureTable(u urn.MLFeatureTable) *MLFeatureTable { return &MLFeatureTable{New(u)} }

const mlTableProps = "mlFeatureTableProperties"

// SetDescription sets mlFeatureTableProperties.description.
func (t *MLFeatureTable) SetDescription(description string) {
	t.Add(mlTableProps, "/description", description)
}

// AddFeature adds an ML feature URN to mlFeatureTableProperties.mlFeatures.
func (t *MLFeatureTable) AddFeature(feature string) {
	t.urnList(mlTableProps, "mlFeatures", OpAdd, feature)
}

// RemoveFeature removes an ML feature URN.
func (t *MLFeatureTable) RemoveFeature(feature string) {
	t.urnList(mlTableProps, "mlFeatures", OpRemove, feature)
}

// SetFeatures replaces mlFeatureTableProperties.mlFeatures.
func (t *MLFeatureTable) SetFeatures(features []string) {
	t.setList(mlTableProps, "mlFeatures", features)
}

// AddPrimaryKey adds an ML primary key URN to mlPrimaryKeys.
func (t *MLFeatureTable) AddPrimaryKey(key string) {
	t.urnList(mlTableProps, "mlPrimaryKeys", OpAdd, key)
}

// RemovePrimaryKey removes an ML primary key URN.
func (t *MLFeatureTable) RemovePrimaryKey(key string) {
	t.urnList(mlTableProps, "mlPrimaryKeys", OpRemove, key)
}
