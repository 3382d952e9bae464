package gms

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// RunRow is one aspect an ingestion run wrote last, as GMS's system
// metadata index holds it (com.linkedin.metadata.run.AspectRowSummary).
type RunRow struct {
	RunID, URN, Aspect string
	// Timestamp is the row's systemMetadata.lastObserved (0 when absent).
	Timestamp int64
	// Value is the aspect's JSON (AspectRowSummary.metadata).
	Value json.RawMessage
	// KeyAspect reports the entity's key aspect.
	KeyAspect bool
}

// RunSummary is one ingestion run (IngestionRunSummary): the rows it wrote
// last and the latest time it was seen.
type RunSummary struct {
	RunID     string
	Timestamp int64
	Rows      int
}

// runMeta is what the run operations read of a row's systemMetadata.
type runMeta struct {
	RunID        string `json:"runId"`
	LastObserved int64  `json:"lastObserved"`
}

// runRows returns the latest rows of every versioned aspect whose
// systemMetadata.runId is runID ("" every run's rows), leaving out the rows
// of soft-deleted entities unless includeSoft is set, as GMS's system
// metadata index answers findByRunId and listRuns; ordered by URN, then
// aspect. The rows are found through the search index's record of each
// row's run (O(answer), following the store as DataHub's system metadata
// index does) and read from the store, which has the last word.
func (c *Core) runRows(runID string, includeSoft bool) ([]RunRow, error) {
	removed := map[string]bool{}
	var out []RunRow
	for _, k := range c.ix.RunRows(runID) {
		a, err := c.st.Get(k.URN, k.Aspect, 0)
		if errors.Is(err, store.ErrNotFound) {
			continue
		} else if err != nil {
			return nil, errorf(Internal, MsgStore, err)
		}
		var m runMeta
		if len(a.SystemMetadata) == 0 || json.Unmarshal(a.SystemMetadata, &m) != nil || m.RunID == "" {
			continue
		}
		if runID != "" && m.RunID != runID {
			continue
		}
		if !includeSoft {
			r, ok := removed[a.URN]
			if !ok {
				r = c.removed(a.URN)
				removed[a.URN] = r
			}
			if r {
				continue
			}
		}
		key := false
		if e, ok := lookupEntity(EntityTypeOf(a.URN)); ok {
			key = e.KeyAspect == a.Name
		}
		out = append(out, RunRow{RunID: m.RunID, URN: a.URN, Aspect: a.Name, Timestamp: m.LastObserved, Value: a.Value, KeyAspect: key})
	}
	return out, nil
}

// RunRows returns the rows runID wrote last, from start, at most count
// (count < 0: all), as GMS's runs?action=describe: the rows of soft-deleted
// entities only when includeSoft is set.
func (c *Core) RunRows(ctx context.Context, runID string, start, count int, includeSoft bool) ([]RunRow, error) {
	c.barrier()
	rows, err := c.runRows(runID, includeSoft)
	if err != nil {
		return nil, err
	}
	return page(rows, start, count), nil
}

// page is items[start:start+count], clamped (count < 0: to the end).
func page[T any](items []T, start, count int) []T {
	start = min(max(start, 0), len(items))
	end := len(items)
	if count >= 0 {
		end = min(start+count, len(items))
	}
	return items[start:end]
}

// Runs returns the ingestion runs, the most recently seen first, from
// offset, at most size, as GMS's runs?action=list: the default run id of
// writes that name none is not a run.
func (c *Core) Runs(ctx context.Context, offset, size int, includeSoft bool) ([]RunSummary, error) {
	c.barrier()
	rows, err := c.runRows("", includeSoft)
	if err != nil {
		return nil, err
	}
	byRun := map[string]*RunSummary{}
	var runs []*RunSummary
	for _, r := range rows {
		if r.RunID == DefaultRunID {
			continue
		}
		s := byRun[r.RunID]
		if s == nil {
			s = &RunSummary{RunID: r.RunID}
			byRun[r.RunID] = s
			runs = append(runs, s)
		}
		s.Rows++
		s.Timestamp = max(s.Timestamp, r.Timestamp)
	}
	slices.SortFunc(runs, func(a, b *RunSummary) int {
		if c := cmp.Compare(b.Timestamp, a.Timestamp); c != 0 {
			return c
		}
		return cmp.Compare(a.RunID, b.RunID)
	})
	out := make([]RunSummary, 0, len(runs))
	for _, s := range page(runs, offset, size) {
		out = append(out, *s)
	}
	return out, nil
}

// Rollback is the outcome of [Core.Rollback]
// (com.linkedin.metadata.run.RollbackResponse).
type Rollback struct {
	// Rows are the run's rows the rollback targets (at most 100 are
	// reported by GMS; the adapter cuts).
	Rows                                                                []RunRow
	EntitiesAffected, AspectsAffected, EntitiesDeleted, AspectsReverted int
	// UnsafeEntities are the entities whose key aspect the run wrote that
	// hold aspects of other runs (besides status), which a rollback hides
	// (safe) or deletes (hard).
	UnsafeEntities []string
}

