package entity

import (
	"fmt"
	"slices"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/fieldpath"
	"github.com/catalogkit/datahub-go/urn"
)

// The helpers of single types, as DataHub's Python SDK v2 has them on its
// Dataset, Chart, Dashboard, DataJob, MLModel, MLModelGroup, GlossaryTerm
// and Document classes.

// column returns the field path, as the dataset's schema has it, of the
// column path names: its field path (simple or v2) or its simple path
// (fieldpath.Simplify) when one column has it.
func (d *Dataset) column(path string) (string, error) {
	if d.Schema == nil {
		return "", fmt.Errorf("entity: column %q of %s: the dataset holds no schema (schemaMetadata): read or set it first", path, d.URN)
	}
	var simple []string
	for _, f := range d.Schema.Fields {
		if f.FieldPath == path {
			return path, nil
		}
		if fieldpath.Simplify(f.FieldPath) == path {
			simple = append(simple, f.FieldPath)
		}
	}
	switch len(simple) {
	case 0:
		return "", fmt.Errorf("entity: %s has no column %q", d.URN, path)
	case 1:
		return simple[0], nil
	}
	return "", fmt.Errorf("entity: column %q of %s is ambiguous: it is the simple path of %q", path, d.URN, simple)
}

// editableColumn returns the editableSchemaMetadata entry of column path,
// creating the aspect and the entry when missing.
func (d *Dataset) editableColumn(path string) (*aspects.EditableSchemaFieldInfo, error) {
	fp, err := d.column(path)
	if err != nil {
		return nil, err
	}
	es := ensure(&d.EditableSchema)
	for i := range es.EditableSchemaFieldInfo {
		if es.EditableSchemaFieldInfo[i].FieldPath == fp {
			return &es.EditableSchemaFieldInfo[i], nil
		}
	}
	es.EditableSchemaFieldInfo = append(es.EditableSchemaFieldInfo, aspects.EditableSchemaFieldInfo{FieldPath: fp})
	return &es.EditableSchemaFieldInfo[len(es.EditableSchemaFieldInfo)-1], nil
}

// SetColumnDescription sets the description of column path (its simple or
// v2 field path) as edited in DataHub (editableSchemaMetadata), as DataHub's
// Python SDK does outside ingestion. It fails when the dataset holds no
// schema or no such column.
func (d *Dataset) SetColumnDescription(path, description string) error {
	f, err := d.editableColumn(path)
	if err != nil {
		return err
	}
	f.Description = aspects.Ptr(description)
	return nil
}

// SetColumnTags sets the tags of column path (editableSchemaMetadata),
// replacing those edited in DataHub; see SetColumnDescription.
func (d *Dataset) SetColumnTags(path string, tags ...urn.Tag) error {
	f, err := d.editableColumn(path)
	if err == nil {
		setTags(&f.GlobalTags, tags)
	}
	return err
}

// AddColumnTag adds tag to column path (editableSchemaMetadata); see
// SetColumnDescription.
func (d *Dataset) AddColumnTag(path string, tag urn.Tag) error {
	f, err := d.editableColumn(path)
	if err == nil {
		addTag(&f.GlobalTags, tag)
	}
	return err
}

// RemoveColumnTag removes tag from column path (editableSchemaMetadata);
// see SetColumnDescription.
func (d *Dataset) RemoveColumnTag(path string, tag urn.Tag) error {
	f, err := d.editableColumn(path)
	if err == nil {
		removeTag(&f.GlobalTags, tag)
	}
	return err
}

// SetColumnTerms sets the glossary terms of column path
// (editableSchemaMetadata), replacing those edited in DataHub; see
// SetColumnDescription.
func (d *Dataset) SetColumnTerms(path string, terms ...urn.GlossaryTerm) error {
	f, err := d.editableColumn(path)
	if err == nil {
		setTerms(&f.GlossaryTerms, terms)
	}
	return err
}

// AddColumnTerm adds term to column path (editableSchemaMetadata); see
// SetColumnDescription.
func (d *Dataset) AddColumnTerm(path string, term urn.GlossaryTerm) error {
	f, err := d.editableColumn(path)
	if err == nil {
		addTerm(&f.GlossaryTerms, term)
	}
	return err
}

