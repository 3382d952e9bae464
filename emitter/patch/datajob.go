package patch

import (
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

const (
	dataJobInfo        = "dataJobInfo"
	dataJobInputOutput = "dataJobInputOutput"
	dataFlowInfo       = "dataFlowInfo"
)

// DataJob builds the patches of a data job (a task of a pipeline), as
// DataHub's Python DataJobPatchBuilder and Java DataJobInfoPatchBuilder do:
// dataJobInfo fields, and dataJobInputOutput's input and output datasets,
// input jobs, dataset fields and column-level lineage. The embedded
// Builder gives tags, terms, owners, domains, structured properties, links
// and custom properties (on dataJobInfo).
type DataJob struct {
	*Builder
}

// NewDataJob returns a patch builder for data job u
// ("urn:li:dataJob:(urn:li:dataFlow:(...),<job id>)"); another entity type
// fails Proposals.
func NewDataJob(u urn.URN) *DataJob { return &DataJob{newTyped(u, "dataJob")} }

// SetName sets dataJobInfo.name.
func (j *DataJob) SetName(name string) { j.Add(dataJobInfo, "/name", name) }

// SetDescription sets dataJobInfo.description.
func (j *DataJob) SetDescription(description string) {
	j.Add(dataJobInfo, "/description", description)
}

// RemoveDescription removes dataJobInfo.description.
func (j *DataJob) RemoveDescription() { j.Remove(dataJobInfo, "/description") }

// SetType sets dataJobInfo.type to a free-text job type ("COMMAND",
// "SQL", ...), sent as the union's string member {"string": typ}.
func (j *DataJob) SetType(typ string) {
	j.Add(dataJobInfo, "/type", map[string]string{"string": typ})
}

// SetFlowURN sets dataJobInfo.flowUrn, the pipeline the job belongs to.
func (j *DataJob) SetFlowURN(flow string) {
	if j.checkType(dataJobInfo+".flowUrn", flow, "dataFlow") {
		j.Add(dataJobInfo, "/flowUrn", flow)
	}
}

// SetExternalURL sets dataJobInfo.externalUrl.
func (j *DataJob) SetExternalURL(url string) { j.Add(dataJobInfo, "/externalUrl", url) }

// SetCreated sets dataJobInfo.created.
func (j *DataJob) SetCreated(ts aspects.TimeStamp) { j.Add(dataJobInfo, "/created", ts) }

// SetLastModified sets dataJobInfo.lastModified.
func (j *DataJob) SetLastModified(ts aspects.TimeStamp) { j.Add(dataJobInfo, "/lastModified", ts) }

// AddInputDataset adds an input dataset edge: add
// /inputDatasetEdges/<dataset urn> with {"destinationUrn": <urn>}.
func (j *DataJob) AddInputDataset(dataset string) {
	j.addEdge(dataJobInputOutput, "inputDatasetEdges", dataset, "dataset")
}

// RemoveInputDataset removes the input dataset edge to dataset.
func (j *DataJob) RemoveInputDataset(dataset string) {
	j.Remove(dataJobInputOutput, Path("inputDatasetEdges", dataset))
}

// SetInputDatasets replaces all input dataset edges.
func (j *DataJob) SetInputDatasets(datasets []string) {
	j.setEdges(dataJobInputOutput, "inputDatasetEdges", datasets, "dataset")
}

// AddOutputDataset adds an output dataset edge: add
// /outputDatasetEdges/<dataset urn>.
func (j *DataJob) AddOutputDataset(dataset string) {
	j.addEdge(dataJobInputOutput, "outputDatasetEdges", dataset, "dataset")
}

// RemoveOutputDataset removes the output dataset edge to dataset.
func (j *DataJob) RemoveOutputDataset(dataset string) {
	j.Remove(dataJobInputOutput, Path("outputDatasetEdges", dataset))
}

// SetOutputDatasets replaces all output dataset edges.
func (j *DataJob) SetOutputDatasets(datasets []string) {
	j.setEdges(dataJobInputOutput, "outputDatasetEdges", datasets, "dataset")
}

// AddInputJob adds an upstream data job edge: add
// /inputDatajobEdges/<data job urn>.
func (j *DataJob) AddInputJob(job string) {
	j.addEdge(dataJobInputOutput, "inputDatajobEdges", job, "dataJob")
}

// RemoveInputJob removes the upstream data job edge to job.
func (j *DataJob) RemoveInputJob(job string) {
	j.Remove(dataJobInputOutput, Path("inputDatajobEdges", job))
}

// SetInputJobs replaces all upstream data job edges.
func (j *DataJob) SetInputJobs(jobs []string) {
	j.setEdges(dataJobInputOutput, "inputDatajobEdges", jobs, "dataJob")
}

// AddInputDatasetField adds a schema field URN to inputDatasetFields:
// add /inputDatasetFields/<urn> with the URN, as DataHub's Java builder
// sends it.
func (j *DataJob) AddInputDatasetField(field string) {
	if j.checkType(dataJobInputOutput+".inputDatasetFields", field, "schemaField") {
		j.Add(dataJobInputOutput, Path("inputDatasetFields", field), field)
	}
}

// RemoveInputDatasetField removes a schema field URN from
// inputDatasetFields.
func (j *DataJob) RemoveInputDatasetField(field string) {
	j.Remove(dataJobInputOutput, Path("inputDatasetFields", field))
}

// AddOutputDatasetField adds a schema field URN to outputDatasetFields.
func (j *DataJob) AddOutputDatasetField(field string) {
	if j.checkType(dataJobInputOutput+".outputDatasetFields", field, "schemaField") {
		j.Add(dataJobInputOutput, Path("outputDatasetFields", field), field)
	}
}

// RemoveOutputDatasetField removes a schema field URN from
// outputDatasetFields.
func (j *DataJob) RemoveOutputDatasetField(field string) {
	j.Remove(dataJobInputOutput, Path("outputDatasetFields", field))
}

// AddFineGrainedLineage adds column-level lineage from upstream to
// downstream (schemaField URNs) through the job: add
// /fineGrainedLineages/<transform>/<downstream>/<query>/<upstream> with
// {"confidenceScore": score}. transform and query default to "NONE".
func (j *DataJob) AddFineGrainedLineage(transform, downstream, query, upstream string, score float32) {
	j.Add(dataJobInputOutput, fineGrainedPath(transform, downstream, query, upstream), map[string]float32{"confidenceScore": score})
}

// RemoveFineGrainedLineage removes one column-level lineage edge.
func (j *DataJob) RemoveFineGrainedLineage(transform, downstream, query, upstream string) {
	j.Remove(dataJobInputOutput, fineGrainedPath(transform, downstream, query, upstream))
}

// DataFlow builds the patches of a data flow (a pipeline), as DataHub's
// Java DataFlowInfoPatchBuilder does: dataFlowInfo fields. The embedded
// Builder gives tags, terms, owners, domains, structured properties, links
// and custom properties (on dataFlowInfo).
type DataFlow struct {
	*Builder
}

// NewDataFlow returns a patch builder for data flow u
// ("urn:li:dataFlow:(<orchestrator>,<flow id>,<cluster>)"); another entity
// type fails Proposals.
func NewDataFlow(u urn.URN) *DataFlow { return &DataFlow{newTyped(u, "dataFlow")} }

// SetName sets dataFlowInfo.name.
func (f *DataFlow) SetName(name string) { f.Add(dataFlowInfo, "/name", name) }

// SetDescription sets dataFlowInfo.description.
func (f *DataFlow) SetDescription(description string) {
	f.Add(dataFlowInfo, "/description", description)
}

// RemoveDescription removes dataFlowInfo.description.
func (f *DataFlow) RemoveDescription() { f.Remove(dataFlowInfo, "/description") }

// SetProject sets dataFlowInfo.project.
func (f *DataFlow) SetProject(project string) { f.Add(dataFlowInfo, "/project", project) }

// SetExternalURL sets dataFlowInfo.externalUrl.
func (f *DataFlow) SetExternalURL(url string) { f.Add(dataFlowInfo, "/externalUrl", url) }

// SetCreated sets dataFlowInfo.created.
func (f *DataFlow) SetCreated(ts aspects.TimeStamp) { f.Add(dataFlowInfo, "/created", ts) }

// SetLastModified sets dataFlowInfo.lastModified.
func (f *DataFlow) SetLastModified(ts aspects.TimeStamp) {
	f.Add(dataFlowInfo, "/lastModified", ts)
}
