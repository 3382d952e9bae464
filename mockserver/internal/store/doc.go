// Package store is the mock server's state: a versioned aspect store shaped
// like GMS's SQL aspect table (metadata_aspect_v2) plus a per-aspect
// timeseries document index. It knows nothing of HTTP; the mockserver
// handlers validate proposals and translate them into [Write] batches for
// [Store.Apply], and read back through [Store.Get], [Store.Latest],
// [Store.Timeseries] and friends.
//
// # Backends
//
// [OpenMemory] keeps everything in ordered B-trees (github.com/google/btree),
// so that a new key and the start of a prefix scan cost O(log n) whatever the
// store holds, with a hash index of the keys beside them (history rows aside),
// so that reading or updating a latest row costs O(1); [OpenBolt] keeps it in
// one bbolt file, where Apply returns only after bbolt's commit (and fsync),
// so every acknowledged write survives a crash and reopening the file gives
// everything back. Both run the same versioning code over a small internal
// key-value interface, so they cannot disagree; rows are stored as the same
// bytes in both (a format byte and length-prefixed fields; a row also carries
// its version and a hash of its value, and rows written before it did still
// read), and every read decodes a private copy. Apply is atomic (a batch is
// written entirely or not at all) and safe for concurrent use: writers are
// serialised, readers see only committed batches. What a write needs that does
// not depend on the stored rows (its checks, its time and filled-in system
// metadata, its value's hash, most of its new row) is worked out before the
// writer lock is taken, as GMS stamps a proposal when it arrives.
//
// # Change events
//
// Every committed change is published as an [Event]: an aspect's new latest
// row (with its version and system metadata), the removal of an aspect, of
// an entity and of timeseries documents, a timeseries document, a reset.
// Events are numbered ([Event.Seq]) in commit order and carry the store
// clock's time. They are recorded under the versioning code, at the level of
// the rows a transaction puts and deletes, so any operation, present or
// future, reports what it changed, and a failed batch reports nothing.
// [Store.Subscribe] returns a [Subscription], an unbounded ordered queue read
// with Next, TryNext or Peek outside the store's lock: a consumer that falls
// behind loses nothing and cannot block a writer. Changes are recorded only
// while a subscription is open. [Store.Rows] pages through the latest rows in
// the store's order, for a consumer that builds its state from the rows and
// then follows the events.
//
// # DataHub behaviour followed
//
// Facts taken from datahub-project/datahub (metadata-io, entity-registry,
// docs); file names given so they can be checked.
//
//   - Row layout (docker/mysql/init.sql, AspectDao.java): primary key (urn,
//     aspect, version); version 0 is always the latest value; older values are
//     history rows numbered from 1 (the oldest). Each row has createdon,
//     createdby and systemmetadata. createdon comes from the write's audit
//     stamp, which is in milliseconds, so CreatedOn has millisecond precision.
//
//   - Version numbers (AspectsBatch.incrementBatchVersion,
//     EntityUtils.calculateNextVersions, AspectDao.saveLatestAspect and
//     nextVersionResolution): the row-0 systemMetadata.version (a decimal
//     string) counts the writes. The first write of an aspect stores "1". A
//     later write that changes the value moves row 0 to history row N, where N
//     is row 0's systemMetadata.version (1 if it has none), and stores the new
//     value as row 0 with version N+1. So after n changing writes the latest
//     version is "n" and history rows 1..n-1 hold the earlier values, each with
//     its own systemMetadata, createdOn and createdBy. The caller's
//     systemMetadata.version is replaced.
//
//   - System metadata (SystemMetadataUtils.generateSystemMetadataIfEmpty and
//     setAspectModified, EntityServiceImpl.applyUpsert): every write's
//     systemMetadata gets runId "no-run-id-provided" when absent, lastObserved
//     = now when absent or 0, and aspectModified = {time, actor} of the write
//     unless the actor is the system actor. A first version stores the
//     write's systemMetadata with version "1" and aspectCreated =
//     aspectModified. A later write keeps the stored systemMetadata and
//     updates only lastRunId (= the stored runId), lastObserved, runId and
//     schemaVersion, plus version, aspectModified and aspectCreated when the
//     value changed; other fields the write carries (properties,
//     pipelineName, ...) are not taken over. The store also spells out an
//     absent lastRunId of a write as its SystemMetadata.pdl default
//     "no-run-id-provided", as the Python emitter sends it; GMS leaves the
//     default implicit.
//
//   - Unchanged values (applyUpsert, AspectDao.saveLatestAspect): when the new
//     value equals row 0's value (DataTemplateUtil.areEqual; here: equal JSON
//     data), no version is made and createdOn/createdBy stay. Row 0's
//     systemMetadata is updated in place when the run fields above change it;
//     otherwise nothing is written at all. [Result.Unchanged] reports both.
//
//   - Conditions (If-Version-Match, CREATE, CREATE_ENTITY, If-None-Match)
//     are rules, so they live in the rules core (mockserver/internal/gms);
//     the store gives the core's [Write.Check] the aspect's [Current] state
//     inside the transaction (its version, last-modified time, whether the
//     entity exists), fails the batch on its error, and skips the item on
//     [ErrSkip].
//
//   - Batches (EntityServiceImpl.ingestAspectsToLocalDB): an API request's
//     batch runs in one transaction and any fatal validation exception fails
//     it as a whole; items see the effect of earlier items in the same batch
//     (AspectsBatch "inner-batch upserts").
//
//   - Key aspect (DefaultAspectsUtil, EntityServiceImpl.ingestTimeseriesProposal,
//     EntityServiceImpl.exists): the key aspect is written with the first write
//     to an entity, timeseries writes included; an entity exists when its key
//     aspect row exists. The store writes it from [Write.KeyAspect] and
//     KeyValue; a write of the key aspect itself has Aspect == KeyAspect.
//
//   - Reads (EntityServiceImpl.getVersionedAspect, calculateVersionNumber):
//     version 0 is the latest, n >= 1 a history row, and a negative version
//     counts back from the highest history version (-1 = the newest history
//     row).
//
//   - Hard delete of an entity (EntityServiceImpl delete of the key aspect,
//     AspectDao.deleteUrn) removes every row of the URN, all versions of all
//     aspects.
//
//   - Timeseries (EntityServiceImpl.ingestTimeseriesProposal,
//     TimeseriesAspectTransformer): timeseries aspects bypass the SQL table and
//     become Elasticsearch documents; only UPSERT is allowed and conditional
//     headers are not applied (ConditionalWriteValidator runs on versioned
//     items only). The document id is an MD5 of timestampMillis,
//     eventGranularity, urn, messageId and partitionSpec in one index per
//     aspect, so a document with the same (urn, aspect, timestampMillis,
//     eventGranularity, messageId, partitionSpec) replaces the earlier one. The
//     store keys documents by exactly those fields (the JSON of
//     eventGranularity and partitionSpec compared with sorted keys) and returns
//     them newest first.
//
// # Differences from DataHub
//
// There is no retention (GMS keeps a bounded number of versions by policy),
// no soft delete, no DELETE of single aspects, and no side effects beyond
// the key aspect (GMS also adds default aspects such as browsePathsV2 and
// dataPlatformInstance); those belong to the rules core
// (mockserver/internal/gms) or are out of scope. A read-modify-write (a
// PATCH, the core's Update) is the core's too: it gives [Write.Transform]
// the change, applied to the latest value under the writer lock. A [Write]
// with DeleteEntity deletes an entity inside a batch, so a batch with
// deletes is all-or-nothing. Value equality compares JSON data, where
// DataHub compares Pegasus data maps after schema coercion.
package store
