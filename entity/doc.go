// Package entity holds typed DataHub entities: a URN and a struct field
// per aspect, as DataHub's Python SDK v2 has Dataset, MLModel and friends.
//
// There is a type for each of the 71 entity types of DataHub's entity
// registry ([Dataset], [Chart], [Dashboard], [DataJob], [MLModel],
// [GlossaryTerm], [Document], [StructuredProperty] and the rest), generated
// from the registry and the PDL schemas. Each has a URN field of package
// urn's typed URN and a pointer field per aspect the registry gives its
// type, documented with the aspect's PDL doc; a nil field means "not
// loaded" after a read and "not written" on a write. A timeseries aspect
// is a slice field (such as [DataProcessInstance.RunEvents]) that Create
// and Upsert append and Get does not read. [New] returns the empty entity
// of a URN's type and [Types] lists the entity types. Constructors cover
// the common cases: [NewDataset] (a description and columns with their
// types and descriptions), [NewMLModel] (a description, hyper-parameters
// and training metrics), [NewTrainingRun] (an ML training run with its
// parameters and metrics, as DataHub's MLflow connector records one).
//
//	u, _ := urn.NewDataset("snowflake", "shop.orders", "PROD")
//	ds := entity.NewDataset(u, "Orders placed on the web shop.",
//		entity.Column{Name: "id", Type: "bigint", Description: "Order id"},
//		entity.Column{Name: "amount", Type: "decimal(10,2)", Description: "Total in EUR"})
//	ds.AddTag(urn.MustParse("urn:li:tag:pii").(urn.Tag))
//
// The values hold no connection. Package client reads and writes them
// (client.Client.Entities: Get, GetMany, Create, Upsert, Update, Delete);
// an entity read there carries, in its embedded [Meta], the version of
// each aspect read, which Update writes against. [Aspects] lists
// the aspects an entity holds, for writing them with package emitter.
//
// # Helpers
//
// The helper methods change the entity value only; write them with
// client.Entities().Update, which runs the change again on a fresh read
// after a concurrent write, so that helpers applied at once by several
// programs lose nothing. A shared aspect's helpers are generated on every
// type that has the aspect and behave the same on each: tags
// (globalTags), glossary terms, owners (ownership; see [NewOwner] and
// [NewCustomOwner]), domain, links (institutionalMemory; see [NewLink]),
// subtype, platform instance, container and browse path (container and
// browsePathsV2), structured property values, deprecation, version and
// aliases (versionProperties) and custom properties (in the type's own
// properties or info aspect). Other helpers belong to one type: a
// dataset's columns, chart and dashboard inputs, a data job's inlets,
// outlets and fine-grained lineage, a model's metrics, parameters, group,
// jobs and deployments, glossary term relations, a document's contents.
// Stamps the helpers write credit [IngestionActor], as Python's do.
//
// This table maps the helpers of DataHub's Python SDK v2 (datahub.sdk) to
// this package's; "every type" means each type with the aspect named in the
// helper's doc. A Python property that reads an aspect is the Go field.
//
//	Python                                      Go
//	HasTags.tags                                GlobalTags (field of every type)
//	HasTags.set_tags                            SetTags (every type)
//	HasTags.add_tag                             AddTag (every type)
//	HasTags.remove_tag                          RemoveTag (every type)
//	HasTerms.terms                              GlossaryTerms (field of every type)
//	HasTerms.set_terms                          SetTerms (every type)
//	HasTerms.add_term                           AddTerm (every type)
//	HasTerms.remove_term                        RemoveTerm (every type)
//	HasOwnership.owners                         Ownership (field of every type)
//	HasOwnership.set_owners                     SetOwners (every type)
//	HasOwnership.add_owner                      AddOwner (every type)
//	HasOwnership.remove_owner                   RemoveOwner (every type)
//	HasDomain.domain                            Domains (field of every type)
//	HasDomain.set_domain                        SetDomain (every type)
//	HasInstitutionalMemory.links                InstitutionalMemory (field of every type)
//	HasInstitutionalMemory.set_links            SetLinks (every type)
//	HasInstitutionalMemory.add_link             AddLink (every type)
//	HasInstitutionalMemory.remove_link          RemoveLink (every type)
//	HasSubtype.subtype                          SubTypes (field of every type)
//	HasSubtype.set_subtype                      SetSubtype (every type)
//	HasPlatformInstance.platform                DataPlatformInstance (field of every type)
//	HasPlatformInstance.platform_instance       DataPlatformInstance (field of every type)
//	HasPlatformInstance._set_platform_instance  SetPlatformInstance (every type)
//	HasContainer.parent_container               Container (field of every type)
//	HasContainer.browse_path                    BrowsePathsV2 (field of every type)
//	HasContainer._set_container (a Container)   SetContainer (every type)
//	HasContainer._set_container (a key)         SetContainerKey (every type)
//	HasContainer._set_container (a path)        SetBrowsePath (every type)
//	HasStructuredProperties.structured_properties  StructuredProperties (field of every type)
//	HasStructuredProperties.set_structured_property  SetStructuredProperty (every type)
//	HasStructuredProperties.remove_structured_property  RemoveStructuredProperty (every type)
//	HasVersion.version                          VersionProperties (field of every type)
//	HasVersion.set_version                      SetVersion (every type)
//	HasVersion.version_aliases                  VersionProperties (field of every type)
//	HasVersion.set_version_aliases              SetVersionAliases (every type)
//	HasVersion.add_version_alias                AddVersionAlias (every type)
//	HasVersion.remove_version_alias             RemoveVersionAlias (every type)
//	(each class).set_custom_properties          SetCustomProperties (every type)
//	Document.set_custom_property                SetCustomProperty (every type)
//	Dataset[path].set_description               Dataset.SetColumnDescription
//	Dataset[path].set_tags                      Dataset.SetColumnTags
//	Dataset[path].add_tag                       Dataset.AddColumnTag
//	Dataset[path].remove_tag                    Dataset.RemoveColumnTag
//	Dataset[path].set_terms                     Dataset.SetColumnTerms
//	Dataset[path].add_term                      Dataset.AddColumnTerm
//	Dataset[path].remove_term                   Dataset.RemoveColumnTerm
//	Chart.set_input_datasets                    Chart.SetInputDatasets
//	Chart.add_input_dataset                     Chart.AddInputDataset
//	Chart.remove_input_dataset                  Chart.RemoveInputDataset
//	Dashboard.set_input_datasets                Dashboard.SetInputDatasets
//	Dashboard.add_input_dataset                 Dashboard.AddInputDataset
//	Dashboard.remove_input_dataset              Dashboard.RemoveInputDataset
//	Dashboard.set_charts                        Dashboard.SetCharts
//	Dashboard.add_chart                         Dashboard.AddChart
//	Dashboard.remove_chart                      Dashboard.RemoveChart
//	Dashboard.set_dashboards                    Dashboard.SetDashboards
//	Dashboard.add_dashboard                     Dashboard.AddDashboard
//	DataJob.set_inlets                          DataJob.SetInlets
//	DataJob.set_outlets                         DataJob.SetOutlets
//	DataJob.set_fine_grained_lineages           DataJob.SetFineGrainedLineages
//	MLModel.set_training_metrics                MLModel.SetTrainingMetrics
//	MLModel.add_training_metrics                MLModel.AddTrainingMetrics
//	MLModel.set_hyper_params                    MLModel.SetHyperParams
//	MLModel.add_hyper_params                    MLModel.AddHyperParams
//	MLModel.set_model_group                     MLModel.SetModelGroup
//	MLModel.set_training_jobs                   MLModel.SetTrainingJobs
//	MLModel.add_training_job                    MLModel.AddTrainingJob
//	MLModel.remove_training_job                 MLModel.RemoveTrainingJob
//	MLModel.set_downstream_jobs                 MLModel.SetDownstreamJobs
//	MLModel.add_downstream_job                  MLModel.AddDownstreamJob
//	MLModel.remove_downstream_job               MLModel.RemoveDownstreamJob
//	MLModel.set_deployments                     MLModel.SetDeployments
//	MLModel.add_deployment                      MLModel.AddDeployment
//	MLModel.remove_deployment                   MLModel.RemoveDeployment
//	MLModelGroup.set_training_jobs              MLModelGroup.SetTrainingJobs
//	MLModelGroup.add_training_job               MLModelGroup.AddTrainingJob
//	MLModelGroup.remove_training_job            MLModelGroup.RemoveTrainingJob
//	MLModelGroup.set_downstream_jobs            MLModelGroup.SetDownstreamJobs
//	MLModelGroup.add_downstream_job             MLModelGroup.AddDownstreamJob
//	MLModelGroup.remove_downstream_job          MLModelGroup.RemoveDownstreamJob
//	GlossaryTerm.set_is_a                       GlossaryTerm.SetIsA
//	GlossaryTerm.add_is_a                       GlossaryTerm.AddIsA
//	GlossaryTerm.remove_is_a                    GlossaryTerm.RemoveIsA
//	GlossaryTerm.set_has_a                      GlossaryTerm.SetHasA
//	GlossaryTerm.add_has_a                      GlossaryTerm.AddHasA
//	GlossaryTerm.remove_has_a                   GlossaryTerm.RemoveHasA
//	GlossaryTerm.set_values                     GlossaryTerm.SetValues
//	GlossaryTerm.add_value                      GlossaryTerm.AddValue
//	GlossaryTerm.remove_value                   GlossaryTerm.RemoveValue
//	GlossaryTerm.set_related_terms              GlossaryTerm.SetRelatedTermList
//	GlossaryTerm.add_related_term               GlossaryTerm.AddRelatedTerm
//	GlossaryTerm.remove_related_term            GlossaryTerm.RemoveRelatedTerm
//	Document.set_title                          Document.SetTitle
//	Document.set_text                           Document.SetText
//	Document.publish                            Document.Publish
//	Document.unpublish                          Document.Unpublish
//	Document.set_parent_document                Document.SetParentDocument
//	Document.set_related_assets                 Document.SetRelatedAssets
//	Document.add_related_asset                  Document.AddRelatedAsset
//	Document.remove_related_asset               Document.RemoveRelatedAsset
//	Document.set_related_documents              Document.SetRelatedDocuments
//	Document.add_related_document               Document.AddRelatedDocument
//	Document.remove_related_document            Document.RemoveRelatedDocument
//	(none)                                      Deprecate, Undeprecate (every type)
//	(none)                                      RemoveCustomProperty (every type)
//	(none)                                      Dashboard.RemoveDashboard
//
// Where they differ: a Go Set helper replaces what the aspect had (some of
// Python's set_ helpers on dashboards and data jobs append); a chart's
// inputs go to chartInfo's inputEdges and a job's inlets and outlets to
// dataJobInputOutput's dataset edges, not the deprecated lists Python
// writes; a training or downstream job must be a data job or a
// data process instance URN, where Python takes any text. Python's
// ChangeAuditStampsMixin (created and last-modified stamps) has no helper:
// set the stamps in the aspect.
package entity

//go:generate go run ../internal/pdl/gen/entitygen/cmd -out .