// RemoveColumnTerm removes term from column path (editableSchemaMetadata);
// see SetColumnDescription.
func (d *Dataset) RemoveColumnTerm(path string, term urn.GlossaryTerm) error {
	f, err := d.editableColumn(path)
	if err == nil {
		removeTerm(&f.GlossaryTerms, term)
	}
	return err
}

// edgeKey is an edge's destination.
func edgeKey(e aspects.Edge) string { return e.DestinationURN }

// edges returns us as edges.
func edges[U urn.URN](us []U) []aspects.Edge {
	out := make([]aspects.Edge, 0, len(us))
	for _, u := range us {
		out = addUnique(out, edgeKey, aspects.Edge{DestinationURN: u.String()})
	}
	return out
}

// addEdge adds an edge to u unless there is one.
func addEdge(es []aspects.Edge, u urn.URN) []aspects.Edge {
	if slices.ContainsFunc(es, func(e aspects.Edge) bool { return e.DestinationURN == u.String() }) {
		return es
	}
	return append(es, aspects.Edge{DestinationURN: u.String()})
}

// removeEdge removes the edges to u.
func removeEdge(es []aspects.Edge, u urn.URN) []aspects.Edge {
	return removeUnique(es, edgeKey, u.String())
}

// SetInputDatasets sets the datasets the chart reads (chartInfo's
// inputEdges), replacing those it had. DataHub's Python SDK writes the
// deprecated inputs list; both are the chart's Consumes relationships.
func (c *Chart) SetInputDatasets(datasets ...urn.Dataset) {
	ensure(&c.Info).InputEdges = edges(datasets)
}

// AddInputDataset adds dataset to the datasets the chart reads (chartInfo's
// inputEdges) unless it is there.
func (c *Chart) AddInputDataset(dataset urn.Dataset) {
	i := ensure(&c.Info)
	i.InputEdges = addEdge(i.InputEdges, dataset)
}

// RemoveInputDataset removes dataset from the datasets the chart reads
// (chartInfo's inputEdges).
func (c *Chart) RemoveInputDataset(dataset urn.Dataset) {
	i := ensure(&c.Info)
	i.InputEdges = removeEdge(i.InputEdges, dataset)
}

// SetInputDatasets sets the datasets the dashboard reads (dashboardInfo's
// datasetEdges), replacing those it had.
func (d *Dashboard) SetInputDatasets(datasets ...urn.Dataset) {
	ensure(&d.Info).DatasetEdges = edges(datasets)
}

// AddInputDataset adds dataset to the datasets the dashboard reads
// (dashboardInfo's datasetEdges) unless it is there.
func (d *Dashboard) AddInputDataset(dataset urn.Dataset) {
	i := ensure(&d.Info)
	i.DatasetEdges = addEdge(i.DatasetEdges, dataset)
}

// RemoveInputDataset removes dataset from the datasets the dashboard reads
// (dashboardInfo's datasetEdges).
func (d *Dashboard) RemoveInputDataset(dataset urn.Dataset) {
	i := ensure(&d.Info)
	i.DatasetEdges = removeEdge(i.DatasetEdges, dataset)
}

// SetCharts sets the dashboard's charts (dashboardInfo's chartEdges),
// replacing those it had.
func (d *Dashboard) SetCharts(charts ...urn.Chart) {
	ensure(&d.Info).ChartEdges = edges(charts)
}

// AddChart adds chart to the dashboard's charts (dashboardInfo's
// chartEdges) unless it is there.
func (d *Dashboard) AddChart(chart urn.Chart) {
	i := ensure(&d.Info)
	i.ChartEdges = addEdge(i.ChartEdges, chart)
}

// RemoveChart removes chart from the dashboard's charts (dashboardInfo's
// chartEdges).
func (d *Dashboard) RemoveChart(chart urn.Chart) {
	i := ensure(&d.Info)
	i.ChartEdges = removeEdge(i.ChartEdges, chart)
}

// SetDashboards sets the dashboards the dashboard includes (dashboardInfo's
// dashboards), replacing those it had.
func (d *Dashboard) SetDashboards(dashboards ...urn.Dashboard) {
	ensure(&d.Info).Dashboards = edges(dashboards)
}

