package gms

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/index"
)

// The core keeps a simulated search index next to its store, as GMS keeps
// Elasticsearch next to its SQL database: one index per entity type
// ("datasetindex_v2", a document per entity with its latest aspects) and one
// per timeseries aspect ("dataset_datasetprofileaspect_v1", a document per
// timeseries document). It follows the store's changes after the async lag
// on the core's clock, at the barrier. The methods below read and change it;
// each applies the due async writes first, as every method of the core.

type (
	// RestoreBatch is one batch of a restoreIndices: the rows it indexed
	// again and the last of them.
	RestoreBatch = index.RestoreBatch
	// TaskStatus is the status of a truncation task, as Elasticsearch's
	// tasks API reports it.
	TaskStatus = index.TaskStatus
)

// StoreVersion returns the store's position, which every change it commits
// advances, after the due async writes.
func (c *Core) StoreVersion() uint64 {
	c.barrier()
	return c.st.Version()
}

// SetIndexPaused pauses (true) or resumes (false) indexing: while paused,
// the changes that fall due are lost to the index, as if GMS's consumers had
// dropped them, until restoreIndices rebuilds it; truncation tasks still
// progress. The changes due before the call are applied first.
func (c *Core) SetIndexPaused(paused bool) {
	c.barrier()
	c.ix.SetPaused(paused)
}

// IndexPaused reports whether indexing is paused.
func (c *Core) IndexPaused() bool { return c.ix.Paused() }

// IndexedAspects returns a copy of the aspects the entity index holds for
// urn (nil when it has no document): what a search sees, which differs from
// the store while indexing is paused or lagging.
func (c *Core) IndexedAspects(urn string) map[string]json.RawMessage {
	c.barrier()
	d, ok := c.ix.Get(index.EntityIndexName(EntityTypeOf(urn)), urn)
	if !ok {
		return nil
	}
	out := make(map[string]json.RawMessage, len(d.Aspects))
	for k, v := range d.Aspects {
		out[k] = v
	}
	return out
}

// IndexedTimeseries returns the number of documents in the timeseries index
// of (entityType, aspect).
func (c *Core) IndexedTimeseries(entityType, aspect string) int {
	c.barrier()
	n := 0
	c.ix.Each(index.TimeseriesIndexName(entityType, aspect), func(*index.Document) bool { n++; return true })
	return n
}

// IndexSize is the size of one timeseries index, as getIndexSizes reports
// it.
type IndexSize struct {
	// Name is the index's name ("dataset_datasetprofileaspect_v1").
	Name string
	// EntityName and AspectName are the registered names.
	EntityName, AspectName string
	// SizeBytes is the index's size.
	SizeBytes int64
}

// IndexSizes returns the timeseries indices and their sizes, in name order.
func (c *Core) IndexSizes() []IndexSize {
	c.barrier()
	var out []IndexSize
	for _, info := range c.ix.Indices() {
		if info.Kind == index.TimeseriesIndex {
			out = append(out, IndexSize{Name: info.Name, EntityName: info.EntityName, AspectName: info.AspectName,
				SizeBytes: info.SizeBytes})
		}
	}
	return out
}

// Restore runs a restoreIndices: it indexes again the latest rows a
// selects, in batches, and reports them.
func (c *Core) Restore(ctx context.Context, a RestoreArgs) ([]RestoreBatch, error) {
	c.barrier()
	batches, err := c.ix.Restore(index.RestoreArgs{URN: a.URN, Aspect: a.Aspect, URNLike: a.URNLike,
		Start: a.Start, BatchSize: a.BatchSize, Limit: a.Limit,
		GePitEpochMs: a.GePitEpochMs, LePitEpochMs: a.LePitEpochMs})
	if err != nil {
		return nil, errorf(Internal, MsgStore, err)
	}
	return batches, nil
}

// TruncateResult is what a truncateTimeseriesAspect found and did.
type TruncateResult struct {
	// ToDelete counts the documents at or before the end time, Total all
	// documents of the index.
	ToDelete, Total int
	// ByReindex reports a truncation by reindexing rather than by a
	// delete-by-query ([Truncation.ByReindex]).
	ByReindex bool
	// TaskID is the started task's id "<nodeId>:<n>" ("" for a dry run).
	TaskID string
}

