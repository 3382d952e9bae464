package entity

import (
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/entitystate"
	"github.com/catalogkit/datahub-go/urn"
)

// Container is a container: a database, schema, folder, project or ML experiment that holds other entities, with its aspects.
type Container struct {
	Meta
	// URN is the container URN.
	URN urn.Container
	// Properties is containerProperties: name, description, custom properties.
	Properties *aspects.ContainerProperties
	// EditableProperties is editableContainerProperties: its description as edited in DataHub.
	EditableProperties *aspects.EditableContainerProperties
	// SubTypes is subTypes: what kind of it this is, such as "MLflow Experiment".
	SubTypes *aspects.SubTypes
	// Container is container: the container (such as a database or an experiment) it is in.
	Container *aspects.Container
	// DataPlatformInstance is dataPlatformInstance: its platform and platform instance.
	DataPlatformInstance *aspects.DataPlatformInstance
	// BrowsePathsV2 is browsePathsV2: where DataHub's UI shows it when browsing.
	BrowsePathsV2 *aspects.BrowsePathsV2
	// Ownership is ownership: its owners.
	Ownership *aspects.Ownership
	// GlobalTags is globalTags: its tags.
	GlobalTags *aspects.GlobalTags
	// GlossaryTerms is glossaryTerms: its glossary terms.
	GlossaryTerms *aspects.GlossaryTerms
	// Domains is domains: the domains it belongs to.
	Domains *aspects.Domains
	// InstitutionalMemory is institutionalMemory: its links.
	InstitutionalMemory *aspects.InstitutionalMemory
	// Deprecation is deprecation: whether it is deprecated, and why.
	Deprecation *aspects.Deprecation
	// Status is status: whether it is soft-deleted.
	Status *aspects.Status
}

// EntityURN returns c.URN.
func (c *Container) EntityURN() urn.URN { return c.URN }

// KeyAspect returns the containerKey of c.URN.
func (c *Container) KeyAspect() aspects.Aspect {
	return aspects.ContainerKey{Guid: aspects.Ptr(c.URN.Guid())}
}

func (c *Container) access() entitystate.Access {
	return access(&c.Meta, field(&c.Properties), field(&c.EditableProperties), field(&c.SubTypes), field(&c.Container), field(&c.DataPlatformInstance), field(&c.BrowsePathsV2), field(&c.Ownership), field(&c.GlobalTags), field(&c.GlossaryTerms), field(&c.Domains), field(&c.InstitutionalMemory), field(&c.Deprecation), field(&c.Status))
}

// DataProcessInstance is one run of a process, such as an ML training run or a job's execution, with its aspects.
type DataProcessInstance struct {
	Meta
	// URN is the dataProcessInstance URN.
	URN urn.DataProcessInstance
	// Properties is dataProcessInstanceProperties: name, type, creation stamp, custom properties.
	Properties *aspects.DataProcessInstanceProperties
	// TrainingRun is mlTrainingRunProperties: an ML training run's id, hyper-parameters, metrics and output URLs.
	TrainingRun *aspects.MLTrainingRunProperties
	// Input is dataProcessInstanceInput: what the run read (datasets, models).
	Input *aspects.DataProcessInstanceInput
	// Output is dataProcessInstanceOutput: what the run produced (datasets, models).
	Output *aspects.DataProcessInstanceOutput
	// Relationships is dataProcessInstanceRelationships: the job or flow it is a run of, and upstream runs.
	Relationships *aspects.DataProcessInstanceRelationships
	// SubTypes is subTypes: what kind of run this is, such as "ML Training Run".
	SubTypes *aspects.SubTypes
	// Container is container: the container (such as an ML experiment) it is in.
	Container *aspects.Container
	// DataPlatformInstance is dataPlatformInstance: its platform and platform instance.
	DataPlatformInstance *aspects.DataPlatformInstance
	// Status is status: whether it is soft-deleted.
	Status *aspects.Status
	// RunEvents are dataProcessInstanceRunEvent values (a timeseries
	// aspect: the run started, completed with a result): Create and Upsert
	// append them, Get does not read them (read them with
	// client.GetTimeseries) and Update leaves them alone.
	RunEvents []aspects.DataProcessInstanceRunEvent
}