// AddDashboard adds dashboard to the dashboards the dashboard includes
// (dashboardInfo's dashboards) unless it is there.
func (d *Dashboard) AddDashboard(dashboard urn.Dashboard) {
	i := ensure(&d.Info)
	i.Dashboards = addEdge(i.Dashboards, dashboard)
}

// RemoveDashboard removes dashboard from the dashboards the dashboard
// includes (dashboardInfo's dashboards).
func (d *Dashboard) RemoveDashboard(dashboard urn.Dashboard) {
	i := ensure(&d.Info)
	i.Dashboards = removeEdge(i.Dashboards, dashboard)
}

// SetInlets sets the datasets the job reads (dataJobInputOutput's
// inputDatasetEdges), replacing those it had. DataHub's Python SDK writes
// the deprecated inputDatasets list; both are the job's Consumes
// relationships.
func (j *DataJob) SetInlets(datasets ...urn.Dataset) {
	ensure(&j.InputOutput).InputDatasetEdges = edges(datasets)
}

// SetOutlets sets the datasets the job writes (dataJobInputOutput's
// outputDatasetEdges), replacing those it had; see SetInlets.
func (j *DataJob) SetOutlets(datasets ...urn.Dataset) {
	ensure(&j.InputOutput).OutputDatasetEdges = edges(datasets)
}

// strs returns the URNs us as text, each once.
func strs[U urn.URN](us []U) []string {
	out := make([]string, 0, len(us))
	for _, u := range us {
		if !slices.Contains(out, u.String()) {
			out = append(out, u.String())
		}
	}
	return out
}

// SetFineGrainedLineages sets the job's column-level lineage
// (dataJobInputOutput's fineGrainedLineages), replacing what it had.
func (j *DataJob) SetFineGrainedLineages(lineages ...aspects.FineGrainedLineage) {
	ensure(&j.InputOutput).FineGrainedLineages = slices.Clone(lineages)
}

// SetTrainingMetrics sets the model's training metrics (mlModelProperties),
// replacing those it had; values are written as NewMLModel writes them.
func (m *MLModel) SetTrainingMetrics(metrics map[string]any) {
	ensure(&m.Properties).TrainingMetrics = Metrics(metrics)
}

// AddTrainingMetrics appends metrics to the model's training metrics
// (mlModelProperties), sorted by name, as DataHub's Python SDK appends
// them.
func (m *MLModel) AddTrainingMetrics(metrics map[string]any) {
	p := ensure(&m.Properties)
	p.TrainingMetrics = append(p.TrainingMetrics, Metrics(metrics)...)
}

// SetHyperParams sets the model's hyper-parameters (mlModelProperties),
// replacing those it had; values are written as NewMLModel writes them.
func (m *MLModel) SetHyperParams(params map[string]any) {
	ensure(&m.Properties).HyperParams = HyperParams(params)
}

// AddHyperParams appends params to the model's hyper-parameters
// (mlModelProperties), sorted by name, as DataHub's Python SDK appends
// them.
func (m *MLModel) AddHyperParams(params map[string]any) {
	p := ensure(&m.Properties)
	p.HyperParams = append(p.HyperParams, HyperParams(params)...)
}

// SetModelGroup sets the model's group (mlModelProperties' groups) to group.
func (m *MLModel) SetModelGroup(group urn.MLModelGroup) {
	ensure(&m.Properties).Groups = []string{group.String()}
}

// checkJob refuses a URN that is neither a data job nor a data process
// instance (what a model's training and downstream jobs may be).
func checkJob(what string, job urn.URN) error {
	if job == nil || job.String() == "" {
		return fmt.Errorf("entity: %s: no job URN", what)
	}
	if t := job.EntityType(); t != urn.TypeDataJob && t != urn.TypeDataProcessInstance {
		return fmt.Errorf("entity: %s: %s is a %s, not a dataJob or dataProcessInstance", what, job, t)
	}
	return nil
}

// jobList returns jobs as text after checking each.
func jobList(what string, jobs []urn.URN) ([]string, error) {
	out := make([]string, 0, len(jobs))
	for _, j := range jobs {
		if err := checkJob(what, j); err != nil {
			return nil, err
		}
		out = append(out, j.String())
	}
	return out, nil
}