// Rollback undoes the ingestion run runID as GMS's runs?action=rollback
// (RollbackService, EntityService.rollbackRun): for every aspect whose
// latest version the run wrote, the versions the run wrote are removed and
// the newest version of another run becomes the latest again; an aspect
// only the run wrote is removed. When the run created the entity (wrote
// its key aspect) and nothing older survives, hardDelete deletes the whole
// entity; otherwise the entity is soft-deleted (status removed: true). With
// dryRun nothing changes and the answer says what would. The default run id
// of writes that name none cannot be rolled back (BadArgument).
func (c *Core) Rollback(ctx context.Context, runID string, dryRun, hardDelete bool) (Rollback, error) {
	c.barrier()
	if runID == DefaultRunID {
		return Rollback{}, errorf(BadArgument, MsgRollbackDefaultRun, runID)
	}
	rows, err := c.runRows(runID, hardDelete)
	if err != nil {
		return Rollback{}, err
	}
	var out Rollback
	out.Rows = rows
	var keys []RunRow
	for _, r := range rows {
		if r.KeyAspect {
			keys = append(keys, r)
		}
	}
	out.EntitiesDeleted = len(keys)
	if dryRun {
		out.AspectsReverted = len(rows)
		out.EntitiesAffected = countURNs(rows)
		if !hardDelete {
			out.AspectsReverted -= len(keys)
			out.Rows = slices.DeleteFunc(slices.Clone(rows), func(r RunRow) bool { return r.KeyAspect })
		}
		unsafe, _, err := c.unsafeEntities(runID, keys)
		if err != nil {
			return Rollback{}, err
		}
		out.UnsafeEntities = unsafe
		return out, nil
	}
	// The key aspects last, as GMS orders an entity's deletion.
	ordered := slices.Concat(slices.DeleteFunc(slices.Clone(rows), func(r RunRow) bool { return r.KeyAspect }), keys)
	match := func(sm json.RawMessage) bool {
		var m runMeta
		return json.Unmarshal(sm, &m) == nil && m.RunID == runID
	}
	var reverted []RunRow
	extra := 0
	for _, r := range ordered {
		if err := ctx.Err(); err != nil {
			return Rollback{}, errorf(Internal, MsgStopped, err)
		}
		o, err := c.st.RollbackAspect(r.URN, r.Aspect, match, r.KeyAspect)
		if err != nil {
			return Rollback{}, errorf(Internal, MsgStore, err)
		}
		switch {
		case !o.Matched:
		case o.NoSurvivor && hardDelete:
			n, _, err := c.st.DeleteEntity(r.URN)
			if err != nil {
				return Rollback{}, errorf(Internal, MsgStore, err)
			}
			reverted = append(reverted, r)
			extra += n
		case o.NoSurvivor:
			// GMS soft-deletes the entity and reports nothing for the key
			// aspect.
			if e, ok := lookupEntity(EntityTypeOf(r.URN)); ok && e.Allows("status") {
				if err := c.Ingest(ctx, []Proposal{{EntityType: e.Name, EntityURN: r.URN, ChangeType: "UPSERT",
					AspectName: "status", Aspect: json.RawMessage(`{"removed":true}`), ContentType: "application/json"}},
					IngestOptions{}); err != nil {
					return Rollback{}, err
				}
			}
		default:
			reverted = append(reverted, r)
		}
	}
	// Timeseries documents the run wrote go too (rollbackTimeseriesAspects).
	docs, err := c.deleteRunDocuments(runID)
	if err != nil {
		return Rollback{}, err
	}
	extra += docs
	out.AspectsReverted = len(reverted) + extra
	out.EntitiesAffected = countURNs(reverted)
	unsafe, affected, err := c.unsafeEntities(runID, keys)
	if err != nil {
		return Rollback{}, err
	}
	out.UnsafeEntities, out.AspectsAffected = unsafe, affected
	return out, nil
}

// unsafeEntities are the entities of keys that hold latest rows of other
// runs besides their key aspect and status, and how many such rows there
// are.
func (c *Core) unsafeEntities(runID string, keys []RunRow) ([]string, int, error) {
	var out []string
	n := 0
	for _, k := range keys {
		rows, err := c.st.Latest(k.URN)
		if err != nil {
			return nil, 0, errorf(Internal, MsgStore, err)
		}
		found := false
		for _, a := range rows {
			var m runMeta
			_ = json.Unmarshal(a.SystemMetadata, &m)
			if m.RunID == runID || a.Name == k.Aspect || a.Name == "status" {
				continue
			}
			n++
			found = true
		}
		if found {
			out = append(out, k.URN)
		}
	}
	return out, n, nil
}

// deleteRunDocuments deletes the timeseries documents whose
// systemMetadata.runId is runID and returns how many it deleted.
func (c *Core) deleteRunDocuments(runID string) (int, error) {
	n, err := c.st.DeleteDocumentsWhere(func(d store.TimeseriesDoc) bool {
		var m runMeta
		return len(d.SystemMetadata) > 0 && json.Unmarshal(d.SystemMetadata, &m) == nil && m.RunID == runID
	})
	if err != nil {
		return 0, errorf(Internal, MsgStore, err)
	}
	return n, nil
}

// countURNs is the number of distinct URNs of rows.
func countURNs(rows []RunRow) int {
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.URN] = true
	}
	return len(seen)
}