// EntityURN returns r.URN.
func (r *DataProcessInstance) EntityURN() urn.URN { return r.URN }

// KeyAspect returns the dataProcessInstanceKey of r.URN.
func (r *DataProcessInstance) KeyAspect() aspects.Aspect {
	return aspects.DataProcessInstanceKey{ID: r.URN.ID()}
}

func (r *DataProcessInstance) access() entitystate.Access {
	acc := access(&r.Meta, field(&r.Properties), field(&r.TrainingRun), field(&r.Input), field(&r.Output), field(&r.Relationships), field(&r.SubTypes), field(&r.Container), field(&r.DataPlatformInstance), field(&r.Status))
	acc.Timeseries = func() []aspects.Aspect {
		out := make([]aspects.Aspect, len(r.RunEvents))
		for i, e := range r.RunEvents {
			out[i] = e
		}
		return out
	}
	return acc
}

// DataJob is a job (a task) of a data flow, with its aspects.
type DataJob struct {
	Meta
	// URN is the dataJob URN.
	URN urn.DataJob
	// Info is dataJobInfo: name, type, description, custom properties.
	Info *aspects.DataJobInfo
	// InputOutput is dataJobInputOutput: the datasets and jobs it reads and writes.
	InputOutput *aspects.DataJobInputOutput
	// EditableProperties is editableDataJobProperties: its description as edited in DataHub.
	EditableProperties *aspects.EditableDataJobProperties
	// SubTypes is subTypes: what kind of it this is, such as "MLflow Experiment".
	SubTypes *aspects.SubTypes
	// Container is container: the container (such as a database or an experiment) it is in.
	Container *aspects.Container
	// DataPlatformInstance is dataPlatformInstance: its platform and platform instance.
	DataPlatformInstance *aspects.DataPlatformInstance
	// BrowsePathsV2 is browsePathsV2: where DataHub's UI shows it when browsing.
	BrowsePathsV2 *aspects.BrowsePathsV2
	// Ownership is ownership: its owners.
	Ownership *aspects.Ownership
	// GlobalTags is globalTags: its tags.
	GlobalTags *aspects.GlobalTags
	// GlossaryTerms is glossaryTerms: its glossary terms.
	GlossaryTerms *aspects.GlossaryTerms
	// Domains is domains: the domains it belongs to.
	Domains *aspects.Domains
	// InstitutionalMemory is institutionalMemory: its links.
	InstitutionalMemory *aspects.InstitutionalMemory
	// Deprecation is deprecation: whether it is deprecated, and why.
	Deprecation *aspects.Deprecation
	// Status is status: whether it is soft-deleted.
	Status *aspects.Status
}

// EntityURN returns j.URN.
func (j *DataJob) EntityURN() urn.URN { return j.URN }

// KeyAspect returns the dataJobKey of j.URN.
func (j *DataJob) KeyAspect() aspects.Aspect {
	return aspects.DataJobKey{Flow: flowOf(j.URN), JobID: j.URN.JobID()}
}

func (j *DataJob) access() entitystate.Access {
	return access(&j.Meta, field(&j.Info), field(&j.InputOutput), field(&j.EditableProperties), field(&j.SubTypes), field(&j.Container), field(&j.DataPlatformInstance), field(&j.BrowsePathsV2), field(&j.Ownership), field(&j.GlobalTags), field(&j.GlossaryTerms), field(&j.Domains), field(&j.InstitutionalMemory), field(&j.Deprecation), field(&j.Status))
}

