package gms

import (
	"cmp"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// MsgNotTimeseriesAspect refuses a truncation of an aspect that is not a
// timeseries aspect of the entity type (mock: GMS fails later).
const MsgNotTimeseriesAspect = "Aspect %s is not a timeseries aspect of entity %s (datahub-mock)"

// DefaultTruncateBatchSize is the batch size of a truncation without one
// (Elasticsearch's scroll size for delete-by-query and reindex as DataHub
// documents it).
const DefaultTruncateBatchSize = 10000

// TruncateParams are truncateTimeseriesAspect's parameters as a request
// gives them (nil: absent).
type TruncateParams struct {
	EntityType, Aspect               string
	EndTimeMillis                    int64
	DryRun                           *bool
	BatchSize                        *int32
	TimeoutSeconds                   *int64
	ForceDeleteByQuery, ForceReindex *bool
}

// Truncation is a checked truncateTimeseriesAspect: which documents it
// deletes and how.
type Truncation struct {
	// EntityType and Aspect are the registered names.
	EntityType, Aspect string
	// EndTimeMillis is the newest timestampMillis deleted.
	EndTimeMillis int64
	// DryRun only reports the counts (the default).
	DryRun bool
	// BatchSize is the documents per batch of the task
	// ([DefaultTruncateBatchSize] by default).
	BatchSize int
	// FlagsConflict reports forceDeleteByQuery and forceReindex both given
	// with the same value, which DataHub answers with a refusal text
	// instead of truncating ([TruncateFlagsConflict]).
	FlagsConflict bool

	forceDeleteByQuery, forceReindex *bool
}

// TruncationOf checks truncateTimeseriesAspect's parameters in this order
// and fills their defaults: a batchSize that is not positive, a negative
// timeoutSeconds, and an aspect that is not a timeseries aspect of the
// entity type (both named in any case) are BadArgument.
func TruncationOf(p TruncateParams) (Truncation, error) {
	if p.BatchSize != nil && *p.BatchSize <= 0 {
		return Truncation{}, errorf(BadArgument, MsgBatchSize)
	}
	if p.TimeoutSeconds != nil && *p.TimeoutSeconds < 0 {
		return Truncation{}, errorf(BadArgument, MsgNegativeParam, "timeoutSeconds")
	}
	entity, aspect, ok := timeseriesAspect(p.EntityType, p.Aspect)
	if !ok {
		return Truncation{}, errorf(BadArgument, MsgNotTimeseriesAspect, Abbreviate(p.Aspect), Abbreviate(p.EntityType))
	}
	t := Truncation{EntityType: entity, Aspect: aspect, EndTimeMillis: p.EndTimeMillis,
		DryRun: p.DryRun == nil || *p.DryRun, BatchSize: DefaultTruncateBatchSize,
		FlagsConflict:      TruncateFlagsConflict(p.ForceDeleteByQuery, p.ForceReindex),
		forceDeleteByQuery: p.ForceDeleteByQuery, forceReindex: p.ForceReindex}
	if p.BatchSize != nil {
		t.BatchSize = int(*p.BatchSize)
	}
	return t, nil
}

// ByReindex reports whether the truncation deletes toDelete of total
// documents by reindexing ([TruncateByReindex]).
func (t Truncation) ByReindex(toDelete, total int) bool {
	return TruncateByReindex(t.forceDeleteByQuery, t.forceReindex, toDelete, total)
}

// timeseriesAspect resolves an entity type and a timeseries aspect given in
// any case ("dataprocessinstance", "dataprocessinstancerunevent", as
// getIndexSizes reports them, or as registered) to their registered names;
// ok is false when the entity type has no timeseries aspect of that name.
func timeseriesAspect(entityType, aspect string) (entity, name string, ok bool) {
	for _, e := range pdl.Registry() {
		if !strings.EqualFold(e.Name, entityType) {
			continue
		}
		for _, a := range e.Aspects {
			if !strings.EqualFold(a, aspect) {
				continue
			}
			if info, ok := pdl.LookupAspect(a); ok && info.Timeseries {
				return e.Name, a, true
			}
		}
	}
	return "", "", false
}

// TruncationBatch picks, of documents timestamped timestamps, one batch of
// a truncation as the delete-by-query of truncateTimeseriesAspect finds it
// in Elasticsearch: those timestamped at or before endMillis, the oldest
// first (documents of one time in the order given), at most limit of them
// (0: all).
func TruncationBatch(endMillis int64, limit int) func(timestamps []int64) []int {
	return func(timestamps []int64) []int {
		var old []int
		for i, ms := range timestamps {
			if ms <= endMillis {
				old = append(old, i)
			}
		}
		slices.SortStableFunc(old, func(a, b int) int { return cmp.Compare(timestamps[a], timestamps[b]) })
		if limit > 0 && len(old) > limit {
			old = old[:limit]
		}
		return old
	}
}