// Truncate counts the documents of the truncation t in the timeseries
// index and, unless t is a dry run, starts the task that deletes them in
// batches of t.BatchSize, one per second of the core's clock: the index's
// documents as a batch falls due, the store's at the barrier that follows.
func (c *Core) Truncate(ctx context.Context, t Truncation) TruncateResult {
	c.barrier()
	plan := c.ix.Plan(t.EntityType, t.Aspect, t.EndTimeMillis)
	r := TruncateResult{ToDelete: plan.ToDelete, Total: plan.Total, ByReindex: t.ByReindex(plan.ToDelete, plan.Total)}
	if !t.DryRun {
		r.TaskID = c.ix.Truncate(plan, r.ByReindex, t.BatchSize)
		c.deleteTruncated() // a task with nothing to do is done at once
	}
	return r
}

// Task returns the status of the truncation task ref; ok is false when
// there is no such task.
func (c *Core) Task(ref TaskRef) (TaskStatus, bool) {
	c.barrier()
	st, ok := c.ix.Task(ref.Node, ref.Num)
	c.deleteTruncated()
	return st, ok
}

// deleteTruncated deletes from the store the documents of the truncation
// batches that ran (see [TruncationBatch]), in order. The index runs the
// batches as they fall due while it catches up and leaves the store to the
// core: the deletions run here, outside the index's lock, after the due
// async writes. A failure of the store is logged (the task, as
// Elasticsearch's, has no one to answer).
func (c *Core) deleteTruncated() {
	for _, d := range c.ix.TakeDeletions() {
		if _, err := c.st.DeleteDocuments("urn:li:"+d.EntityType+":", d.Aspect, TruncationBatch(d.EndTimeMillis, d.Limit)); err != nil {
			c.opts.Logger.Warn("truncation: deleting the store's documents failed", "entityType", d.EntityType,
				"aspect", d.Aspect, "error", err)
		}
	}
}

// EntityPage is a page of a list of entities: their URNs, in (index name,
// URN) order after the cursor, from the search index (which lags the store,
// as DataHub's Elasticsearch does).
type EntityPage struct {
	URNs  []string
	Total int
	// ScrollID is the cursor of the next page ("" on the last page).
	ScrollID string
	// Facets are the page's aggregations (set by [Core.List]).
	Facets []Facet
}

// ErrListScrollID is a list's scroll id that is Base64 but names no place
// in a list (DataHub fails to map it to a cursor).
var ErrListScrollID = errors.New("scroll id names no cursor")

// ListEntities pages through the entity indices of types (each counted
// once however often it is named) after the cursor of a previous page
// ([ListCursor] of its scroll id; "": from the start), count URNs a page,
// soft-deleted entities left out unless includeRemoved. It stops with ctx's
// error when ctx ends.
func (c *Core) ListEntities(ctx context.Context, types []string, after string, count int, includeRemoved bool) (EntityPage, error) {
	c.barrier()
	names := make([]string, 0, len(types))
	for _, t := range types {
		names = append(names, index.EntityIndexName(t))
	}
	slices.Sort(names)
	names = slices.Compact(names)
	var page EntityPage
	last := ""
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return EntityPage{}, err
		}
		// Keys order as (index name, URN): an index before the cursor's
		// gives only its count; the cursor's own is read after its URN.
		from, room := "", count-len(page.URNs)
		if an, au, _ := strings.Cut(after, "\x00"); after != "" && name <= an {
			from = au
			if name < an {
				room = 0
			}
		}
		p := c.ix.Page(name, from, room, includeRemoved)
		page.Total += p.Total
		for _, u := range p.URNs {
			page.URNs = append(page.URNs, u)
			last = name + "\x00" + u
		}
	}
	if count > 0 && len(page.URNs) == count && last != "" {
		// More may follow: DataHub hands out a scroll id with every full page.
		page.ScrollID = base64.RawURLEncoding.EncodeToString([]byte(last))
	}
	return page, nil
}

// listCheckEvery is how many documents a walk visits between looks at its
// request's context.
const listCheckEvery = 256

// entityIndexNames are the names of the entity types' search indices,
// built once.
var entityIndexNames = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, e := range pdl.Registry() {
		m[index.EntityIndexName(e.Name)] = true
	}
	return m
})

// ListCursor reads a scroll id of [Core.ListEntities]: the cursor after the
// last entity of the page before ("" for none). A scroll id that is not
// Base64 is [ErrScrollBase64]; one that names no cursor, [ErrListScrollID].
func ListCursor(id string) (string, error) {
	if id == "" {
		return "", nil
	}
	if b, err := base64.RawURLEncoding.DecodeString(id); err == nil {
		name, u, ok := strings.Cut(string(b), "\x00")
		if ok && strings.HasPrefix(u, "urn:li:") && entityIndexNames()[name] {
			return string(b), nil
		}
	}
	if _, err := index.DecodeBase64(id); err != nil {
		return "", err
	}
	return "", ErrListScrollID
}