// setJobs, addJob and removeJob are the rules of a model's and a group's
// training and downstream jobs.
func setJobs(list *[]string, what string, jobs []urn.URN) error {
	js, err := jobList(what, jobs)
	if err == nil {
		*list = js
	}
	return err
}

func addJob(list *[]string, what string, job urn.URN) error {
	if err := checkJob(what, job); err != nil {
		return err
	}
	if !slices.Contains(*list, job.String()) {
		*list = append(*list, job.String())
	}
	return nil
}

func removeJob(list *[]string, job urn.URN) {
	if job != nil {
		*list = slices.DeleteFunc(*list, func(s string) bool { return s == job.String() })
	}
}

// SetTrainingJobs sets the jobs (data jobs or data process instances) that
// trained the model (mlModelProperties' trainingJobs), replacing those it
// had. It fails for a URN of another type.
func (m *MLModel) SetTrainingJobs(jobs ...urn.URN) error {
	return setJobs(&ensure(&m.Properties).TrainingJobs, "set training jobs", jobs)
}

// AddTrainingJob adds job (a data job or data process instance) to the
// jobs that trained the model (mlModelProperties' trainingJobs) unless it
// is there.
func (m *MLModel) AddTrainingJob(job urn.URN) error {
	return addJob(&ensure(&m.Properties).TrainingJobs, "add training job", job)
}

// RemoveTrainingJob removes job from the jobs that trained the model.
func (m *MLModel) RemoveTrainingJob(job urn.URN) {
	removeJob(&ensure(&m.Properties).TrainingJobs, job)
}

// SetDownstreamJobs sets the jobs that use the model (mlModelProperties'
// downstreamJobs), replacing those it had; see SetTrainingJobs.
func (m *MLModel) SetDownstreamJobs(jobs ...urn.URN) error {
	return setJobs(&ensure(&m.Properties).DownstreamJobs, "set downstream jobs", jobs)
}

// AddDownstreamJob adds job to the jobs that use the model unless it is
// there; see AddTrainingJob.
func (m *MLModel) AddDownstreamJob(job urn.URN) error {
	return addJob(&ensure(&m.Properties).DownstreamJobs, "add downstream job", job)
}

// RemoveDownstreamJob removes job from the jobs that use the model.
func (m *MLModel) RemoveDownstreamJob(job urn.URN) {
	removeJob(&ensure(&m.Properties).DownstreamJobs, job)
}

// SetDeployments sets the model's deployments (mlModelProperties'
// deployments), replacing those it had.
func (m *MLModel) SetDeployments(deployments ...urn.MLModelDeployment) {
	ensure(&m.Properties).Deployments = strs(deployments)
}

// AddDeployment adds deployment to the model's deployments unless it is
// there.
func (m *MLModel) AddDeployment(deployment urn.MLModelDeployment) {
	p := ensure(&m.Properties)
	if !slices.Contains(p.Deployments, deployment.String()) {
		p.Deployments = append(p.Deployments, deployment.String())
	}
}

// RemoveDeployment removes deployment from the model's deployments.
func (m *MLModel) RemoveDeployment(deployment urn.MLModelDeployment) {
	p := ensure(&m.Properties)
	p.Deployments = slices.DeleteFunc(p.Deployments, func(s string) bool { return s == deployment.String() })
}

// SetTrainingJobs sets the jobs that trained the group's models
// (mlModelGroupProperties' trainingJobs); see MLModel.SetTrainingJobs.
func (g *MLModelGroup) SetTrainingJobs(jobs ...urn.URN) error {
	return setJobs(&ensure(&g.Properties).TrainingJobs, "set training jobs", jobs)
}

// AddTrainingJob adds job to the jobs that trained the group's models; see
// MLModel.AddTrainingJob.
func (g *MLModelGroup) AddTrainingJob(job urn.URN) error {
	return addJob(&ensure(&g.Properties).TrainingJobs, "add training job", job)
}

