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
// # Testing helpers
//
// Reads and writes without HTTP: [Server.PutAspect], [Server.GetAspect] and
// their JSON forms, and the generic [Get] and [Check], which take the
// aspect's name from its type (Get[aspects.GlobalTags](s, urn)).
// [Server.CheckAspect] and [Check] compare an aspect with cmp.Diff and
// report through the Tester. [Server.Proposals] returns copies of what was
// received; [Server.RequestCount] counts requests per [Op] and
// [Server.GraphQLRequestCounts] GraphQL requests per operation name;
// [Server.Faults] lists the faults still pending; [Server.Reset] starts
// over.
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
// # GraphQL, search and validation
//
// POST /api/graphql serves DataHub's whole GraphQL schema on the same
// store and rules: reads of every entity type (each field from the aspect
// DataHub reads it from), entity and entities, the list queries, counts,
// autocomplete, browse, search, lineage and the description and lineage
// mutations; introspection answers the schema. A simulated search index follows the store with the async
// lag, indexing the fields DataHub's PDL marks searchable; [Server.PauseIndexing]
// lets it drift and restoreIndices repairs it. Every proposal is validated
// as GMS validates it (the MCP's shape, the URN, the entity and aspect,
// the aspect's JSON against its PDL record, URN-typed fields), with
// DataHub's statuses and message texts.
//
// # Fidelity
//
// The mock aims to answer as DataHub's GMS does, byte for byte where the
// shape is fixed (paths, Rest.li and OpenAPI bodies, error texts,
// versioning, conditional writes). It differs where a test server should:
// state lives in memory or one bbolt file and pending async writes in
// memory; the search index is a simulation with DataHub's field names but
// not Elasticsearch's scoring; GET /config reports [DefaultServerVersion].
// The file docs/mockserver.md of this module lists each match and
// difference with its reason, and the GraphQL, search and validation
// rules in full.
package mockserver