// DataFlow is a data flow (a pipeline, such as an Airflow DAG) of jobs, with its aspects.
type DataFlow struct {
	Meta
	// URN is the dataFlow URN.
	URN urn.DataFlow
	// Info is dataFlowInfo: name, description, project, custom properties.
	Info *aspects.DataFlowInfo
	// EditableProperties is editableDataFlowProperties: its description as edited in DataHub.
	EditableProperties *aspects.EditableDataFlowProperties
	// SubTypes is subTypes: what kind of it this is, such as "MLflow Experiment".
	SubTypes *aspects.SubTypes
	// Container is container: the container (such as a database or an experiment) it is in.
	Container *aspects.Container
	// DataPlatformInstance is dataPlatformInstance: its platform and platform instance.
	DataPlatformInstance *aspects.DataPlatformInstance
	// BrowsePathsV2 is browsePathsV2: where DataHub's UI shows it when browsing.
	BrowsePathsV2 *aspects.BrowsePathsV2
	// Ownership is ownership: its owners.
	Ownership *aspects.Ownership
	// GlobalTags is globalTags: its tags.
	GlobalTags *aspects.GlobalTags
	// GlossaryTerms is glossaryTerms: its glossary terms.
	GlossaryTerms *aspects.GlossaryTerms
	// Domains is domains: the domains it belongs to.
	Domains *aspects.Domains
	// InstitutionalMemory is institutionalMemory: its links.
	InstitutionalMemory *aspects.InstitutionalMemory
	// Deprecation is deprecation: whether it is deprecated, and why.
	Deprecation *aspects.Deprecation
	// Status is status: whether it is soft-deleted.
	Status *aspects.Status
}

// EntityURN returns f.URN.
func (f *DataFlow) EntityURN() urn.URN { return f.URN }

// KeyAspect returns the dataFlowKey of f.URN.
func (f *DataFlow) KeyAspect() aspects.Aspect {
	return aspects.DataFlowKey{Orchestrator: f.URN.Orchestrator(), FlowID: f.URN.FlowID(), Cluster: f.URN.Cluster()}
}

func (f *DataFlow) access() entitystate.Access {
	return access(&f.Meta, field(&f.Info), field(&f.EditableProperties), field(&f.SubTypes), field(&f.Container), field(&f.DataPlatformInstance), field(&f.BrowsePathsV2), field(&f.Ownership), field(&f.GlobalTags), field(&f.GlossaryTerms), field(&f.Domains), field(&f.InstitutionalMemory), field(&f.Deprecation), field(&f.Status))
}

// Tag is a tag, with its aspects.
type Tag struct {
	Meta
	// URN is the tag URN.
	URN urn.Tag
	// Properties is tagProperties: name, description, colour.
	Properties *aspects.TagProperties
	// Ownership is ownership: its owners.
	Ownership *aspects.Ownership
	// Deprecation is deprecation: whether it is deprecated, and why.
	Deprecation *aspects.Deprecation
	// Status is status: whether it is soft-deleted.
	Status *aspects.Status
}

// EntityURN returns t.URN.
func (t *Tag) EntityURN() urn.URN { return t.URN }

// KeyAspect returns the tagKey of t.URN.
func (t *Tag) KeyAspect() aspects.Aspect {
	return aspects.TagKey{Name: t.URN.Name()}
}

func (t *Tag) access() entitystate.Access {
	return access(&t.Meta, field(&t.Properties), field(&t.Ownership), field(&t.Deprecation), field(&t.Status))
}

