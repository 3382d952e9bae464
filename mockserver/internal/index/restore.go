package index

import (
	"slices"
	"strings"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/like"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// RestoreArgs select the store rows [Index.Restore] indexes again, as the
// parameters of GMS's restoreIndices select rows of metadata_aspect_v2
// (latest versions only).
type RestoreArgs struct {
	// URN keeps only this entity's rows ("" keeps all).
	URN string
	// Aspect keeps only this aspect's rows ("" keeps all).
	Aspect string
	// URNLike keeps only the URNs matching this SQL LIKE pattern (% any
	// run, _ one character; "" keeps all).
	URNLike string
	// Start skips that many selected rows, counted in (URN, aspect) byte
	// order as DataHub counts them.
	Start int
	// BatchSize is the number of rows per batch (> 0).
	BatchSize int
	// Limit is the number of rows to restore in batches of BatchSize; 0
	// restores one batch (batchSize URNs beginning at start).
	Limit int
	// GePitEpochMs and LePitEpochMs keep only rows created in
	// [GePitEpochMs, LePitEpochMs], as DataHub does only when
	// GePitEpochMs > 0 (0: no window at all; LePitEpochMs is then ignored).
	GePitEpochMs, LePitEpochMs int64
}

// RestoreBatch is the outcome of one batch of a restore.
type RestoreBatch struct {
	// RowsMigrated is the number of rows indexed again.
	RowsMigrated int
	// LastURN and LastAspect name the batch's last row ("" for none).
	LastURN, LastAspect string
}

// Restore rebuilds the index documents of exactly the selected store rows,
// in DataHub's row order (by URN, then aspect name, byte-wise ascending;
// Start counts in that order), and reports the batches. It sorts all the
// rows the filters select, O(n log n) in their number. It works while indexing is paused.
func (x *Index) Restore(args RestoreArgs) ([]RestoreBatch, error) {
	if args.BatchSize <= 0 {
		args.BatchSize = 1
	}
	// The scan starts at the URN, or at the literal start of the pattern.
	prefix := args.URN
	var pattern *like.Pattern
	if args.URNLike != "" {
		pattern = like.Compile(args.URNLike)
		if prefix == "" {
			prefix = pattern.Prefix()
		}
	}
	// The lock is held from the sync to the last upsert: a change committed
	// after the read stays queued until the rows read are indexed, so that
	// its event, applied later, lands on top of them and never under them.
	x.mu.Lock()
	defer x.mu.Unlock()
	x.syncLocked()
	rows, err := x.st.Rows(store.RowQuery{URNPrefix: prefix, Aspect: args.Aspect})
	if err != nil {
		return nil, err
	}
	want := args.BatchSize
	if args.Limit > 0 {
		want = args.Limit
	}
	sel := rows[:0]
	for _, r := range rows {
		if (args.URN != "" && r.URN != args.URN) || (pattern != nil && !pattern.Match(r.URN)) ||
			!inPit(r.CreatedOn, args.GePitEpochMs, args.LePitEpochMs) {
			continue
		}
		sel = append(sel, r)
	}
	// DataHub's EbeanAspectDao.streamAspectBatches orders by urn, then
	// aspect (ascending, byte-wise under MySQL's binary collation) before
	// setFirstRow(start); the store's key order puts shorter URNs first, so
	// the selected rows are sorted here: O(n log n) over the selected rows
	// (all of them, not just start+limit, since any of them may sort first).
	slices.SortFunc(sel, func(a, b store.Aspect) int {
		if c := strings.Compare(a.URN, b.URN); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	sel = sel[min(max(args.Start, 0), len(sel)):]
	sel = sel[:min(want, len(sel))]
	batches := []RestoreBatch{}
	for len(sel) > 0 || len(batches) == 0 {
		n := min(len(sel), args.BatchSize)
		b := RestoreBatch{RowsMigrated: n}
		for _, r := range sel[:n] {
			x.upsertAspect(r.URN, r.Name, r.Value)
			x.runs.record(r.URN, r.Name, r.SystemMetadata)
			b.LastURN, b.LastAspect = r.URN, r.Name
		}
		batches = append(batches, b)
		sel = sel[n:]
	}
	return batches, nil
}

// inPit is DataHub's point-in-time window: rows are filtered by
// createdOn >= ge AND createdOn <= le only when ge > 0
// (EbeanAspectDao.streamAspectBatches); le alone selects nothing out.
func inPit(t time.Time, ge, le int64) bool {
	if ge <= 0 {
		return true
	}
	ms := t.UnixMilli()
	return ms >= ge && ms <= le
}
