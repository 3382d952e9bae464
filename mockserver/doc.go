// Package mockserver is a fake DataHub metadata service (GMS) for tests: the
// Rest.li write and read paths of DataHub on a versioned aspect store, in
// process or as the standalone binary datahub-mock
// (mockserver/cmd/datahub-mock).
//
// It decodes the wire on its own (it does not import this SDK's emitter or
// client), so a wire mistake in the SDK cannot hide behind the same mistake
// in the mock. Point any DataHub client at it: this SDK, DataHub's Python
// emitter, curl.
//
//	s := mockserver.Start(t) // 127.0.0.1:<free port>, closed by t.Cleanup
//	em, err := emitter.NewREST(s.URL(), datahub.ForTests()) // or s.URL()+"/api/gms"
//	if err != nil {
//		t.Fatal(err)
//	}
//	// ... emit ...
//	mockserver.Check(t, s, "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",
//		aspects.DatasetProperties{Description: aspects.Ptr("daily orders")})
//
// (ExampleStart runs this.) [New] and [Open] return the server as an
// [http.Handler] without a listener; [Start] listens and registers cleanup
// with a [Tester] (a *testing.T, or anything with its methods);
// [Listen] listens for a main or any program that is not a test. The
// package does not import testing, so a main that uses it does not link
// the testing package. [Server.Close] waits for requests in flight and
// applies pending async writes.
//
// # Routes
//
// Every route is served at /{path} (a GMS address) and at /api/gms/{path}
// (DataHub's front end address): DataHub's Rest.li write path
// (POST /aspects?action=ingestProposal and ingestProposalBatch), its reads
// (GET /aspects/{urn}, GET /entitiesV2/{urn},
// POST /aspects?action=getTimeseriesAspectValues and getCount), entity
// deletion (POST /entities?action=delete), the operations resource
// (POST /operations?action=restoreIndices, getIndexSizes,
// truncateTimeseriesAspect, getEsTaskStatus), metadata tests
// (POST /test?action=evaluate), GraphQL (POST /api/graphql),
// GET /config, GET /health (200, no body, no token), DataHub's OpenAPI v3
// entity API (/openapi/v3/entity: reads,
// HEAD, batch and single-aspect writes, PATCH, deletes, batchGet, list and
// scroll, /generic) and the write trace (POST
// /openapi/v1/trace/write/{traceId}, from the core's write log and the
// search index's lag). The README.md of this directory lists every route in one
// table with its parameters, its answer and its [Op]; a test checks that
// table against the mock's route table.
//
// Other GMS resources and actions answer as GMS's Rest.li router does (404
// for an unknown resource, 400 for an unknown action or method) or, for
// actions DataHub has and the mock does not, 501 with a message saying so.
//
// # GraphQL
//
// POST /api/graphql (also /api/gms/api/graphql and the front end's
// /api/v2/graphql) serves DataHub's GraphQL API on the same store and rules
// (package internal/graphql, graph-gophers/graphql-go), with a schema that
// is a strict subset of DataHub's SDL: every type, field, argument and
// nullability it declares is DataHub's.
//
//   - Queries: mlFeature, mlFeatureTable, mlModel, mlModelGroup, dataset,
//     dataPlatform, entityExists, entity and entities (checkForExistence),
//     with urn, type, name, description, platform, origin, properties
//     (customProperties, sources, groups, mlFeatures, created, ...),
//     editableProperties, schemaMetadata (optionally a version),
//     editableSchemaMetadata, institutionalMemory, ownership, tags,
//     glossaryTerms, status and exists.
//   - entity and entities answer a URN of every entity type of the registry
//     that has a GraphQL type in DataHub's SDL: the types above with their
//     fields, the others (Container, Domain, GlossaryNode, DataProduct,
//     DataJob, ...) with urn, type and, where DataHub's type has it,
//     exists. A type without one (telemetry, dataHubSecret, ...) answers
//     null, as DataHub maps such a URN to no entity.
//   - Resolvers as DataHub's mappers: name, featureNamespace, platform and
//     origin from the key; description from the properties aspect; absent
//     values null; a model without groups groups: []; the value written is
//     the value read; a never-written URN answers an object built from its
//     key with exists: false (entityExists is the existence check, for
//     every entity type of the registry: an entity exists once its key
//     aspect was written, which every write does).
//   - Mutation updateDescription(input): a dataset field's description in
//     editableSchemaMetadata (other entries kept, the field matched exactly,
//     DataHub's messages for a dataset without schema or without the
//     field), a container's in editableContainerProperties; a missing
//     entity is "Failed to update <urn>. <urn> does not exist.". It writes
//     through the core as an UPSERT proposal (versions, change events, async
//     lag).
//   - Search: search, searchAcrossEntities, scrollAcrossEntities and
//     aggregateAcrossEntities, with DataHub's resolver defaults (start 0,
//     count 10, keepAlive "5m", orFilters over the legacy filters), on the
//     simulated search index (see Search and lineage below).
//   - Lineage: searchAcrossLineage and scrollAcrossLineage (degree,
//     degrees, paths), and the updateLineage mutation, which writes the
//     edges through the core as DataHub's LineageService does: a dataset's
//     upstreamLineage, a chart's chartInfo, a dashboard's dashboardInfo, a
//     data job's dataJobInputOutput, each one read-modify-write, so that
//     concurrent mutations lose no edge.
//   - Envelope: HTTP 200 with data and "extensions":{}; errors as
//     {"errors":[{message, locations, path, extensions:{code, type,
//     classification}}], "data":{...}} with DataHub's codes (400
//     BAD_REQUEST, 403 UNAUTHORIZED, 404 NOT_FOUND, 409 CONFLICT, 500
//     SERVER_ERROR); a document that does not validate has
//     {"classification":"ValidationError"} only. A variable whose value a
//     built-in scalar (Int, Float, Boolean, String, ID) refuses is answered
//     before anything runs, as graphql-java coerces variables: one
//     ValidationError "Variable 'c' has an invalid value: Expected a value
//     that can be converted to type 'Int' but it was a 'String'" at the
//     variable's definition and no data. Other refused variables (an enum
//     symbol, an input object's member, null for a non-null type) keep
//     graph-gophers' message. 401 without a valid token
//     when a token is set, 400 with an empty body for a body that is not
//     JSON or has no query, 405 for a method other than POST.
//   - Limits, as DataHub's engine has them: depth 50 and 2,000 fields
//     (DataHub's complexity limit; aliases count), plus a 1 MiB document
//     and a bound on the comparisons of repeated fields. A document beyond
//     one is refused before it runs, with one error of classification
//     ExecutionAborted whose message names the limit. The mock also runs
//     at most 50 search and lineage fields (search, searchAcrossEntities,
//     scrollAcrossEntities, aggregateAcrossEntities, searchAcrossLineage,
//     scrollAcrossLineage; aliases count) per request: one with more is
//     refused the same way after at most 50 ran (DataHub counts each as
//     one field). A search field loads its page's entities only when its
//     answer selects searchResults, and computes facets only when it
//     selects facets.
//
// Where it differs from DataHub: updateDescription refuses a whole dataset
// (no subResource) and the resource kinds other than dataset fields and
// containers (ML entities, tags, ...) with a GraphQL error, as DataHub's
// descriptions tutorial states the mutation's scope
// (https://docs.datahub.com/docs/api/tutorials/descriptions); DataHub's
// server accepts them. Nothing else of DataHub's GraphQL API (sorting,
// views, autocomplete, browse, other entity types' fields, other
// mutations) is served: such a document
// does not validate. Resolver errors carry the location of their top-level
// field (graph-gophers gives none; DataHub gives the failing field's). A
// scalar of the wrong type inside an input object variable is refused when
// its resolver runs ("could not unmarshal ...", with data), where
// graphql-java refuses it before running as it refuses a scalar variable.
//
// # Search and lineage
//
// Every entity's document in the simulated index holds the values of its
// aspects' searchable fields, under DataHub's index field names (tags,
// owners, glossaryTerms, domains, platform, origin, name, description,
// customProperties as "key=value", typeNames, container, removed,
// hasDescription, ...), read from the @Searchable annotations of DataHub's
// PDL, so a write is searchable once the index has caught up with it (the
// async lag), and restoreIndices repairs a drift. DataHub also writes a
// default dataPlatformInstance (and browse paths) when it creates an
// entity; the mock stores no default aspect but indexes the key's platform
// as that dataPlatformInstance would be indexed.
//
//   - Filters: orFilters are an OR of AND clauses; EQUAL and IN match any
//     value exactly, IEQUAL ignoring case, CONTAIN, START_WITH and
//     END_WITH ignoring case, EXISTS, GREATER_THAN(_OR_EQUAL_TO) and
//     LESS_THAN(_OR_EQUAL_TO) numerically (byte-wise for text), negated
//     flips; a criterion without values is dropped; a ".keyword" suffix is
//     ignored; _entityType takes DATASET, dataset or DATA_FLOW alike.
//     DESCENDANTS_INCL, ANCESTORS_INCL and RELATED_INCL match exactly.
//   - Soft-deleted entities (status.removed) are left out unless
//     searchFlags.includeSoftDeleted is true or a criterion names removed.
//   - Order: score, highest first, then URN. The score: 1 for "*" or an
//     empty query; otherwise every word of the query must occur (ignoring
//     case) in a field searched by default (names, descriptions, tags, ...),
//     and each (word, field) adds the field's boost (a name 10, a tag 0.5),
//     doubled when the value is the word. Elasticsearch's BM25 scores
//     differ; only the order of equal scores (by URN) is the mock's own.
//     A word repeated in the query adds its boost again but is matched
//     once, so a query costs by its distinct words.
//   - Query length: a query of more than 500 characters (UTF-16 code
//     units; searchAcrossEntities counts a "/" twice, as it sends it
//     escaped as "\/") is refused with a BAD_REQUEST
//     "Search query exceeds maximum length of 500 characters", in every
//     search, scroll and lineage field, as DataHub's default search
//     validation refuses it.
//   - count: negative or above 10,000 is 5,000, as DataHub's applyLimit.
//     A negative start fails with a SERVER_ERROR "Failed to execute
//     search: ... Root cause: fromIndex = -5" when some entity matches
//     (DataHub's paging cuts its first batch at the start) and answers an
//     empty page that keeps the start when none does.
//     An offset page with start + count above 10,000 fails with a
//     SERVER_ERROR "Failed to execute search: ... Root cause: result window
//     is too large ..."; real DataHub fails the same way (Elasticsearch's
//     index.max_result_window, DataHub's GraphQL wrapping it as "Failed to
//     execute search: ..."). Scroll ids page without that limit.
//   - Scroll ids carry the last hit's sort values, a point in time and its
//     expiry on the server clock (keepAlive, extended by every page): the
//     pages of a scroll see the index as it was when it began. Past its
//     expiry a scroll continues from its sort values on the current index,
//     as DataHub opens a new point in time. nextScrollId is null after a
//     short page; a full last page leads to one more, empty page. A
//     scroll id that is not Base64 is a BAD_REQUEST with Java's message
//     ("Illegal base64 character 21"); one that decodes to no cursor is a
//     SERVER_ERROR "Invalid scroll Id cannot be mapped: <id>", where
//     DataHub appends the JSON parser's reason ("Root cause: ...").
//   - keepAlive is at most one day ("1d", "24h", "86400s"), Elasticsearch's
//     default search.max_keep_alive; a longer one fails with a
//     SERVER_ERROR "Failed to execute search: ... Keep alive for request
//     (...) is too large. It must be less than (1d). ...".
//   - The open scrolls hold at most 64 MiB of results and 1,000 points in
//     time: past either bound, opening a scroll closes those expiring
//     first, which then go on over the current index as an expired one
//     does. Scrolls of the same query begun while the index did not change
//     share one copy of their results, and a lineage scroll keeps the
//     walk's graph, building paths only for the results of a page.
//   - A search or lineage walk stops when its request's client goes away
//     (the request's context is done), within a few hundred documents or
//     edges, and so does the loading of a page's entities; the field then
//     fails with the context's error. There is no bound on the sum of the
//     counts of the fields of one document, as DataHub has none: each
//     field's count is bounded (10,000) on its own.
//   - Facets: _entityType (display name "Type") and the fields DataHub adds
//     to filters (platform, origin, tags, glossaryTerms, owners, domains,
//     typeNames, container, ...), counted over all the results, most
//     frequent first, 20 values unless searchFlags.maxAggValues. DataHub
//     also lists the filtered values with zero counts; the mock does not.
//   - Lineage walks the isLineage relationships of the indexed documents
//     (a dataset's upstreams, a feature's sources, a model's features,
//     groups and training jobs, a data job's inputs and outputs, a chart's
//     and a dashboard's inputs, a run's inputs and outputs), breadth-first:
//     degree is the fewest hops, paths the shortest paths, degrees that one
//     degree. The mock keeps the first 100 paths of a result in the order
//     the walk meets them; DataHub keeps every shortest path. A page's
//     paths hold at most 50,000 URNs: past that its later results carry
//     their first shortest path only (and none past 1,000,000 URNs), so
//     that a deep graph's page stays small. The degree filter ("1", "2", "3+")
//     bounds the walk as DataHub's does (from all clauses) and selects
//     results (from the first). Soft-deleted entities are neither returned
//     nor walked through unless included; DataHub's in-memory path for
//     large graphs does not filter them. Results are ordered by degree,
//     then score, then URN.
//   - Results are entities of the types the mock's GraphQL serves (the ML
//     entities, datasets, data jobs and flows, charts, dashboards, training
//     runs, tags, terms, users, groups; the last ones by URN and type only);
//     DataHub returns every searchable type.
//   - updateLineage stamps its items with urn:li:corpuser:datahub (the
//     mock has no signed-in user).
//
// # Validation
//
// A proposal is checked as GMS checks it: the MCP's shape (unknown or
// missing fields, wrong JSON types, change type symbols, systemMetadata
// against its record: 400, Rest.li's "Parameters of method ... failed
// validation" wording); the URN (syntax,
// whitespace, 512 bytes URL-encoded, no ␟, a valid key such as a known
// FabricType: 400 "Invalid urn"); the entity, taken from the URN (or from
// entityType with entityKeyAspect) as ValidationApiUtils does (422 "Unknown
// entity: x"; entityType must name it, ignoring case: 422 "URN entity type
// does not match MCP entity type. x != y"); the aspect (422 "Unknown aspect
// foo for entity dataset"); its JSON (400 when it is not a JSON object; 422
// "Failed to validate record with class ...: [ERROR :: /path :: ...]" when
// the aspect breaks its PDL record, in Rest.li's words: unrecognized or
// missing fields, values of the wrong type, bad enum symbols, union
// members; every aspect of DataHub's registry, key aspects and PATCH
// results included). Valid aspects are read back as sent. Bad input never
// changes state and never gets a 500.
//
// Conditional writes follow DataHub's ConditionalWriteValidator and come
// from the proposal's headers map: If-Version-Match is compared as a string
// with the aspect's systemMetadata.version (max(1, row version) without
// one; "-1" when the aspect does not exist; always "-1" for CREATE and
// CREATE_ENTITY), so an empty value never matches an existing aspect (412
// "Expected version X, actual version Y"). If-Modified-Since and
// If-Unmodified-Since take ISO-8601 instants (2024-01-02T03:04:05Z or with
// an offset) compared with the aspect's last-modified time (412 "Item last
// modified ..."); a value that does not parse is a 400 naming the header.
// changeType CREATE and CREATE_ENTITY fail with 422 when the aspect or
// entity exists, and If-None-Match: * turns that failure into a silent
// no-op. A batch is one transaction, DELETEs included: when any item fails,
// nothing of it is written or deleted.
//
// # Testing helpers
//
// Reads and writes without HTTP: [Server.PutAspect], [Server.GetAspect] and
// their JSON forms, and the generic [Get] and [Check], which take the
// aspect's name from its type (Get[aspects.GlobalTags](s, urn)).
// [Server.CheckAspect] and [Check] compare an aspect with cmp.Diff and
// report through the Tester. [Server.Proposals] returns copies of what was
// received; [Server.RequestCount] counts requests per [Op];
// [Server.Reset] starts over.
//
// Faults are injected per operation with [WithFault] or at run time with
// [Server.Inject]: [Fail] (a status for a number of requests, with an
// optional Retry-After), [Latency], [Drop] (the connection is closed
// without handling the request) and [CommitThenDrop] (the request is
// handled and committed, then the connection is closed instead of
// answering, for clients that must not apply a write twice). [FailGraphQL]
// fails the GraphQL requests of one operation, by name, with an HTTP status
// or, with [FailSpec.GraphQLError], with a 200 and an error in DataHub's
// GraphQL shape. A fault always
// states how many requests it applies to, a positive count or [Forever];
// an invalid fault (status not 4xx or 5xx, Times 0 or negative, a wait
// above [MaxFaultDelay], an unknown Op, fields that contradict) is refused
// with an error naming the field ([Fault.Validate]).
//
// The SDK's clients wait between retries as DataHub's Python emitter does
// (5 attempts seconds apart; package client's Modify makes 50 rounds after
// conflicts), so a test of a failure would take about 20 s. Give them
// datahub.ForTests() (3 attempts 10 to 100 ms apart, a Retry-After
// honoured up to 100 ms, 20 conflict rounds up to 20 ms apart) and it ends
// in a fraction of a second. A fault's RetryAfter is sent in whole seconds,
// rounded up, as HTTP's Retry-After has it and DataHub sends it.
//
// The clock ([WithClock], time.Now by default) stamps createdOn and
// lastObserved and drives the async lag ([WithAsyncLag]).
// [Server.FastForward] and [Server.SetTime] move it and apply the async
// writes then due, in the order they were accepted, so that tests need no
// sleeps. [WithControl] serves the same helpers over HTTP under
// [ControlPrefix], for tests that run the binary from another language.
//
// # Package layout
//
// The rules live in one protocol-free package, mockserver/internal/gms (the
// "core", after pstest's fake): proposal validation in the order of GMS's
// ValidationApiUtils, URN and key checks, the entity registry, conditional
// writes, the async queue and its lag, reads (aspect, versioned aspect,
// entity, timeseries, counts) and deletes. It returns errors as kinds
// (invalid, bad argument, unknown entity or aspect, not found, precondition
// failed, conflict, unsupported, ...) carrying DataHub's message texts, all
// in gms/messages.go, and applies the async writes that are due before
// every read and write, in their order (one read barrier). The state is in
// mockserver/internal/store (versioned rows, timeseries documents). This
// package is the Rest.li adapter: routes.go's endpoint table maps a path
// and action to an [Op] and a handler, the handlers decode the Rest.li wire
// (proposal.go), call the core, and errors.go maps kinds to Rest.li
// statuses and error bodies. Further protocols are adapters on the same
// core: internal/graphql (GraphQL), operations.go (the operations resource). The test API sits beside the adapter: faults.go
// (faults and their validation), control.go (their HTTP form), typed.go
// ([Get], [Check]), clock.go (the server's clock), run.go ([Tester],
// [Start], [Listen]).
//
// # Fidelity
//
// What matches DataHub (the GMS of datahub-project/datahub,
// https://github.com/datahub-project/datahub):
//
//   - Paths, methods, request bodies and answers of the routes above, byte
//     for byte where the shape is fixed: {"value":"success"}, VersionedAspect
//     keyed by the Pegasus record name, EntityResponse with enveloped aspects,
//     DeleteEntityResponse.
//   - Rest.li error bodies: header X-RestLi-Error-Response: true and
//     {exceptionClass, stackTrace, message, status}, with GMS's and Rest.li's
//     message texts (errors.go holds them all).
//   - Versioning as GMS's aspect table: version 0 latest, history 1..n-1,
//     systemMetadata.version counting changing writes, identical rewrites
//     not versioned, the key aspect written with an entity's first aspect,
//     timeseries aspects appended by timestampMillis and never served by
//     GET /aspects. OpenAPI v3 reads (an entity, an aspect, batchGet, list
//     and scroll) answer a timeseries aspect's latest document, with its
//     system metadata when asked and no audit stamp; the version of a
//     timeseries aspect's read is a time, selecting the latest document at
//     or before it.
//   - "async" as GMS resolves it: "true" (any case) is asynchronous,
//     anything else, "unset" or absent is synchronous.
//   - aspect.value is Pegasus bytes: a string of one char per byte. A char
//     above U+00FF is refused as Rest.li refuses it.
//   - URNs are checked on write as GMS checks them with strict URN
//     validation off (its default): raw parentheses or commas inside a part
//     that is not a URN are accepted (GMS logs a warning), everything else
//     about the URN and its key is checked. OpenAPI reads check only a URN's
//     syntax: a well-formed URN whose key no write accepts
//     (urn:li:dataset:(a,b)) reads as 404.
//   - GET /health and /health/live answer 200 without a body and need no
//     token, as a GMS that has finished starting.
//   - GET /entitiesV2 synthesises the key aspect of an entity that has none,
//     so it is not an existence check (use GET /aspects on the key aspect).
//
// What differs, and why:
//
//   - 401 for a missing or wrong token is a servlet-container JSON error
//     ({timestamp, status, error, path}) without the Rest.li header, as GMS's
//     authentication filter sends it via response.sendError; the exact body
//     of a real GMS depends on its container configuration. There is no 403:
//     every valid token may do everything.
//   - A failed If-Version-Match, If-Modified-Since or If-Unmodified-Since
//     is answered 412 Precondition Failed. DataHub raises it as a
//     precondition AspectValidationException, which its Rest.li path
//     answers 422 with the same message ("Expected version X, actual version
//     Y"); the OpenAPI path and DataHub's Python SDK (conditional_writer.py)
//     treat it as 412. The mock keeps 412 because it names the failure
//     unambiguously (a 422 is also every validation error) and the SDK maps
//     it to ErrPreconditionFailed; clients talking to a real GMS over
//     Rest.li should treat a 422 with that message the same way.
//   - A time precondition header that is not an ISO-8601 instant is a 400
//     naming the header; GMS's Instant.parse would throw (a 500).
//   - PATCH proposals are applied as GMS applies them: through the aspect's
//     template (tags keyed by tag, owners by owner and type, upstreams by
//     dataset, ...; an absent aspect starts from the template's default) or,
//     with arrayPrimaryKeys or forceGenericPatch, the generic patcher; the
//     result is validated and written like an UPSERT (conditions, versions,
//     change events, async lag), and the read of the current value and the
//     write are one transaction, so concurrent patches lose nothing. The
//     templates are those of the DataHub version the mock follows; older
//     servers have fewer. The statuses differ where GMS answers 500: a patch
//     that does not parse (not JSON, a bad op, a missing value, a path that
//     is not a JSON pointer) is a 400 "Invalid JSON Patch: ..." as in GMS;
//     a patch that cannot apply (a missing path for replace, move, copy or
//     test, a failed test, an aspect that does not fit its template) is a
//     422 here, a 500 there; a bare patch of an aspect without a template
//     (institutionalMemory, the ML properties aspects, ...) is a 422 whose
//     message names the aspect and the remedies (a conditional
//     read-modify-write, or forceGenericPatch), where GMS answers 500 with
//     a NullPointerException or "Patch not supported for aspect with name
//     X" (datahub-project/datahub #18851, #18935). The envelope form
//     {"patch":[...],"arrayPrimaryKeys":...,"forceGenericPatch":...} with
//     any other member, or an operation in it with a member other than op,
//     path and value (a "from"), is a 400 naming the member in Jackson's
//     words, where GMS's binding fails the same way with a 500. A patched
//     result that does not validate is a 422 as any invalid aspect. PATCH of a
//     timeseries aspect is refused with 422 (GMS refuses it too). GMS unescapes ~0 and ~1 only
//     after creating the objects on a path; the mock unescapes first (see
//     package internal/patch). A patched domains aspect goes through GMS's
//     domains sync (domains derived from domainAssociations, or the
//     reverse when only domains changed); an UPSERT of domains is stored as
//     sent, where GMS would add the domainAssociations.
//   - UPDATE and RESTATE are refused with 422. DELETE is accepted for key
//     aspects only (it deletes the entity); GMS also deletes single aspects.
//   - Every aspect is validated field by field against its PDL record, as
//     GMS does, but the mock reports the first problem only (GMS lists
//     them all) and is stricter on two points: an int or long given a
//     fraction (GMS truncates it) and an explicit null where the field's
//     type is a union with a null member (GMS accepts it) are refused.
//     [WithAcceptUnknownMembers] is a test aid that simulates a newer
//     DataHub whose schema has members this SDK does not know: the aspects
//     it names get a structural check only (a JSON object) and are
//     stored with their unknown members, so a test can check that a
//     client writes such members back (client.Modify does).
//   - A field whose PDL type is a URN typeref (Urn, DatasetUrn,
//     MLFeatureUrn, ...: a typeref whose name ends in "Urn"), in an aspect
//     or in the key an entity URN spells, is checked as GMS checks it once
//     the record is otherwise valid: the value must be a URN; its entity
//     type must be one of the registry's; it must have as many parts as
//     that entity's key aspect has fields; a typed typeref wants a URN of
//     its own entity type whose parts parse (a DatasetUrn's platform is a
//     dataPlatform URN and its environment a FabricType); and where the
//     entity type holding the aspect has a @Relationship at the field's
//     path (in any of its aspects), the URN's entity type must be one the
//     relationship names (mlFeatures of an mlFeatureTable hold mlFeature
//     URNs, owners are corpusers or corpGroups). A refused aspect is
//     answered as GMS answers it: 422 over Rest.li, 400 "Validation Error"
//     over OpenAPI v3, with "Invalid format for aspect: <entity type>" and
//     the cause `"Provided urn <urn>" is invalid: <reason>` at the value's
//     path; a refused key is an invalid URN (400). So is an empty actor in a
//     required audit stamp (an AuditStamp left zero): GMS refuses it too.
//     The mock's URN syntax is that of package urn, which is stricter than
//     GMS's parser on surrounding white space, the reserved character "␟"
//     and the 512-byte limit inside aspects.
//   - aspect.value whose bytes are not valid UTF-8 (non-ASCII written raw
//     instead of as \uXXXX) is refused with 400; GMS would silently store
//     replacement characters. On the OpenAPI v3 routes such bytes are read
//     as GMS reads them: each becomes U+FFFD in the bodies it takes as text
//     (writes, batchGet), and the bodies it binds to a class with Jackson
//     (a single-aspect PATCH, scroll, the trace request) are 400
//     "Malformed request body".
//   - Aspects are stored compacted (insignificant white space removed) but
//     otherwise as sent: key order, number spelling and escapes are kept.
//     GMS re-serialises them and may reorder keys.
//   - Async proposals are validated at once (bad ones get 400/422
//     synchronously); a condition that fails when the write falls due is
//     dropped with a warning in the log, as GMS's consumer drops it. The
//     proposals of an async batch are applied one by one, in order, as GMS
//     puts each on Kafka separately: one dropped leaves the others written. Pending
//     async writes live in memory, also with [WithDataDir]: a killed process
//     loses those acknowledged but not yet due (Close applies them). GMS
//     keeps them in Kafka.
//   - A batch is refused with the status of its first bad item and one
//     message naming every bad item; GMS stops at the first URN error.
//   - GET /config claims [DefaultServerVersion] unless [WithServerVersion]
//     says otherwise, so that clients choosing by version (DataHub's Python
//     SDK, EndpointAuto) use OpenAPI and tracing as against that release;
//     "v1.0.0" keeps them on Rest.li (the mock serves both); patchCapable is true, as in GMS, and serverEnv is "core".
//   - OpenAPI: errors of the core keep its message in "message" ({"error":
//     "Validation Error"} 400, "Precondition Error" 412) rather than
//     DataHub's ValidationExceptionCollection text; where GMS answers 500
//     (an unknown aspect in a path or in DELETE's aspects, a CREATE of a
//     timeseries aspect) the mock answers 400 with a message; deleting one
//     timeseries aspect is 501. List and scroll read the search index
//     without filters, sorts or queries other than "*" (those are 501),
//     limit count as DataHub does (negative or above 10,000: 5,000), and
//     scroll ids are the mock's own: one it did not hand out fails as
//     DataHub's decoding does, 400 with Java's message when it is not
//     Base64, else 400 "Invalid JSON format" whose message is the mock's
//     (DataHub gives the JSON parser's reason). Batch answers keep the order of the
//     request's URNs. Written aspects do not get telemetryTraceId in their
//     stored systemMetadata (the write answer with systemMetadata=true shows
//     it); the trace of a write dropped while indexing was paused reads as
//     indexed once later changes are. A trace id the write log no longer
//     holds (it keeps the last 65,536) traces as UNKNOWN.
//   - GET /aspects without ?aspect= is a 400 here; unknown aspect names are
//     400 "Unknown aspect".
//   - restoreIndices without limit (or with limit 0) restores one batch:
//     batchSize rows beginning at start, and batchSize defaults to 10,
//     as DataHub's documentation of the endpoint describes it
//     (https://docs.datahub.com/docs/api/restli/restore-indices). DataHub's server
//     treats an absent or 0 limit as no limit and restores every selected row
//     from start on, in batches of 500 by default. A client that must behave
//     the same against both sends limit (the rows it wants restored) and
//     batchSize. Rows are selected as DataHub selects them: ordered by URN,
//     then aspect name, byte-wise, before start is applied; the window
//     gePitEpochMs..lePitEpochMs applies only when gePitEpochMs > 0.
//   - Timeseries filters and sorts and retention are not served
//     yet; GraphQL is served in part (see GraphQL above), and search and
//     lineage as "Search and lineage" above says.
package mockserver
