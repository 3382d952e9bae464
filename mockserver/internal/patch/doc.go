// Package patch applies DataHub PATCH proposals to aspect values, with
// DataHub GMS's semantics, for the mock server's ingest path. It is a pure
// library: JSON in, JSON out, no store and no HTTP.
//
// A PATCH proposal's aspect is {"contentType":"application/json-patch+json",
// "value":"<JSON>"}, the value either a bare RFC 6902 array
//
//	[{"op":"add","path":"/tags/urn:li:tag:pii","value":{"tag":"urn:li:tag:pii"}}]
//
// or the envelope
//
//	{"patch":[...],"arrayPrimaryKeys":{"elements":["url"]},"forceGenericPatch":false}
//
// # Templates
//
// GMS applies a bare patch through the aspect's template
// (AspectTemplateEngine): the template turns the aspect's keyed arrays into
// maps, so that "/tags/urn:li:tag:pii" names a tag rather than an index,
// applies the operations, and turns the maps back into arrays. An absent
// aspect starts from the template's default ({"tags":[]}, an ownership with
// a lastModified stamp, ...). Keys in paths are JSON-pointer escaped: ~ as
// ~0, / as ~1 ([Escape]). [Templates] lists the aspects with a template
// here, as read from DataHub's entity-registry templates: globalTags (tags
// by tag), glossaryTerms (terms by urn), ownership (owners by owner, then
// type), upstreamLineage (upstreams by dataset; fineGrainedLineages by
// transformOperation/downstream/query/upstream), datasetProperties (tags by
// value; customProperties is a map already), editableSchemaMetadata
// (editableSchemaFieldInfo by fieldPath, with each field's globalTags and
// glossaryTerms keyed as above), editableDatasetProperties,
// editableContainerProperties and editableMlModelGroupProperties, domains
// and siblings (by value), status, structuredProperties (properties by
// propertyUrn), dataProductProperties (assets by destinationUrn),
// dataJobInputOutput (edges by destinationUrn, field lists by value,
// fineGrainedLineages as above), chartInfo and dashboardInfo (edges,
// dashboards included, by destinationUrn, URN lists by value), dataFlowInfo
// and dataJobInfo, documentation (documentations by attribution source),
// propertyDefinition (entityTypes and allowedPlatforms by value,
// allowedValues by value), formInfo (prompts by id, actors' users and
// groups by value) and versionProperties (no default: an absent
// versionProperties cannot be patched, as in GMS). Attribution sources
// (tags, terms, owners, structured properties and domains per source) are
// addressed through the generic patcher with arrayPrimaryKeys, as DataHub's
// clients send them, not through the templates.
//
// A path one key short of a template's keys is accepted when its value is
// the element itself (/owners/<owner> with an owner): the element is kept
// whole. Clients send such paths for
// templates that gained a key field over time.
//
// With arrayPrimaryKeys or forceGenericPatch GMS uses its generic patcher
// instead (GenericPatchTemplate): an absent aspect starts from its
// template's default when it has one, else {}, and every
// top-level array named in arrayPrimaryKeys is a map keyed by the named
// fields of its elements, nested in that order; a nested field is named by
// its parts joined with U+241F ("attribution␟source").
//
// GMS binds the envelope to GenericJsonPatch with Jackson's defaults, so a
// member other than patch, arrayPrimaryKeys and forceGenericPatch (and, in
// its operations, other than op, path and value: move and copy cannot be
// sent in it) fails the patch; a misspelt arrayPrimaryKeys is not ignored.
// Parse refuses them with ErrBadPatch and Jackson's text.
//
// # No template: patch or conditional write
//
// An aspect without a template (institutionalMemory, the ML properties
// aspects, and others; DataHub versions differ, this package follows the
// newest templates it was written from) cannot take a bare patch: real GMS answers 500
// (datahub-project/datahub #18851, #18935) and Apply fails with
// ErrNoTemplate. A client then has two ways to change part of such an
// aspect without losing concurrent writes: a conditional read-modify-write
// (read the aspect and its version, UPSERT the changed value with
// If-Version-Match, retry on 412), or a patch sent with forceGenericPatch
// (and arrayPrimaryKeys to address array elements by key), which GMS
// merges server-side. Patch when the server has a template or the generic
// patcher and the change is an add/remove of keyed elements; use the
// conditional write when it has neither, or the new value depends on the
// old one beyond what a patch can say.
//
// # Operations
//
// add, remove, replace, move, copy and test, as RFC 6902 (GMS applies the
// patch with JSON-P, which has all six; DataHub's Python builders send
// only add, remove and replace). As in GMS, the objects on every
// operation's path are created before the operations run, so an add under
// a missing key works and removing a missing member is a no-op.
//
// # Errors and statuses
//
// Failures are *Error values wrapping ErrBadPatch or ErrBadOp (GMS: 400),
// ErrBadPath, ErrTestFailed, ErrNoTemplate or ErrBadAspect (GMS: 500).
//
// # Differences from GMS
//
// GMS creates the missing objects from the raw path split on "/", without
// unescaping ~0 and ~1, so a removed key holding "/" or "~" leaves a stray
// element behind; here paths are unescaped first. Removing the whole
// fineGrainedLineages field yields [] here, a 500 there.
package patch