// GlossaryTerm is a glossary term, with its aspects.
type GlossaryTerm struct {
	Meta
	// URN is the glossaryTerm URN.
	URN urn.GlossaryTerm
	// Info is glossaryTermInfo: name, definition, parent node, source.
	Info *aspects.GlossaryTermInfo
	// RelatedTerms is glossaryRelatedTerms: the terms it contains, inherits, values or relates to.
	RelatedTerms *aspects.GlossaryRelatedTerms
	// Ownership is ownership: its owners.
	Ownership *aspects.Ownership
	// Domains is domains: the domains it belongs to.
	Domains *aspects.Domains
	// InstitutionalMemory is institutionalMemory: its links.
	InstitutionalMemory *aspects.InstitutionalMemory
	// Deprecation is deprecation: whether it is deprecated, and why.
	Deprecation *aspects.Deprecation
	// Status is status: whether it is soft-deleted.
	Status *aspects.Status
}

// EntityURN returns g.URN.
func (g *GlossaryTerm) EntityURN() urn.URN { return g.URN }

// KeyAspect returns the glossaryTermKey of g.URN.
func (g *GlossaryTerm) KeyAspect() aspects.Aspect {
	return aspects.GlossaryTermKey{Name: g.URN.Name()}
}

func (g *GlossaryTerm) access() entitystate.Access {
	return access(&g.Meta, field(&g.Info), field(&g.RelatedTerms), field(&g.Ownership), field(&g.Domains), field(&g.InstitutionalMemory), field(&g.Deprecation), field(&g.Status))
}

// Domain is a domain: a business area that entities belong to, with its aspects.
type Domain struct {
	Meta
	// URN is the domain URN.
	URN urn.Domain
	// Properties is domainProperties: name, description, parent domain.
	Properties *aspects.DomainProperties
	// Ownership is ownership: its owners.
	Ownership *aspects.Ownership
	// InstitutionalMemory is institutionalMemory: its links.
	InstitutionalMemory *aspects.InstitutionalMemory
	// Deprecation is deprecation: whether it is deprecated, and why.
	Deprecation *aspects.Deprecation
}

// EntityURN returns d.URN.
func (d *Domain) EntityURN() urn.URN { return d.URN }

// KeyAspect returns the domainKey of d.URN.
func (d *Domain) KeyAspect() aspects.Aspect {
	return aspects.DomainKey{ID: d.URN.ID()}
}

func (d *Domain) access() entitystate.Access {
	return access(&d.Meta, field(&d.Properties), field(&d.Ownership), field(&d.InstitutionalMemory), field(&d.Deprecation))
}

// CorpUser is a user, with its aspects.
type CorpUser struct {
	Meta
	// URN is the corpuser URN.
	URN urn.CorpUser
	// Info is corpUserInfo: name, e-mail, title, manager, as a directory has them.
	Info *aspects.CorpUserInfo
	// EditableInfo is corpUserEditableInfo: what the user edited in DataHub (about me, teams, skills, picture).
	EditableInfo *aspects.CorpUserEditableInfo
	// UserStatus is corpUserStatus: whether the user is active.
	UserStatus *aspects.CorpUserStatus
	// GroupMembership is groupMembership: the groups the user is in.
	GroupMembership *aspects.GroupMembership
	// GlobalTags is globalTags: its tags.
	GlobalTags *aspects.GlobalTags
	// Status is status: whether it is soft-deleted.
	Status *aspects.Status
}

// EntityURN returns u.URN.
func (u *CorpUser) EntityURN() urn.URN { return u.URN }

// KeyAspect returns the corpUserKey of u.URN.
func (u *CorpUser) KeyAspect() aspects.Aspect {
	return aspects.CorpUserKey{Username: u.URN.ID()}
}

func (u *CorpUser) access() entitystate.Access {
	return access(&u.Meta, field(&u.Info), field(&u.EditableInfo), field(&u.UserStatus), field(&u.GroupMembership), field(&u.GlobalTags), field(&u.Status))
}

