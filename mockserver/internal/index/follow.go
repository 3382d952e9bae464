package index

import "github.com/catalogkit/datahub-go/mockserver/internal/store"

// The index applies the store's changes when a reader needs them, as
// DataHub's search index takes GMS's writes from its change log
// asynchronously: every read catches up first (read-your-writes), writes
// leave the work to the next read unless the changes not yet applied pile
// up, and a catch-up applies only the last of the changes of a row that
// were written again since the last one (an aspect written five times
// between two searches is indexed once).

// followAt is the number of changes not yet applied from which a writer
// applies them (Follow): the most a read applies before it answers, and
// about the changes of rows replaced since that the queue holds on to.
const followAt = 4096

// Follow is Sync for the rules core's barrier, which writes call: it
// catches up only when followAt changes or more are pending or a task may
// have batches due, and unless another caller is syncing already (that
// caller applies the same events), so that concurrent writers do not queue
// on the index's lock. Reads call Sync, which waits.
func (x *Index) Follow() {
	if !x.tasksRunning.Load() && x.sub.Len() < followAt {
		return
	}
	if !x.mu.TryLock() {
		return
	}
	defer x.mu.Unlock()
	x.catchUp(0, true)
}

// keptDue is the capacity of the events taken that a reader's catch-up
// keeps for the next (see catchUp).
const keptDue = 256

// coalesceFrom is the number of changes from which a catch-up looks for
// rows written more than once among them.
const coalesceFrom = 64

// aspectKey names one latest row.
type aspectKey struct{ urn, aspect string }

// applyDue applies the events due, in order, except an upsert of a row
// that a later upsert of due replaces: applied, it would be overwritten
// before anybody reads it (the events between them leave the row as the
// later upsert sets it: a delete of the aspect or of its entity, a reset).
// It counts every event as applied and clears due.
func (x *Index) applyDue(due []store.Event) {
	defer clear(due)
	x.applied += len(due)
	if len(due) < coalesceFrom {
		for _, e := range due {
			x.apply(e)
		}
		return
	}
	if x.last == nil {
		x.last = make(map[aspectKey]int, len(due))
	}
	defer func() {
		if len(x.last) > 4*followAt {
			x.last = nil // a catch-up past the usual: its map goes
		} else {
			clear(x.last)
		}
	}()
	for i := range due {
		if e := &due[i]; e.Kind == store.EventUpsert {
			x.last[aspectKey{e.URN, e.Aspect}] = i
		}
	}
	for i := range due {
		if e := &due[i]; e.Kind == store.EventUpsert && x.last[aspectKey{e.URN, e.Aspect}] != i {
			x.replaced++
			continue
		}
		x.apply(due[i])
	}
}
