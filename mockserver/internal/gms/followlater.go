package gms

// writeBarrier is the barrier of a write (see Core.barrier): with
// followLater set, and no index task running, it leaves the search index's
// catch-up of a long backlog to the caller, who calls [Core.Follow] once it
// has answered (see [IngestOptions.FollowLater]).
func (c *Core) writeBarrier(followLater bool) {
	if !followLater || c.ix.TasksRunning() {
		c.barrier()
		return
	}
	c.q.flushDue()
	c.deleteTruncated()
	if c.opts.Follow != nil {
		c.opts.Follow()
	}
}

// FollowDue reports whether the search index has a catch-up due that a
// write with [IngestOptions.FollowLater] left to its caller: many changes
// pending, or an index task running. A caller that gets true calls
// [Core.Follow] once it has answered.
func (c *Core) FollowDue() bool { return c.ix.FollowDue() }

// Follow lets the search index catch up when many changes are pending or a
// task runs, unless another caller is at it (that caller applies the same
// changes): the work a write with [IngestOptions.FollowLater] left for
// after its answer. Reads catch the index up themselves whether or not
// anybody calls Follow.
func (c *Core) Follow() { c.ix.Follow() }
