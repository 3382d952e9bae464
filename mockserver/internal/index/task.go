package index

import (
	"cmp"
	"slices"
	"strconv"
	"time"
)

// TaskBatchInterval is how much server-clock time one batch of a task
// takes.
const TaskBatchInterval = time.Second

// TruncatePlan is what truncating a timeseries index would do.
type TruncatePlan struct {
	Index              string
	EntityType, Aspect string
	EndTimeMillis      int64
	// ToDelete counts the documents with timestampMillis <= EndTimeMillis,
	// Total all documents of the index.
	ToDelete, Total int
}

// Plan counts the documents a truncation of (entityType, aspect) up to
// endMillis would delete. aspect is the registered name.
func (x *Index) Plan(entityType, aspect string, endMillis int64) TruncatePlan {
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	p := TruncatePlan{Index: TimeseriesIndexName(entityType, aspect), EntityType: entityType, Aspect: aspect, EndTimeMillis: endMillis}
	if i := x.indices[p.Index]; i != nil {
		i.docs.Ascend(func(d *Document) bool {
			p.Total++
			if d.TimestampMillis <= endMillis {
				p.ToDelete++
			}
			return true
		})
	}
	return p
}

// task is a truncation running in the simulated Elasticsearch: a
// delete-by-query (deleting the old documents batch by batch) or a reindex
// (copying the documents to keep, then dropping the old ones at the end).
// [Index.Task] reports its status.
type task struct {
	num       int64
	plan      TruncatePlan
	reindex   bool
	batchSize int
	start     time.Time

	done     int  // batches done
	finished bool // every batch ran
}

// n is the number of documents the task handles: deleted, or copied.
func (t *task) n() int {
	if t.reindex {
		return t.plan.Total - t.plan.ToDelete
	}
	return t.plan.ToDelete
}

func (t *task) batches() int { return (t.n() + t.batchSize - 1) / t.batchSize }

// Truncate starts a task deleting the documents of plan's index with
// timestampMillis <= plan.EndTimeMillis from the index, and queuing the
// deletion of their source documents (see [Index.TakeDeletions]), in batches of batchSize
// documents (> 0; less is 1) that fall due one per [TaskBatchInterval] of
// the clock; it returns the task id "<nodeId>:<n>".
func (x *Index) Truncate(plan TruncatePlan, reindex bool, batchSize int) string {
	batchSize = max(batchSize, 1)
	x.mu.Lock()
	defer x.mu.Unlock()
	x.taskSeq++
	t := &task{num: x.taskSeq, plan: plan, reindex: reindex, batchSize: batchSize, start: x.opts.Clock()}
	x.tasks[t.num] = t
	x.tasksRunning.Store(true)
	x.advanceTasks(t.start)
	return x.opts.NodeID + ":" + strconv.FormatInt(t.num, 10)
}

// advanceTasks runs the batches of every task that are due at now; x.mu is
// held.
func (x *Index) advanceTasks(now time.Time) {
	if !x.tasksRunning.Load() {
		return
	}
	running := false
	defer func() { x.tasksRunning.Store(running) }()
	for _, t := range x.tasks {
		if t.finished {
			continue
		}
		running = true
		total := t.batches()
		due := min(total, int(now.Sub(t.start)/TaskBatchInterval))
		for t.done < due {
			t.done++
			switch {
			case t.done == total:
				x.deleteOld(t.plan, 0)
			case !t.reindex:
				x.deleteOld(t.plan, t.batchSize)
			}
		}
		if t.done == total {
			if total == 0 {
				x.deleteOld(t.plan, 0) // nothing to copy or delete: done at once
			}
			t.finished = true
		}
	}
}

// deleteOld removes at most limit (0: all) documents of plan's index with
// timestampMillis <= plan.EndTimeMillis, the oldest first, from the index,
// and queues the deletion of their source documents; x.mu is held.
func (x *Index) deleteOld(p TruncatePlan, limit int) {
	if i := x.indices[p.Index]; i != nil {
		var old []*Document
		i.docs.Ascend(func(d *Document) bool {
			if d.TimestampMillis <= p.EndTimeMillis {
				old = append(old, d)
			}
			return true
		})
		slices.SortStableFunc(old, func(a, b *Document) int { return cmp.Compare(a.TimestampMillis, b.TimestampMillis) })
		if limit > 0 && len(old) > limit {
			old = old[:limit]
		}
		for _, d := range old {
			i.del(d.ID)
		}
	}
	// The store is the mock's source of timeseries reads: the rules core
	// deletes there at its barrier; the store's events reach the index
	// later and find the documents gone.
	x.dmu.Lock()
	x.deletions = append(x.deletions, Deletion{EntityType: p.EntityType, Aspect: p.Aspect, EndTimeMillis: p.EndTimeMillis, Limit: limit})
	x.pending.Store(true)
	x.dmu.Unlock()
}

// Deletion is the source deletion of one batch of a truncation task: the
// documents of the timeseries aspect of every entity of EntityType
// timestamped at or before EndTimeMillis, at most Limit of them (0: all),
// the oldest first.
type Deletion struct {
	EntityType, Aspect string
	EndTimeMillis      int64
	Limit              int
}

// TakeDeletions returns, in the order their batches ran, the source
// deletions of the truncation batches that ran since the last call, and
// forgets them. The index deletes its own documents itself; the documents
// of the store it follows are the rules core's to delete, which it does at
// its barrier, outside the index's lock. It does not wait for a search in
// progress.
func (x *Index) TakeDeletions() []Deletion {
	if !x.pending.Load() {
		return nil
	}
	x.dmu.Lock()
	defer x.dmu.Unlock()
	d := x.deletions
	x.deletions = nil
	x.pending.Store(false)
	return d
}

// TaskStatus is the status of a task, as Elasticsearch's tasks API reports
// a delete-by-query or reindex task.
type TaskStatus struct {
	Completed        bool
	RunTimeNanos     int64
	Total            int
	Updated          int
	Created          int
	Deleted          int
	Batches          int
	VersionConflicts int
	Noops            int
}

// Task returns the status of task num of node; ok is false when the node is
// not the index's or there is no such task.
func (x *Index) Task(node string, num int64) (TaskStatus, bool) {
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	t := x.tasks[num]
	if t == nil || node != x.opts.NodeID {
		return TaskStatus{}, false
	}
	now := x.opts.Clock()
	total := t.batches()
	st := TaskStatus{Completed: t.done == total, Total: t.n(), Batches: t.done}
	end := now
	if st.Completed {
		end = t.start.Add(time.Duration(total) * TaskBatchInterval)
	}
	st.RunTimeNanos = max(end.Sub(t.start).Nanoseconds(), 0)
	progress := min(t.done*t.batchSize, t.n())
	if t.reindex {
		st.Created = progress
	} else {
		st.Deleted = progress
	}
	return st, true
}
