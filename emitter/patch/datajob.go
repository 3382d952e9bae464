package patch

import (
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
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

// NewDataJob returns a patch builder for data job u.
func NewDataJob(u urn.DataJob) *DataJob { return &DataJob{New(u)} }

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

// AddInputDataset adds an input dataset edge to dataset: add
// /inputDatasetEdges/<dataset urn> with {"destinationUrn": <urn>}.
func (j *DataJob) AddInputDataset(dataset string) { j.AddInputDatasetEdge(to(dataset)) }

// AddInputDatasetEdge adds an input dataset edge, keyed by its
// destination.
func (j *DataJob) AddInputDatasetEdge(e aspects.Edge) {
	j.addEdge(dataJobInputOutput, "inputDatasetEdges", e, "dataset")
}

// RemoveInputDataset removes the input dataset edge to dataset.
func (j *DataJob) RemoveInputDataset(dataset string) {
	j.Remove(dataJobInputOutput, Path("inputDatasetEdges", dataset))
}

// SetInputDatasetEdges replaces all input dataset edges.
func (j *DataJob) SetInputDatasetEdges(edges []aspects.Edge) {
	j.setEdges(dataJobInputOutput, "inputDatasetEdges", edges, "dataset")
}

// AddOutputDataset adds an output dataset edge to dataset: add
// /outputDatasetEdges/<dataset urn>.
func (j *DataJob) AddOutputDataset(dataset string) { j.AddOutputDatasetEdge(to(dataset)) }

// AddOutputDatasetEdge adds an output dataset edge, keyed by its
// destination.
func (j *DataJob) AddOutputDatasetEdge(e aspects.Edge) {
	j.addEdge(dataJobInputOutput, "outputDatasetEdges", e, "dataset")
}

// RemoveOutputDataset removes the output dataset edge to dataset.
func (j *DataJob) RemoveOutputDataset(dataset string) {
	j.Remove(dataJobInputOutput, Path("outputDatasetEdges", dataset))
}

// SetOutputDatasetEdges replaces all output dataset edges.
func (j *DataJob) SetOutputDatasetEdges(edges []aspects.Edge) {
	j.setEdges(dataJobInputOutput, "outputDatasetEdges", edges, "dataset")
}

// AddInputJob adds an upstream data job edge to job: add
// /inputDatajobEdges/<data job urn>.
func (j *DataJob) AddInputJob(job string) { j.AddInputJobEdge(to(job)) }

// AddInputJobEdge adds an upstream data job edge, keyed by its
// destination.
func (j *DataJob) AddInputJobEdge(e aspects.Edge) {
	j.addEdge(dataJobInputOutput, "inputDatajobEdges", e, "dataJob")
}

// RemoveInputJob removes the upstream data job edge to job.
func (j *DataJob) RemoveInputJob(job string) {
	j.Remove(dataJobInputOutput, Path("inputDatajobEdges", job))
}

// SetInputJobEdges replaces all upstream data job edges.
func (j *DataJob) SetInputJobEdges(edges []aspects.Edge) {
	j.setEdges(dataJobInputOutput, "inputDatajobEdges", edges, "dataJob")
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

// AddFineGrainedLineage adds column-level lineage through the job, as
// DataHub's Python builder does: l must have exactly one downstream, and
// each upstream becomes one add of
// /fineGrainedLineages/<transform>/<downstream>/<query>/<upstream> with
// {"confidenceScore": score} (transform and query "NONE" when unset,
// score 1 when unset). The server groups them back into lineage records.
func (j *DataJob) AddFineGrainedLineage(l aspects.FineGrainedLineage) {
	j.fineGrained(OpAdd, l)
}

// RemoveFineGrainedLineage removes the column-level edges of l (one
// downstream) from each of its upstreams.
func (j *DataJob) RemoveFineGrainedLineage(l aspects.FineGrainedLineage) {
	j.fineGrained(OpRemove, l)
}

// SetFineGrainedLineages replaces all column-level lineage of the job.
func (j *DataJob) SetFineGrainedLineages(lineages []aspects.FineGrainedLineage) {
	if lineages == nil {
		lineages = []aspects.FineGrainedLineage{}
	}
	j.Add(dataJobInputOutput, "/fineGrainedLineages", lineages)
}

func (j *DataJob) fineGrained(op string, l aspects.FineGrainedLineage) {
	j.fineGrainedOn(dataJobInputOutput, op, l)
}

// fineGrainedOn adds or removes the column-level edges of l (exactly one
// downstream) in aspect's fineGrainedLineages, one operation per
// upstream, as DataHub's Python HasFineGrainedLineagePatch does.
func (b *Builder) fineGrainedOn(aspect, op string, l aspects.FineGrainedLineage) {
	if len(l.Downstreams) != 1 {
		b.fail(fmt.Errorf("patch: fine-grained lineage with %d downstreams, want exactly one: %w", len(l.Downstreams), datahub.ErrValidation))
		return
	}
	transform, query := "", ""
	if l.TransformOperation != nil {
		transform = *l.TransformOperation
	}
	if l.Query != nil {
		query = *l.Query
	}
	score := float32(1)
	if l.ConfidenceScore != nil {
		score = *l.ConfidenceScore
	}
	for _, up := range l.Upstreams {
		path := fineGrainedPath(transform, l.Downstreams[0], query, up)
		if op == OpAdd {
			b.Add(aspect, path, map[string]float32{"confidenceScore": score})
		} else {
			b.Remove(aspect, path)
		}
	}
}

// DataFlow builds the patches of a data flow (a pipeline), as DataHub's
// Java DataFlowInfoPatchBuilder does: dataFlowInfo fields. The embedded
// Builder gives tags, terms, owners, domains, structured properties, links
// and custom properties (on dataFlowInfo).
type DataFlow struct {
	*Builder
}

// NewDataFlow returns a patch builder for data flow u.
func NewDataFlow(u urn.DataFlow) *DataFlow { return &DataFlow{New(u)} }

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
