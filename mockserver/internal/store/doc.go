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
// not depend on the stored rows (its checks, its time, its createdBy and
// systemMetadata as the [Rules] receive it, a document's identity, its
// value's hash, most of its new row) is worked out before the writer lock is
// taken, as GMS stamps a proposal when it arrives. In memory, a write
// without conditions builds its whole new row then, on the latest row it
// reads; under the lock it finds that row still in the place it read it
// from (nothing was deleted since) and only swaps the rows there, or else
// builds its row again on the row it finds. The writes of a batch that
// carry equal systemMetadata onto latest rows of equal systemMetadata
// (one run's writes, most often) share the systemMetadata built for the
// first of them, instead of each splitting its latest row's and asking
// the [Rules] again.
//
// # Change events
//
// Every committed change is published as an [Event]: an aspect's new latest
// row (with its version and system metadata), the removal of an aspect, of
// an entity and of timeseries documents, a timeseries document, a reset.
// Events are numbered ([Event.Seq]) in commit order and carry the store
// clock's time. Apply completes and queues its batch's events after it
// releases the writer lock, while the next writer commits, and before it
// returns; the next batch's events wait for them, so the order holds. They are recorded under the versioning code, at the level of
// the rows a transaction puts and deletes, so any operation, present or
// future, reports what it changed, and a failed batch reports nothing.
// [Store.Subscribe] returns a [Subscription], an unbounded ordered queue read
// with Next, TryNext or Peek outside the store's lock: a consumer that falls
// behind loses nothing and cannot block a writer. Changes are recorded only
// while a subscription is open. [Store.Rows] pages through the latest rows in
// the store's order, for a consumer that builds its state from the rows and
// then follows the events.
//
// # Mechanism and rules
//
// The store keeps rows and documents; every decision of DataHub's about
// what a write stores is its [Rules]' (the rules core's, gms.Rules, which
// the core gives the store with [Store.SetRules]): who wrote a row and
// what a written row's systemMetadata holds ([Rules.Received] when the
// write arrives, [Rules.First] for a first version and the companion row,
// [Rules.Next] for a new version, [Rules.Same] for an unchanged value),
// whether a value is unchanged, which makes no new version
// ([Rules.Unchanged]), a timeseries document's identity ([Rules.Document])
// and which version a negative version reads ([Rules.ReadVersion]). A
// store given no Rules decides nothing: rows hold the write's
// systemMetadata as it comes, and every write makes a new version. The
// conditions of a write (If-Version-Match, CREATE, ...) are the core's
// too, through [Write.Check], and so is a read-modify-write such as a
// PATCH, through [Write.Transform].
//
// What the store does itself, shaped like GMS's tables (file names from
// datahub-project/datahub so they can be checked):
//
//   - Row layout (docker/mysql/init.sql, AspectDao.java): primary key (urn,
//     aspect, version); version 0 is always the latest value; older values are
//     history rows numbered from 1 (the oldest). Each row has createdon,
//     createdby and systemmetadata. createdon is the time the write arrived,
//     in milliseconds, so CreatedOn has millisecond precision.
//
//   - Versions (AspectDao.saveLatestAspect): the first write of an aspect is
//     version 1. A later write that changes the value moves row 0 to history
//     row N, where N is row 0's version (1 if it has none), and stores the new
//     value as row 0 with version N+1. So after n changing writes the latest
//     version is n and history rows 1..n-1 hold the earlier values, each with
//     its own systemMetadata, createdOn and createdBy.
//
//   - Unchanged values: when [Rules.Unchanged] finds the new value
//     unchanged from row 0's, no version is made and createdOn/createdBy
//     stay; row 0 is written again, in place, only when
//     the systemMetadata of [Rules.Same] differs from the stored one.
//     [Result.Unchanged] reports both.
//
//   - Conditions: the store gives the core's [Write.Check] the aspect's
//     [Current] state inside the transaction (its version, last-modified
//     time, whether the entity exists), fails the batch on its error, and
//     skips the item on [ErrSkip].
//
//   - Batches (EntityServiceImpl.ingestAspectsToLocalDB): a batch runs in
//     one transaction and any fault fails it as a whole; items see the
//     effect of earlier items in the same batch.
//
//   - Companion row: the write that names its entity's key aspect
//     ([Write.KeyAspect], KeyValue) writes that row with the first write to
//     the entity, timeseries writes included, and marks the entity as
//     existing ([Store.Exists]).
//
//   - Hard delete of an entity (AspectDao.deleteUrn) removes every row of the
//     URN, all versions of all aspects, and its documents.
//
//   - Timeseries documents bypass the versioned rows: a document is kept
//     under (urn, aspect, time, identity), one with the identity of a stored
//     one replaces it, and they are read back newest first.
//
// # Differences from DataHub
//
// There is no retention (GMS keeps a bounded number of versions by policy),
// no soft delete, no DELETE of single aspects, and no side effects beyond
// the companion row (GMS also adds default aspects such as browsePathsV2
// and dataPlatformInstance). A [Write] with DeleteEntity deletes an entity
// inside a batch, so a batch with deletes is all-or-nothing. Value
// equality compares JSON data, where DataHub compares Pegasus data maps
// after schema coercion.
package store