// MLPrimaryKey is an ML primary key: the key of a feature table's rows, with its aspects.
type MLPrimaryKey struct {
	Meta
	// URN is the mlPrimaryKey URN.
	URN urn.MLPrimaryKey
	// Properties is mlPrimaryKeyProperties: description, data type, source datasets.
	Properties *aspects.MLPrimaryKeyProperties
	// EditableProperties is editableMlPrimaryKeyProperties: its description as edited in DataHub.
	EditableProperties *aspects.EditableMLPrimaryKeyProperties
	// Ownership is ownership: its owners.
	Ownership *aspects.Ownership
	// GlobalTags is globalTags: its tags.
	GlobalTags *aspects.GlobalTags
	// GlossaryTerms is glossaryTerms: its glossary terms.
	GlossaryTerms *aspects.GlossaryTerms
	// Domains is domains: the domains it belongs to.
	Domains *aspects.Domains
	// InstitutionalMemory is institutionalMemory: its links.
	InstitutionalMemory *aspects.InstitutionalMemory
	// Deprecation is deprecation: whether it is deprecated, and why.
	Deprecation *aspects.Deprecation
	// Status is status: whether it is soft-deleted.
	Status *aspects.Status
}

// EntityURN returns k.URN.
func (k *MLPrimaryKey) EntityURN() urn.URN { return k.URN }

// KeyAspect returns the mLPrimaryKeyKey of k.URN.
func (k *MLPrimaryKey) KeyAspect() aspects.Aspect {
	return aspects.MLPrimaryKeyKey{FeatureNamespace: k.URN.FeatureNamespace(), Name: k.URN.Name()}
}

func (k *MLPrimaryKey) access() entitystate.Access {
	return access(&k.Meta, field(&k.Properties), field(&k.EditableProperties), field(&k.Ownership), field(&k.GlobalTags), field(&k.GlossaryTerms), field(&k.Domains), field(&k.InstitutionalMemory), field(&k.Deprecation), field(&k.Status))
}

func init() {
	register("container", func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseContainer)
		return &Container{URN: t}, err
	})
	register("dataProcessInstance", func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseDataProcessInstance)
		return &DataProcessInstance{URN: t}, err
	})
	register("dataJob", func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseDataJob)
		return &DataJob{URN: t}, err
	})
	register("dataFlow", func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseDataFlow)
		return &DataFlow{URN: t}, err
	})
	register("tag", func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseTag)
		return &Tag{URN: t}, err
	})
	register("glossaryTerm", func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseGlossaryTerm)
		return &GlossaryTerm{URN: t}, err
	})
	register("domain", func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseDomain)
		return &Domain{URN: t}, err
	})
	register("corpuser", func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseCorpUser)
		return &CorpUser{URN: t}, err
	})
	register("mlPrimaryKey", func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseMLPrimaryKey)
		return &MLPrimaryKey{URN: t}, err
	})
}

// flowOf returns the flow URN of a data job URN, "" for the zero value.
func flowOf(u urn.DataJob) string {
	if f := u.Flow(); f != nil {
		return f.String()
	}
	return ""
}

// NewTrainingRun returns an ML training run as DataHub's MLflow connector
// records one: a dataProcessInstance named name (in its properties), of
// subtype "ML Training Run", with hyper-parameters and training metrics
// (in mlTrainingRunProperties, as NewMLModel writes them: text values,
// sorted by name). Its properties' created stamp is DataHub's unknown one
// (time 0 by aspects.UnknownActor): set Properties.Created to say when and
// by whom the run was started. Set Container, Input, Output and RunEvents as
// the run has them.
func NewTrainingRun(u urn.DataProcessInstance, name string, params, metrics map[string]any) *DataProcessInstance {
	return &DataProcessInstance{
		URN:         u,
		Properties:  &aspects.DataProcessInstanceProperties{Name: name, Created: aspects.AuditStamp{Actor: aspects.UnknownActor}},
		TrainingRun: &aspects.MLTrainingRunProperties{HyperParams: HyperParams(params), TrainingMetrics: Metrics(metrics)},
		SubTypes:    &aspects.SubTypes{TypeNames: []string{"ML Training Run"}},
	}
}
