// Package patch builds DataHub PATCH proposals: partial changes of an
// aspect that the server merges into its current value, so that adding a
// tag, an owner or an upstream does not overwrite what others wrote
// meanwhile.
//
// An entity builder collects operations per aspect and returns one
// [emitter.Proposal] per aspect, with ChangeType emitter.Patch and the
// aspect {"contentType":"application/json-patch+json","value":"<JSON>"}:
//
//	d := patch.NewDataset(ds)
//	d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:pii"})
//	d.AddOwner(aspects.Owner{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeTechnicalOwner})
//	d.Field("address.zip").SetDescription("postal code")
//	proposals, err := d.Proposals()
//	// emit them: rest.Emit(ctx, proposals...)
//
// The value is a bare RFC 6902 array, [{"op":"add","path":"/tags/urn:li:tag:pii",
// "value":{...}}], or, when the patch names arrayPrimaryKeys or
// forceGenericPatch, the envelope {"patch":[...],"arrayPrimaryKeys":{...},
// "forceGenericPatch":bool} ([Document]). Array elements are addressed by
// key, not index (/tags/<tag urn>, /owners/<owner urn>/<type>,
// /terms/<term urn>/<attribution source>, /upstreams/<dataset urn>,
// /customProperties/<key>), keys escaped as JSON
// pointer tokens (~ as ~0, / as ~1; see [Path]). The paths and values are
// those of DataHub's Python builders (datahub/specific).
//
// # Patch or conditional read-modify-write
//
// DataHub applies a bare patch through the aspect's server-side template;
// it has templates for globalTags, glossaryTerms, ownership,
// upstreamLineage, datasetProperties, editableSchemaMetadata,
// editableDatasetProperties, domains, status and some entity info aspects
// (chartInfo, dashboardInfo, dataFlowInfo, dataJobInfo, ...), not for
// institutionalMemory or the ML properties aspects. A bare patch of an
// aspect without a template fails on the server with HTTP 500
// (datahub-project/datahub #18851). For those this package sends the
// envelope with forceGenericPatch (and arrayPrimaryKeys for keyed lists:
// links by url, ML features, groups and sources by value), which DataHub's
// generic patcher merges; Python's builders send bare patches there.
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
