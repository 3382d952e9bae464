// Package client reads DataHub metadata and changes it without losing
// concurrent updates.
//
// A [Client] talks to one DataHub GMS (or a front end's /api/gms) with the
// module's shared options ([github.com/catalogkit/datahub-go.Option]: token,
// headers, HTTP client, timeout, retry policy, logger) plus its own
// ([WithActor], [WithConflictPolicy], [WithWriteStrategy]):
//
//	c, err := client.New("http://localhost:8080", datahub.WithToken(token))
//
// # Reads
//
// [GetAspect] reads the latest value of one aspect into its typed struct, as
// DataHub's Python client's get_aspect does (GET /aspects/{urn}); it answers
// an error matching datahub.ErrNotFound when there is none. That read reports
// "version 0", meaning "the latest": it is not the version a conditional
// write needs. [GetVersioned] also returns that one, the aspect's
// systemMetadata.version, read from GET /entitiesV2/{urn}?aspects=List(name).
// [Client.GetEntity] reads several aspects or a whole entity; [Client.Exists]
// says whether an entity exists (its key aspect is stored: GMS stores it with
// an entity's first aspect and synthesises it in entitiesV2 answers, which
// are therefore no existence test; a soft-deleted entity exists).
// [GetTimeseries] and [LatestTimeseries] read timeseries aspects, which the
// other reads refuse. URNs are path-escaped as DataHub's Python client
// escapes them (every byte but letters, digits and "_.-~").
//
// With [datahub.WithEndpoint](datahub.EndpointOpenAPI) (or EndpointAuto and
// a server from DataHub 1.0.1 on) the same reads go through the OpenAPI v3
// entity API and answer the same values: GET
// /openapi/v3/entity/{type}/{urn}/{aspect}, GET /openapi/v3/entity/{type}/{urn}
// with systemMetadata=true (which carries each aspect's version), and HEAD
// for Exists (followed by a read of the key aspect when HEAD says 404, since
// GMS answers 404 there for a soft-deleted entity, which Exists counts as
// existing). GetEntity over OpenAPI asks for the key aspect too, as
// Rest.li's answer holds it, but GMS synthesises it there only on Rest.li:
// over OpenAPI an entity without rows is a datahub.ErrNotFound. GMS's
// OpenAPI reads also answer the latest value of each timeseries aspect (an
// EntityAspect of Type "TIMESERIES"), which Rest.li's leave out. Writes go through
// the emitter with the same endpoint. [Client.ServerInfo] reads the
// server's version, type and capabilities from GET /config.
//
// # Changes without lost updates
//
// A DataHub write replaces a whole aspect, lists included, so adding an item
// means reading, combining and writing back; two writers doing so at once
// lose one's item. [Modify] reads with the version, applies a function and
// writes with If-Version-Match, retrying with jittered backoff when another
// writer got there first, and keeps the stored members its Go type does not
// know. A write whose answer was lost is resolved by reading it back, never
// by applying the function twice.
//
// The helpers are built on it: [Client.AddFeatureToTable],
// [Client.AddFeatureToModel], [Client.AddModelToGroup],
// [Client.AddSourceToFeature] and their Remove forms, [Client.AddLink],
// [Client.AddTag], [Client.AddTerm], [Client.AddOwner] (and removals),
// [Client.SetDescription] (to the editable aspect, which DataHub's UI edits
// and ingestion leaves alone), [Client.SetFieldDescription] and the column
// tags and terms ([Client.AddFieldTag], [Client.AddFieldTerm] and their
// Remove forms, which name a column as SetFieldDescription does),
// and [Entities.Delete]. Each is idempotent (adding
// what is there writes nothing), refuses with an [*EntityNotFoundError] an
// entity that does not exist, and never requires the entity it refers to
// to exist, as DataHub does not.
//
// One way for each task:
//
//   - a tag, term, owner or link on an entity: [Client.AddTag] (and
//     AddTerm, AddOwner, AddLink, their Remove forms), a thin wrapper of
//     Modify on the aspect (globalTags, ...) or, with the Patch strategy,
//     of one patch proposal; to change several things of a typed entity
//     at once, [Entities.Update];
//   - a column's description: [Client.SetFieldDescription] (Client.
//     UpdateDescription is DataHub's raw GraphQL mutation);
//   - deleting an entity: [Entities.Delete], softly or hard
//     ([Client.HardDelete] is the raw delete action it wraps, with counts;
//     [Client.Undelete] reverts a soft delete);
//   - any other change of one aspect: [Modify].
//
// # Two write strategies: conditional and patch
//
// [WithWriteStrategy] (or, per call, [Client.WithWriteStrategy]) chooses
// how the add and remove helpers write:
//
//   - [Conditional], the default: Modify's read, change and
//     If-Version-Match write, retried after a conflict. It works on every
//     aspect of every DataHub server that checks If-Version-Match
//     (DataHub's conditional writes, PR #10868), and it keeps the stored
//     members the Go type does not know. Under contention each add costs
//     several rounds: 64 writers adding to one table take about 4 reads
//     and 4 writes per add against the mock
//     (BenchmarkAddFeatureToTableContended), and a writer can run out of
//     attempts ([*ConflictError]) if contention never ends.
//   - [Patch]: one PATCH proposal built with package emitter/patch, which
//     the server merges into the aspect it holds. An add costs one
//     existence check and one write whatever others do; nothing is
//     re-read, so it cannot starve. It needs a server that can patch the
//     aspect: editableDatasetProperties and editableSchemaMetadata have
//     templates in DataHub's GMS; tags, terms and owners (keyed by their
//     attribution source too, as DataHub's own clients send them), links
//     and the ML properties aspects go to DataHub's generic patcher
//     (arrayPrimaryKeys, forceGenericPatch), which servers older than the
//     generic patcher answer with a 500. Against such a server use
//     Conditional.
//
// What stays the same: each helper refuses, with an [*EntityNotFoundError],
// an entity that does not exist (under Patch by an Exists read first, as a
// patch would create the entity; the column helpers' schema read serves
// for it); adding what is there (but a link, below), or removing what is
// not, changes nothing
// (Conditional sends nothing; Patch sends the patch, and the server, the
// value being unchanged, writes no new version). What differs: under Patch
// the helpers do not read, so they cannot set what depends on the stored
// value. AddLink replaces a link with the same URL whole, create stamp
// included, so adding a link that is there writes a new version with a new
// create stamp (Conditional writes nothing for the same description, and
// for another keeps the create stamp and sets an update stamp); AddTerm,
// AddOwner, the description helpers and the column helpers leave the
// audit stamps (auditStamp, lastModified, created, and a column's terms'
// auditStamp) to the server's template, which stamps a new aspect with its
// system actor. SetDescription of an ML entity is always
// conditional (DataHub has no template for the editable ML properties
// aspects), and so is [Modify], which applies any function.
//
// # Entities
//
// [Client.Entities] reads and writes whole typed entities of package
// entity (a dataset with its schema, tags and owners; a model with its
// hyper-parameters and metrics), as DataHub's Python SDK v2's
// client.entities does: [Entities.Get] (one request, all aspects or
// those named, each with its version), [Entities.GetMany],
// [Entities.Create] (CREATE_ENTITY for the key aspect and CREATE for the
// others, in one request the server refuses whole when the entity exists:
// datahub.ErrAlreadyExists), [Entities.Upsert], [Entities.Update] and
// [Entities.Delete] (soft or hard) and [Entities.DeleteAspects].
//
//	e, err := c.Entities().Get(ctx, u)
//	ds := e.(*entity.Dataset)
//	_, err = c.Entities().Update(ctx, ds, func() error {
//		ds.Properties.Description = aspects.Ptr("Orders, all of them.")
//		return nil
//	})
//
// Update is where this differs from Python, whose update re-sends every
// aspect without a condition, so that two jobs updating one entity lose
// one's change: Update writes only the aspects the function changed, each
// with If-Version-Match of the version read, and after a conflict reads
// again and calls the function again, as Modify does for one aspect.
//
// [Entities.Ensure] is what an ingestion job that runs every hour wants:
// it creates the entity, or writes only the aspects that differ from the
// stored ones, resolving ErrAlreadyExists and lost answers itself, and
// says per aspect what it did ([Created], [Updated], [Unchanged]); a
// second run over the same source writes nothing. With
// [WithIncrementalLineage] it adds a dataset's missing lineage edges by
// PATCH instead of replacing the list. Package stateful builds runs with
// DataHub's stale entity removal on it.
//
// Every write of the client returns as its emit mode says
// ([WithEmitMode], or [Client.WithEmitMode] for one call): once stored
// (the default), once indexed, or, over OpenAPI, once the write's trace
// shows it stored and indexed.
//
// The operations hang off a handle, c.Entities(), rather than being
// methods of Client itself, because their natural names (Get, Create,
// Update, Delete) would read as the aspect-level operations the client
// already has (GetAspect, GetEntity, Modify, HardDelete) with
// other meanings; the handle shares c's connections, options and conflict
// policy, so there is still one client and one option set.
//
// # GraphQL
//
// [Client.MLFeature], [Client.MLFeatureTable], [Client.MLModel],
// [Client.MLModelGroup] and [Client.Dataset] read through DataHub's GraphQL
// API, with the names DataHub derives from the key, the features of a
// table, the groups of a model and a dataset's columns with their edited
// descriptions; [Client.UpdateDescription] runs the updateDescription
// mutation (a column's description, as DataHub's UI edits it) and
// [Client.GraphQL] sends any document with variables. The endpoint is the
// server URL without /api/gms plus /api/graphql, or [WithGraphQLURL]'s.
// Requests go through the same retry policy, token and headers as the
// REST calls. An answer with errors is a [*GraphQLError] (DataHub's code,
// type, path and message) that also matches *datahub.Error and its
// sentinels; an HTTP failure is a *datahub.Error. DataHub answers a
// never-written URN with an object built from the URN: check Exists.
//
// # Search and lineage
//
// [Client.Search] returns the search operations, as Python's
// client.search. [Search.Results] finds entities by free text and a
// [SearchFilter] and yields
// them one by one (iter.Seq2) over DataHub's scrollAcrossEntities, page
// after page by scroll id: never offset pages, which DataHub refuses past
// 10,000 results. Pages are at most [MaxPageSize]; a search yields at most
// [DefaultSearchLimit] results unless [WithLimit] says otherwise, and says
// so with [ErrResultLimit] rather than stop short; a refused page, a
// cancelled context or a bad filter is yielded as an error. Datasets and the
// ML entities come typed (as the GraphQL reads return them); [SearchAs]
// yields one type. Filters are built with [EntityType], [Platform], [Env],
// [Domain], [Tag], [Term], [OwnedBy], [HasCustomProperty], [Container],
// [SubType], [SoftDeleted] and [Field] (any field and [Condition]),
// combined with [And], [Or] and [Not], and sent as DataHub's orFilters (an
// OR of AND clauses); soft-deleted entities are left out unless the filter
// has SoftDeleted. [Search.Count] and [Search.Facets] count.
//
// [Client.Lineage] returns the lineage operations, as Python's
// client.lineage. [Lineage.Get] walks lineage up- or downstream for a
// number of hops (DataHub's scrollAcrossLineage) and returns each entity
// reached with its degree and shortest paths. [Lineage.Add] records an
// edge for every pair Python's add_lineage does (dataset to dataset,
// chart, dashboard or data job; chart or dashboard to dashboard; data job
// to data job or dataset) and the ML pairs (dataset to feature, feature to
// model, training run or job to model, model to group) with a PATCH of the
// aspect Python writes, so that concurrent writers of other edges lose
// nothing. Between two datasets it records column lineage given
// ([WithColumnLineage]) or matched ([WithColumnMatching]: [MatchStrict],
// [MatchFuzzy] with Python's rule and difflib's ratio, [Similarity]), and
// the SQL that made the edge as a query entity ([WithTransformation],
// [QueryURN]). [Lineage.Columns] reads a column's upstream or downstream
// columns back.
//
// [Client.Resolve] finds a domain, a user or a glossary term by name (or a
// user by email), as Python's client.resolve; a look-up that finds none
// or several is a [*ResolveError] matching datahub.ErrNotFound or
// [ErrAmbiguous].
//
// # Structured properties, versions, assertions, incidents, contracts
//
// [Client.StructuredProperties] defines structured properties with a
// typed [PropertyDefinition] (value type, cardinality, entity types,
// allowed values, display name, immutability, version) and sets their
// values on entities; DataHub's checks of both come back as errors
// matching datahub.ErrValidation with DataHub's message.
// [Client.Versions] links assets into version sets (with a label, a
// comment and aliases), unlinks them and reads a set's versions and
// latest; DataHub serves it with its entityVersioning flag on.
// [Client.Assertions] records custom assertions and their results,
// [Client.Incidents] raises incidents and moves them to resolution, and
// [Client.DataContracts] sets and reads data contracts.
//
// Python's names and ours:
//
//	Python (DataHubClient)                          Go (*client.Client)
//	client.search                                   c.Search()
//	search.get_urns(query, filter)                  Search().Results (yields results; r.URN)
//	(DataHubGraph.get_aggregation / count)          Search().Facets, Search().Count
//	client.lineage                                  c.Lineage()
//	lineage.add_lineage(upstream, downstream)       Lineage().Add(ctx, up, down, opts...)
//	  column_lineage=True / "auto_fuzzy"            WithColumnMatching(MatchFuzzy)
//	  column_lineage="auto_strict"                  WithColumnMatching(MatchStrict)
//	  column_lineage={down: [up, ...]}              WithColumnLineage(ColumnLineage{up, down}, ...)
//	  transformation_text=sql                       WithTransformation(sql)
//	lineage.get_lineage(source_urn, direction,      Lineage().Get(ctx, u, Upstream|Downstream,
//	  max_hops, filter)                               hops, filter)
//	lineage.get_lineage(source_column=...)          Lineage().Columns(ctx, field, direction)
//	lineage._get_fuzzy_column_lineage               MatchColumnsFuzzy
//	lineage._get_strict_column_lineage              MatchColumnsStrict
//	difflib.SequenceMatcher(None, a, b).ratio()     Similarity(a, b)
//	QueryUrn(generate_hash(text))                   QueryURN(text)
//	client.resolve                                  c.Resolve()
//	resolve.domain(name=)                           Resolve().Domain
//	resolve.user(name=) / resolve.user(email=)      Resolve().UserByName / Resolve().UserByEmail
//	resolve.term(name=)                             Resolve().Term
//	ItemNotFoundError / MultipleItemsFoundError     datahub.ErrNotFound / ErrAmbiguous (*ResolveError)
//	lineage.infer_lineage_from_sql                  (none: no SQL parser)
//	StructuredProperties(...).generate_mcps         StructuredProperties().Create / Update
//	StructuredProperties.from_datahub               StructuredProperties().Get
//	StructuredProperties.list_urns                  Search().Results with EntityType("structuredProperty")
//	(entity).set_structured_property                StructuredProperties().Set
//	(entity).remove_structured_property             StructuredProperties().Remove
//	graph.link_asset_to_version_set                 Versions().Link(ctx, asset, set, label, opts...)
//	graph.link_asset_to_versioned_asset             Versions().LinkAfter
//	graph.unlink_asset_from_version_set             Versions().Unlink
//	graph.unlink_latest_asset_from_version_set      Versions().UnlinkLatest
//	(GraphQL versionSet.versionsSearch)             Versions().Get
//	graph.upsert_custom_assertion                   Assertions().UpsertCustom
//	graph.report_assertion_result                   Assertions().Report
//	(GraphQL deleteAssertion)                       Assertions().Delete
//	(GraphQL raiseIncident)                         Incidents().Raise
//	(GraphQL updateIncidentStatus)                  Incidents().UpdateStatus
//	DataContract(...).generate_mcp                  DataContracts().Set
//	DataContract.urn                                DataContractURN(entity)
//
// # Differences from DataHub's Python client
//
//   - Python's search.get_urns has no limit and stops when the server stops
//     answering pages; Search has a limit and yields an error instead of
//     stopping short. Python's not_ refuses a filter of several clauses;
//     [Not] multiplies it out.
//   - Python's resolve.domain returns the first of several domains of one
//     name (logging a warning); Resolve.Domain refuses them with
//     [ErrAmbiguous], as Python does several users or terms. Python's fuzzy
//     column matching picks among upstream columns that normalize alike in
//     set order; MatchColumnsFuzzy takes the first in schema order.
//   - Python's link_asset_to_version_set takes no aliases; Versions.Link
//     writes those given to the version's versionProperties after the
//     link. Python's StructuredProperties accepts any value type name in
//     any case (lower-casing it); PropertyDefinition takes the five types
//     as constants.
//   - Python's add_lineage checks that the downstream exists only with
//     transformation text; Lineage.Add checks the entity it patches for
//     every pair (an *EntityNotFoundError).
//   - Python's helpers write without a condition; these write with
//     If-Version-Match, or with a patch the server merges. A server that
//     ignores the header (an open DataHub pull request, #18869, reports
//     one in v1.5) makes the conditional strategy as racy as Python's; the
//     patch strategy does not depend on it.
//   - Python's patch builders send bare patches of the ML properties
//     aspects and institutionalMemory, which DataHub has no templates for
//     (#18851); the patch strategy sends them to the generic patcher.
//   - Members unknown to the Go type (a newer server's fields) are kept at
//     the aspect's top level, inside struct members and inside list
//     elements that are written back unchanged (see Modify); an element
//     that was changed or added carries only what the Go type knows.
package client
