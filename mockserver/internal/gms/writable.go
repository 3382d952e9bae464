package gms

import "github.com/catalogkit/datahub-go/mockserver/internal/store"

// SetWritable turns the core's writes on or off, as GMS's
// entities?action=setWritable does after a data migration: while it is
// off, proposals are validated and answered as usual but their writes are
// dropped (GMS's aspect DAO logs "read only" and writes nothing). A reset
// does not turn writes back on.
func (c *Core) SetWritable(writable bool) {
	c.ops.readOnly.Store(!writable)
	if !writable {
		c.opts.Logger.Warn("datahub-mock: writes are off (setWritable false): proposals are dropped")
	}
}

// Writable reports whether the core writes (see [Core.SetWritable]).
func (c *Core) Writable() bool { return !c.ops.readOnly.Load() }

// droppedWrites are the results of writes dropped while the core is read
// only: each skipped.
func droppedWrites(ws []store.Write) []store.Result {
	res := make([]store.Result, len(ws))
	for i := range res {
		res[i].Skipped = true
	}
	return res
}
