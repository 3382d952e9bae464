// Package gms is the mock server's rules core: what DataHub's GMS does with
// a metadata change proposal or a read, apart from any protocol. The Rest.li
// handlers of package mockserver, and the GraphQL, operations and test
// adapters after them, decode their wire into the types here, call a [Core]
// and map its errors to their own error shapes.
//
// A [Core] owns:
//
//   - validation of proposals in the order of GMS's
//     ValidationApiUtils.validateMCP (change type, URN or key aspect, entity,
//     entity type, key, aspect name, aspect JSON against its PDL record);
//   - keys: the URN built from a key aspect and the key aspect from a URN;
//   - PATCH proposals as PatchItemImpl applies them (patch.go): checked
//     when accepted, then applied with package patch to the aspect's latest
//     value inside the store's transaction (store.Write.Transform), so that
//     concurrent patches lose nothing, and the result validated as any
//     aspect; a patched domains aspect is synced as DomainsSyncMutationHook
//     syncs it (domains.go);
//   - what a write stores, as [Rules] the store calls ([New] gives them to
//     it; the store itself only keeps rows and documents): the defaults
//     of every incoming item's actor and systemMetadata (sysmeta.go), the
//     systemMetadata of a first version, of a new version and of an
//     unchanged value, which value is unchanged (no new version), the
//     key aspect's with an entity's first write, and which version a
//     negative version reads (versioning.go), and a
//     timeseries document's identity (documents.go); the systemMetadata
//     check of a Rest.li proposal ([CheckSystemMetadata]) and its async
//     parameter ([RestliAsync]), which that adapter calls;
//   - who sends a request ([Caller], carried by the request's context from
//     the adapter, [WithCaller]): its actor as GMS's authentication gives
//     it ([Core.Authenticate]), which every write of the request records
//     (the rows' createdBy, aspectCreated and aspectModified, the
//     mutations' audit stamps), and for a traced request the telemetry
//     properties its writes' systemMetadata get (caller.go);
//   - conditional writes as ConditionalWriteValidator and
//     CreateIfNotExistsValidator decide them (see conditions.go);
//   - the async queue: proposals sent with async are applied after a lag on
//     the server's clock; every read and write of the core first applies
//     the writes that are due, in their order (one read barrier);
//   - reads: a versioned aspect, an entity with its aspects, timeseries
//     documents, counts; and deletes;
//   - the search index that follows the store after the async lag (package
//     index, as GMS's Elasticsearch follows its SQL database), which the
//     adapters never hold: searches, scrolls and lineage searches
//     ([Core.Search], [Core.SearchLineage]), entity lists
//     ([Core.ListEntities]), restoreIndices ([Core.Restore]), index sizes,
//     truncations and their tasks ([Core.Truncate], [Core.Task]), the
//     indexed views of the test API, and pausing; each takes the barrier,
//     and the store's side of a truncation batch is deleted there too,
//     outside the index's lock;
//   - metadata-test evaluation ([Core.EvaluateTests], with package
//     metatest);
//   - the decisions of DataHub's OpenAPI entity and operations resources
//     that are not wire: the change type of a one-aspect write
//     ([AspectChangeType]), what a DELETE removes ([DeletedAspects]), soft
//     deletion ([Removed]), the version a batchGet reads ([ReadVersion]),
//     how a timeseries truncation deletes ([TruncateByReindex]); and the
//     URN of a request checked once ([CheckTarget], whose checks Ingest
//     then takes instead of making them again);
//   - the GraphQL mutations' rules: which resources updateDescription
//     changes and how it merges their editable aspects
//     ([Core.UpdateDescription]) and updateLineage's edges
//     ([Core.UpdateLineage]), both written with the UI's systemMetadata and
//     their entity's existence checked again inside the write;
//   - the operations' arguments and what they change: restoreIndices'
//     defaults and checks ([Core.RestoreArgs]), truncateTimeseriesAspect's
//     ([TruncationOf]) and which documents a truncation batch deletes
//     ([TruncationBatch], [Core.Truncate]), getEsTaskStatus' task
//     ids ([TaskOf]).
//
// Errors are *[Error] values with a [Kind] and DataHub's message text; every
// text is in messages.go. Input echoed into a message is shortened by
// [Abbreviate]. The state itself is in packages store and index, which only
// the core imports.
package gms