// RemoveTrainingJob removes job from the jobs that trained the group's
// models.
func (g *MLModelGroup) RemoveTrainingJob(job urn.URN) {
	removeJob(&ensure(&g.Properties).TrainingJobs, job)
}

// SetDownstreamJobs sets the jobs that use the group's models; see
// MLModel.SetTrainingJobs.
func (g *MLModelGroup) SetDownstreamJobs(jobs ...urn.URN) error {
	return setJobs(&ensure(&g.Properties).DownstreamJobs, "set downstream jobs", jobs)
}

// AddDownstreamJob adds job to the jobs that use the group's models; see
// MLModel.AddTrainingJob.
func (g *MLModelGroup) AddDownstreamJob(job urn.URN) error {
	return addJob(&ensure(&g.Properties).DownstreamJobs, "add downstream job", job)
}

// RemoveDownstreamJob removes job from the jobs that use the group's
// models.
func (g *MLModelGroup) RemoveDownstreamJob(job urn.URN) {
	removeJob(&ensure(&g.Properties).DownstreamJobs, job)
}

// The relations of a glossary term (glossaryRelatedTerms): IsA (the terms
// it specialises), HasA (the terms it contains), Values (the values it
// takes) and RelatedTerms. Set replaces, Add adds a term unless it is
// there, Remove removes it.

// SetIsA sets the terms the term is a kind of (isRelatedTerms).
func (g *GlossaryTerm) SetIsA(terms ...urn.GlossaryTerm) {
	ensure(&g.RelatedTerms).IsRelatedTerms = strs(terms)
}

// AddIsA adds term to the terms the term is a kind of (isRelatedTerms).
func (g *GlossaryTerm) AddIsA(term urn.GlossaryTerm) {
	addStr(&ensure(&g.RelatedTerms).IsRelatedTerms, term)
}

// RemoveIsA removes term from the terms the term is a kind of.
func (g *GlossaryTerm) RemoveIsA(term urn.GlossaryTerm) {
	removeStr(&ensure(&g.RelatedTerms).IsRelatedTerms, term)
}

// SetHasA sets the terms the term contains (hasRelatedTerms).
func (g *GlossaryTerm) SetHasA(terms ...urn.GlossaryTerm) {
	ensure(&g.RelatedTerms).HasRelatedTerms = strs(terms)
}

// AddHasA adds term to the terms the term contains (hasRelatedTerms).
func (g *GlossaryTerm) AddHasA(term urn.GlossaryTerm) {
	addStr(&ensure(&g.RelatedTerms).HasRelatedTerms, term)
}

// RemoveHasA removes term from the terms the term contains.
func (g *GlossaryTerm) RemoveHasA(term urn.GlossaryTerm) {
	removeStr(&ensure(&g.RelatedTerms).HasRelatedTerms, term)
}

// SetValues sets the terms that are the term's values (values).
func (g *GlossaryTerm) SetValues(terms ...urn.GlossaryTerm) {
	ensure(&g.RelatedTerms).Values = strs(terms)
}

// AddValue adds term to the term's values (values).
func (g *GlossaryTerm) AddValue(term urn.GlossaryTerm) { addStr(&ensure(&g.RelatedTerms).Values, term) }

// RemoveValue removes term from the term's values.
func (g *GlossaryTerm) RemoveValue(term urn.GlossaryTerm) {
	removeStr(&ensure(&g.RelatedTerms).Values, term)
}

// SetRelatedTermList sets the terms related to the term (relatedTerms).
// (The field RelatedTerms holds the whole glossaryRelatedTerms aspect.)
func (g *GlossaryTerm) SetRelatedTermList(terms ...urn.GlossaryTerm) {
	ensure(&g.RelatedTerms).RelatedTerms = strs(terms)
}

// AddRelatedTerm adds term to the terms related to the term (relatedTerms).
func (g *GlossaryTerm) AddRelatedTerm(term urn.GlossaryTerm) {
	addStr(&ensure(&g.RelatedTerms).RelatedTerms, term)
}

// RemoveRelatedTerm removes term from the terms related to the term.
func (g *GlossaryTerm) RemoveRelatedTerm(term urn.GlossaryTerm) {
	removeStr(&ensure(&g.RelatedTerms).RelatedTerms, term)
}

