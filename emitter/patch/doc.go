// Package patch builds DataHub PATCH proposals: partial changes of an
// aspect that the server merges into its current value, so that adding a
// tag, an owner or an upstream does not overwrite what others wrote
// meanwhile.
//
// An entity builder collects operations and returns PATCH proposals
// ([emitter.Proposal] with ChangeType emitter.Patch and the aspect
// {"contentType":"application/json-patch+json","value":"<JSON>"}):
//
//	d := patch.NewDataset(ds)
//	d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:pii"})
//	d.AddOwner(aspects.Owner{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeTechnicalOwner})
//	d.Field("address.zip").SetDescription("postal code") // the schema's field path, see Dataset.Field
//	proposals, err := d.Proposals()
//	// emit them: rest.Emit(ctx, proposals...)
//
// # Builders
//
//	builder                            aspects it patches
//	NewDataset        datasetProperties, editableDatasetProperties, upstreamLineage,
//	                  editableSchemaMetadata (Field), siblings
//	NewChart          chartInfo (title, description, URLs, type, access, input edges)
//	NewDashboard      dashboardInfo (title, description, URLs, access, chart, dataset
//	                  and dashboard edges)
//	NewDataJob        dataJobInfo (name, description, type, flow), dataJobInputOutput
//	                  (input and output datasets, input jobs, dataset fields,
//	                  column-level lineage)
//	NewDataFlow       dataFlowInfo (name, description, project, stamps)
//	NewContainer      editableContainerProperties (description), containerProperties
//	NewDataProduct    dataProductProperties (name, description, assets)
//	NewStructuredProperty
//	                  propertyDefinition (names, value type, cardinality, entity
//	                  types, allowed values)
//	NewForm           formInfo (name, type, prompts, assigned users and groups)
//	NewMLModel        mlModelProperties
//	NewMLModelGroup   mlModelGroupProperties, editableMlModelGroupProperties
//	NewMLFeature      mlFeatureProperties
//	NewMLFeatureTable mlFeatureTableProperties
//	New               any entity: only the methods below and Add, Replace, Remove
//
// Every builder embeds [Builder], whose methods patch the aspects most
// entities share: globalTags (AddTag), glossaryTerms (AddTerm), ownership
// (AddOwner, SetOwners), domains (AddDomain), structuredProperties
// (SetStructuredProperty), documentation (AddDocumentation),
// institutionalMemory (AddLink), status (SetRemoved) and the entity
// type's custom properties
// (AddCustomProperty, on datasetProperties, chartInfo, dataJobInfo, ...).
// The server refuses an aspect the entity type does not have.
//
// # Wire
//
// The paths, values and envelopes are those of DataHub's Python builders
// (datahub/specific) and Java builders. A document is a bare RFC 6902
// array, [{"op":"add","path":"/customProperties/team","value":"sales"}],
// applied through the aspect's server-side template; or, when it names
// arrayPrimaryKeys or forceGenericPatch, the envelope
// {"arrayPrimaryKeys":{...},"patch":[...]} ([Document]), applied by the
// server's generic patcher. Array elements are addressed by key, not
// index, keys escaped as JSON pointer tokens (~ as ~0, / as ~1; see
// [Path]): /chartEdges/<chart urn>, /upstreams/<dataset urn>,
// /customProperties/<key>. Tags, terms, owners, domains, structured
// properties and documentation are keyed by their attribution source too
// (/tags/<source>/<tag urn>, /owners/<owner>/<type>/<type urn>/<source>,
// "" for none), which DataHub's templates do not know, so they go to the
// generic patcher with arrayPrimaryKeys naming the keys; a remove that
// leaves out the source lists the keys in another order. Operations with
// different arrayPrimaryKeys cannot share a document: a builder returns
// one proposal per aspect and set of keys, in first-use order.
//
// Edges added by URN carry {"destinationUrn": <urn>} only (DataHub's
// Python chart and dashboard builders add created and lastModified stamps
// of the current time).
//
// # Patch or conditional read-modify-write
//
// DataHub has patch templates for globalTags, glossaryTerms, ownership,
// upstreamLineage, datasetProperties, editableSchemaMetadata,
// editableDatasetProperties, editableContainerProperties, domains,
// siblings, status, structuredProperties, documentation, chartInfo,
// dashboardInfo, dataFlowInfo, dataJobInfo, dataJobInputOutput,
// dataProductProperties, propertyDefinition, formInfo and a few more; not
// for institutionalMemory,
// containerProperties or the ML properties aspects. A bare patch of an
// aspect without a template fails on the server with HTTP 500
// (datahub-project/datahub #18851); for those this package sends the
// envelope with forceGenericPatch (and arrayPrimaryKeys for keyed lists:
// links by url, ML features, groups and sources by value).
//
// A patched domains aspect is synced by the server: domains is derived
// from domainAssociations, which AddDomain writes. A domains aspect
// stored before domainAssociations existed (domains only) is replaced by
// the associations of the first such patch, so a server with old values
// wants them rewritten whole once.
//
// Use a patch when the change is an add or remove of keyed elements or a
// set of fields, and the server has a template or the generic patcher
// (DataHub 1.x; older servers have neither for many aspects). Use a
// conditional read-modify-write (read the aspect and its version, UPSERT
// the new value with the If-Version-Match header, retry on 412) when the
// server can merge neither, or when the new value depends on the old one
// beyond what a patch can say (a counter, a list re-ordered, a value
// derived from others).
package patch
