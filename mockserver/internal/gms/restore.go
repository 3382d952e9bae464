package gms

// Mock: restoreIndices' and truncateTimeseriesAspect's argument checks
// (GMS lets these values through).
const (
	MsgBatchSize     = "batchSize must be positive (datahub-mock)"
	MsgNegativeParam = "%s must not be negative (datahub-mock)"
)

// DefaultRestoreBatchSize is restoreIndices' batchSize when none is given:
// 10 in the mock (DataHub's server has 500; set batchSize when it matters).
const DefaultRestoreBatchSize = 10

// RestoreParams are restoreIndices' parameters as a request gives them
// (nil: absent).
type RestoreParams struct {
	URN, Aspect, URNLike       *string
	Start, BatchSize, Limit    *int32
	GePitEpochMs, LePitEpochMs *int64
	CreateDefaultAspects       *bool
}

// RestoreArgs are restoreIndices' arguments with their defaults: which
// latest rows of the store to index again, and in what batches.
type RestoreArgs struct {
	// URN, Aspect and URNLike (an SQL LIKE pattern) select the rows; ""
	// selects all.
	URN, Aspect, URNLike string
	// Start skips that many selected rows; Limit is the number of rows to
	// restore (0: one batch); BatchSize is the rows per batch (> 0).
	Start, BatchSize, Limit int
	// GePitEpochMs and LePitEpochMs select rows created in that window
	// (epoch ms; GePitEpochMs 0: no window).
	GePitEpochMs, LePitEpochMs int64
	// CreateDefaultAspects is echoed in the answer (the mock creates none).
	CreateDefaultAspects bool
}

// RestoreArgs checks restoreIndices' parameters and fills their defaults:
// batchSize [DefaultRestoreBatchSize], lePitEpochMs the server clock's
// now, the rest zero. A batchSize that is not positive, or a negative
// start, limit or window bound, is BadArgument.
func (c *Core) RestoreArgs(p RestoreParams) (RestoreArgs, error) {
	a := RestoreArgs{BatchSize: DefaultRestoreBatchSize, LePitEpochMs: c.opts.Clock().UnixMilli()}
	a.URN, a.Aspect, a.URNLike = deref(p.URN), deref(p.Aspect), deref(p.URNLike)
	if p.Start != nil {
		a.Start = int(*p.Start)
	}
	if p.Limit != nil {
		a.Limit = int(*p.Limit)
	}
	if p.BatchSize != nil {
		a.BatchSize = int(*p.BatchSize)
	}
	if p.GePitEpochMs != nil {
		a.GePitEpochMs = *p.GePitEpochMs
	}
	if p.LePitEpochMs != nil {
		a.LePitEpochMs = *p.LePitEpochMs
	}
	a.CreateDefaultAspects = p.CreateDefaultAspects != nil && *p.CreateDefaultAspects
	switch {
	case a.BatchSize <= 0:
		return RestoreArgs{}, errorf(BadArgument, MsgBatchSize)
	case a.Start < 0 || a.Limit < 0 || a.GePitEpochMs < 0 || a.LePitEpochMs < 0:
		return RestoreArgs{}, errorf(BadArgument, MsgNegativeParam, "start, limit, gePitEpochMs and lePitEpochMs")
	}
	return a, nil
}

// deref is *p, or "" when p is nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