func addStr(list *[]string, u urn.URN) {
	if !slices.Contains(*list, u.String()) {
		*list = append(*list, u.String())
	}
}

func removeStr(list *[]string, u urn.URN) {
	*list = slices.DeleteFunc(*list, func(s string) bool { return s == u.String() })
}

// info returns the document's documentInfo, creating an unpublished one
// created at time 0 by the ingestion actor when it has none.
func (d *Document) info() *aspects.DocumentInfo {
	if d.Info == nil {
		stamp := aspects.AuditStamp{Actor: IngestionActor}
		d.Info = &aspects.DocumentInfo{Status: aspects.DocumentStatus{State: aspects.DocumentStateUnpublished}, Created: stamp, LastModified: stamp}
	}
	return d.Info
}

// SetTitle sets the document's title (documentInfo).
func (d *Document) SetTitle(title string) { d.info().Title = aspects.Ptr(title) }

// SetText sets the document's text contents (documentInfo).
func (d *Document) SetText(text string) { d.info().Contents.Text = text }

// Publish marks the document published (documentInfo's status).
func (d *Document) Publish() { d.info().Status.State = aspects.DocumentStatePublished }

// Unpublish marks the document unpublished (documentInfo's status).
func (d *Document) Unpublish() { d.info().Status.State = aspects.DocumentStateUnpublished }

// SetParentDocument sets the document's parent (documentInfo); a zero
// parent removes it. It fails when parent is the document itself.
func (d *Document) SetParentDocument(parent urn.Document) error {
	if parent.String() == "" {
		d.info().ParentDocument = nil
		return nil
	}
	if parent.String() == d.URN.String() {
		return fmt.Errorf("entity: document %s cannot be its own parent", d.URN)
	}
	d.info().ParentDocument = &aspects.ParentDocument{Document: parent.String()}
	return nil
}

// SetRelatedAssets sets the assets related to the document (documentInfo's
// relatedAssets), replacing those it had.
func (d *Document) SetRelatedAssets(assets ...urn.URN) {
	i := d.info()
	i.RelatedAssets = nil
	for _, a := range assets {
		d.AddRelatedAsset(a)
	}
	if i.RelatedAssets == nil {
		i.RelatedAssets = []aspects.RelatedAsset{}
	}
}

// AddRelatedAsset adds asset to the assets related to the document unless
// it is there.
func (d *Document) AddRelatedAsset(asset urn.URN) {
	i := d.info()
	if !slices.ContainsFunc(i.RelatedAssets, func(r aspects.RelatedAsset) bool { return r.Asset == asset.String() }) {
		i.RelatedAssets = append(i.RelatedAssets, aspects.RelatedAsset{Asset: asset.String()})
	}
}

// RemoveRelatedAsset removes asset from the assets related to the document.
func (d *Document) RemoveRelatedAsset(asset urn.URN) {
	i := d.info()
	i.RelatedAssets = slices.DeleteFunc(i.RelatedAssets, func(r aspects.RelatedAsset) bool { return r.Asset == asset.String() })
}

// SetRelatedDocuments sets the documents related to the document
// (documentInfo's relatedDocuments), replacing those it had.
func (d *Document) SetRelatedDocuments(docs ...urn.Document) {
	i := d.info()
	i.RelatedDocuments = []aspects.RelatedDocument{}
	for _, x := range docs {
		d.AddRelatedDocument(x)
	}
}

// AddRelatedDocument adds doc to the documents related to the document
// unless it is there.
func (d *Document) AddRelatedDocument(doc urn.Document) {
	i := d.info()
	if !slices.ContainsFunc(i.RelatedDocuments, func(r aspects.RelatedDocument) bool { return r.Document == doc.String() }) {
		i.RelatedDocuments = append(i.RelatedDocuments, aspects.RelatedDocument{Document: doc.String()})
	}
}

// RemoveRelatedDocument removes doc from the documents related to the
// document.
func (d *Document) RemoveRelatedDocument(doc urn.Document) {
	i := d.info()
	i.RelatedDocuments = slices.DeleteFunc(i.RelatedDocuments, func(r aspects.RelatedDocument) bool { return r.Document == doc.String() })
}
