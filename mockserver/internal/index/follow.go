package index

import (
	"sync"
	"sync/atomic"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// The index applies the store's changes when a reader needs them, as
// DataHub's search index takes GMS's writes from its change log
// asynchronously: every read catches up first (read-your-writes), writes
// leave the work to the next read unless the changes not yet applied pile
// up, and a catch-up applies only the last of the changes of a row that
// were written again since the last one (an aspect written five times
// between two searches is indexed once). Piled-up changes are applied by
// the index's follower goroutine (FollowAsync), off the writers' requests,
// or by a writer itself (Follow).

// followAt is the number of changes not yet applied from which a writer
// has them applied (Follow, FollowAsync): about the most a read applies
// before it answers, and about the changes of rows replaced since that the
// queue holds on to.
const followAt = 4096

// followBehind is the number of changes not yet applied from which
// FollowAsync applies them on its caller's goroutine, as Follow does: the
// follower is behind the writers (the cores are busy), and a read would
// otherwise wait for more than a few catch-ups.
const followBehind = 4 * followAt

// Follow is FollowAsync with the catch-up on the caller's goroutine: it
// catches up only when followAt changes or more are pending or a task may
// have batches due, and unless another caller is syncing already (that
// caller applies the same events), so that concurrent writers do not queue
// on the index's lock. Reads call Sync, which waits.
func (x *Index) Follow() {
	if !x.tasksRunning.Load() && x.sub.Len() < followAt {
		return
	}
	x.followNow()
}

// followNow catches up unless another caller is at it.
func (x *Index) followNow() {
	if !x.mu.TryLock() {
		return
	}
	defer x.mu.Unlock()
	x.catchUp(0, true)
}

// FollowAsync is Follow with the catching up of piled-up changes left to
// the index's follower goroutine, so that the writer calling it (the rules
// core's barrier) goes on with its request while the other core applies
// them: from followAt pending changes it wakes the follower, started then
// if it was not (an index never written to much has none), and returns.
// A read that comes while the follower applies changes waits for it on the
// index's lock, then applies what is left (it sees every write before it).
// A writer still catches up itself, as Follow does, while a task may have
// batches due (their source deletions are the barrier's to take next) and
// when followBehind changes are pending (the follower is behind).
func (x *Index) FollowAsync() {
	if x.tasksRunning.Load() {
		x.followNow()
		return
	}
	n := x.sub.Len()
	if n < followAt {
		return
	}
	if n >= followBehind || !x.follower.wake(x) {
		x.followNow()
	}
}

// follower is the index's catch-up goroutine (see FollowAsync). It starts
// with the first wake-up and ends on Close.
type follower struct {
	started atomic.Bool   // the goroutine was started (and not stopped)
	bell    chan struct{} // has a token when there is work (capacity 1)

	mu     sync.Mutex
	closed bool          // Close was called: no goroutine starts any more
	stop   chan struct{} // closed by Close
	done   chan struct{} // closed when the goroutine ends
}

// wake has the follower catch x up, starting its goroutine if need be; it
// reports false when x is closed.
func (f *follower) wake(x *Index) bool {
	if !f.started.Load() {
		f.mu.Lock()
		if f.closed {
			f.mu.Unlock()
			return false
		}
		if !f.started.Load() {
			f.bell, f.stop, f.done = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
			go x.follow(f.bell, f.stop, f.done)
			f.started.Store(true)
		}
		f.mu.Unlock()
	}
	select {
	case f.bell <- struct{}{}:
	default: // a wake-up is pending: it takes these changes too
	}
	return true
}

// close stops the follower's goroutine and waits for it to end.
func (f *follower) close() {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return
	}
	f.closed = true
	started := f.started.Load()
	if started {
		f.started.Store(false) // a later wake finds it closed
		close(f.stop)
	}
	f.mu.Unlock()
	if started {
		<-f.done
	}
}

// follow is the follower's goroutine: at each wake-up it catches x up, as
// a read does, until stop is closed. A panic of the catch-up is not
// recovered: it ends the program, as it would on a writer's goroutine.
func (x *Index) follow(bell, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	for {
		select {
		case <-stop:
			return
		case <-bell:
		}
		x.mu.Lock()
		if x.followHook != nil {
			x.followHook()
		}
		x.catchUp(0, true)
		x.mu.Unlock()
	}
}

// keptDue is the capacity of the events taken that a reader's catch-up
// keeps for the next (see catchUp).
const keptDue = 256

// coalesceFrom is the number of changes from which a catch-up looks for
// rows written more than once among them.
const coalesceFrom = 64

// applyDue applies the events due, in order, except an upsert of a row
// that a later upsert of due replaces: applied, it would be overwritten
// before anybody reads it (the events between them leave the row as the
// later upsert sets it: a delete of the aspect or of its entity, a reset).
// It counts every event as applied and clears due.
func (x *Index) applyDue(due []store.Event) {
	defer clear(due)
	x.applied += len(due)
	if len(due) < coalesceFrom {
		for i := range due {
			x.apply(&due[i])
		}
		return
	}
	// From the last event back, an upsert of a row already seen is
	// replaced. Its Kind is cleared: the events are the catch-up's own,
	// and cleared when it ends.
	x.last.reset(len(due))
	for i := len(due) - 1; i >= 0; i-- {
		if e := &due[i]; e.Kind == store.EventUpsert && x.last.add(due, i) {
			e.Kind = 0
			x.replaced++
		}
	}
	for i := range due {
		if due[i].Kind != 0 {
			x.apply(&due[i])
		}
	}
}
