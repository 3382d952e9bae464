// Package stateful runs an ingestion job as DataHub's stateful ingestion
// does: each run writes what the source has, and removes from the catalog
// what the source had on the last run and no longer has.
//
// A run:
//
//	r, err := stateful.Start(ctx, c, "featurestore_sync", stateful.WithPlatform("feast"))
//	for _, t := range tables {
//		if _, err := r.Ensure(ctx, t); err != nil { ... } // counted; the run then removes nothing
//	}
//	rep, err := r.Finish(ctx)
//
// [Start] reads the checkpoint the last successful run committed: the
// URNs it produced. [Run.Ensure] writes an entity with
// client.Entities.Ensure (only the aspects that differ from the stored
// ones: a run over an unchanged source writes nothing) and records its URN;
// [Run.Track] records a URN written otherwise. [Run.Finish] soft-deletes
// (status.removed = true) every entity of the last checkpoint this run did
// not produce, then commits this run's checkpoint, and returns a [Report]
// (unchanged, written, removed, failed), also logged through log/slog.
//
// # Fail-safes
//
// As in DataHub, nothing is removed and no checkpoint committed when the
// run reported failures (an Ensure that failed, or [Run.Fail]), or, when
// there is a previous checkpoint, when the run produced nothing or would
// remove more than the fail-safe
// threshold (75% by default, [WithFailSafeThreshold]) of the last run's
// entities: Report.Skipped says which. The last good checkpoint then
// stays, and the next good run removes what became stale since. Entities
// of types without a status aspect are never removed; data process
// instances and queries are neither tracked nor removed. [WithDryRun]
// reports what would be removed and changes nothing.
//
// A run killed midway commits nothing: run again, it writes what the
// killed run did not and removes what is stale, converging to what an
// uninterrupted run leaves.
//
// # Compatibility with DataHub's Python framework
//
// The checkpoint is DataHub's: the timeseries aspect
// datahubIngestionCheckpoint of the data job
// urn:li:dataJob:(urn:li:dataFlow:(datahub,<pipeline>,prod),<job>), where
// the job is "<platform>_stale_entity_removal" (some platforms keep older
// names, see [JobName]), its state {"urns": [...]}. This package reads
// states in both of DataHub's serdes, utf-8 and base85-bz2-json (bzip2 and
// RFC 1924 base85, which is not encoding/ascii85), and writes utf-8, which
// DataHub reads. A Python connector and a Go job given the same pipeline
// name and platform therefore take over from each other's checkpoints.
//
// To make the same URNs a Python connector makes for containers, notebooks
// and runs, build them with the keys of package urn (urn.SchemaKey,
// urn.BucketKey, urn.GUID...).
package stateful
