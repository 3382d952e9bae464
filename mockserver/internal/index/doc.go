// Package index is the mock's simulated search index: what GMS keeps in
// Elasticsearch, derived from its SQL store.
//
// An [Index] follows a store through its change events, as GMS's
// MetadataChangeLog consumers keep Elasticsearch up to date: every versioned
// aspect written or deleted updates the entity's document in the entity
// type's index (datasetindex_v2, one document per URN holding its latest
// aspects), and every timeseries document written or deleted updates the
// (entity type, aspect) index (dataset_datasetprofileaspect_v1, one
// document per timeseries document). Index names follow DataHub's
// IndexConvention without a prefix ([EntityIndexName],
// [TimeseriesIndexName]).
//
// The index lags the store: an event is applied once the server clock has
// passed its commit time plus the lag, when anything reads the index (every
// method calls [Index.Sync] first: a read sees every write before it that
// is due) or a writer finds many changes pending ([Index.FollowAsync], at
// the rules core's barrier: the index's follower goroutine applies them
// while the writer's request goes on, and a read waits for a catch-up in
// flight before its own). A catch-up
// applies only the last of the upserts of a row among the changes it takes,
// so an aspect written five times between two searches is indexed once. While
// indexing is paused ([Index.SetPaused]) the events are dropped, as if the
// consumers had lost them: the index drifts from the store until
// [Index.Restore] rebuilds documents from the store's rows, as GMS's
// restoreIndices does.
//
// Truncating a timeseries index ([Index.Truncate]) starts a task that
// progresses on the server clock (computed from it whenever the index syncs),
// one batch per second, like an
// Elasticsearch delete-by-query or reindex task; [Index.Task] reports it.
// The task deletes the index's own documents as each batch falls due and
// queues the deletion of the source documents in the store, which the
// rules core takes ([Index.TakeDeletions]) and applies at its barrier,
// outside the index's lock.
//
// Reads for a later search API: [Index.Indices] lists the indices,
// [Index.Each] walks an index's documents in ID order and [Index.Get] reads
// one.
package index
