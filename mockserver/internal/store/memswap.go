package store

import "math"

// A write whose row was built before the writer lock (see preRow) on the
// memory backend also remembers where it found its latest row: the cell
// that holds it, the backend's epoch then and whether its entity existed.
// Under the lock, a write that finds the same cell still holding the same
// row in the same epoch moves that row into the cell's history and puts
// its own in its place there, without looking its keys up again: a cell
// leaves its bucket only by a delete, a clear or a rollback, which move
// the epoch, and an entity's marker likewise. Anything else takes the
// general path (applyOne), which does the same through the keys.

// memTxnOf returns the memory transaction t is or records (nil for
// another backend's), and the recorder when t records.
func memTxnOf(t txn) (*memTxn, *recorder) {
	switch t := t.(type) {
	case *memTxn:
		return t, nil
	case *recorder:
		m, _ := t.txn.(*memTxn)
		return m, t
	}
	return nil, nil
}

// seeLatest records in p's preRow the latest row of p's write as the
// read-only memory transaction t finds it, with its cell, the epoch and
// whether the entity of w exists.
func (t *memTxn) seeLatest(w *Write, p *prepared) {
	pre := &p.pre
	pre.epoch = t.b.epoch
	if c := t.b.buckets[aspectRows].treeCell(p.latestKey()); c != nil && c.val != nil {
		pre.cell, pre.seen = c, c.val
	}
	if w.KeyAspect != "" {
		pre.entity = t.b.buckets[entities].treeCell(p.entityKey()) != nil
	}
}

// swapPreBuilt is applyOne of a write without Check or Transform whose row
// was built before the lock, when t is a memory transaction and the write
// finds what preBuild saw (see above): it reports false, having done
// nothing, otherwise.
func swapPreBuilt(t txn, w *Write, p *prepared) (outcome, bool) {
	pre := &p.pre
	c := pre.cell
	if !pre.ok || c == nil || (w.KeyAspect != "" && !pre.entity) {
		return outcome{}, false
	}
	m, rec := memTxnOf(t)
	if m == nil || m.b.noSwap || m.b.epoch != pre.epoch || !sameBytes(c.val, pre.seen) {
		return outcome{}, false
	}
	if pre.unchanged {
		if pre.val != nil {
			m.setCell(aspectRows, c, pre.val)
			rec.upsertBuilt(w, p)
		}
		return outcome{version: pre.version, unchanged: true}, true
	}
	if !m.b.buckets[aspectRows].hangs || (c.h != nil && c.h.tree) {
		return outcome{}, false // history rows go to the tree: the general path puts them there
	}
	// As putPreBuilt: the latest row moves to history (unless retention
	// keeps none) and retention drops the version the new one puts past
	// its bound (see retain).
	p.head = rowHead{} // pre uses its memory
	if keep := p.keep; keep != 1 {
		var drop uint64
		if keep > 1 && pre.version-keep >= 1 {
			drop = uint64(pre.version - keep)
		}
		if keep > 1 {
			hintHist(c, keep)
		}
		m.moveToHistory(aspectRows, c, uint64(pre.version-1), drop, pre.val)
	} else {
		m.setCell(aspectRows, c, pre.val)
	}
	rec.upsertBuilt(w, p)
	return outcome{version: pre.version}, true
}

// moveToHistory moves the row of the latest row's cell c of bucket b into
// its history as version ver, removes the history row of version drop
// (0: none) if there is one, and gives c the value val: hangVer, unhangVer
// and setCell in turn. In the usual case, ver the newest version and drop
// the oldest or absent, one undo entry records the three (an entry holds
// pointers, so each costs write barriers while the collector marks).
func (t *memTxn) moveToHistory(b bucket, c *memCell, ver, drop uint64, val []byte) {
	if c.h == nil {
		c.h = &memHist{}
	}
	h := c.h
	n := h.len()
	at, found := 0, false
	if drop != 0 {
		at, found = h.find(drop)
	}
	if (n > 0 && h.at(n-1).ver >= ver) || drop >= ver || (found && at != 0) {
		t.hangVer(b, c, ver, c.val)
		if drop != 0 {
			t.unhangVer(b, c, drop)
		}
		t.setCell(b, c, val)
		return
	}
	u := undo{b: b, op: undoMove, c: c, old: c.val}
	h.insert(n, histRow{ver: ver, val: c.val})
	if found {
		u.op, u.e = undoMoveDrop, h.at(0)
		h.remove(0)
	}
	t.log = append(t.log, u)
	c.val = val
}

// setCell gives the cell c of bucket b the value val, as put of its key
// does.
func (t *memTxn) setCell(b bucket, c *memCell, val []byte) {
	t.log = append(t.log, undo{b: b, op: undoSet, c: c, old: c.val})
	c.val = val
}

// sameBytes reports whether a and b are the same memory (not only equal
// bytes).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// hintHist tells the history of the latest row's cell c that retention
// keeps keep versions (the latest row and keep-1 history rows), so that
// its ring grows to the keep entries it holds for a moment (the newest
// added before the oldest goes) and no further.
func hintHist(c *memCell, keep int64) {
	if c.h == nil {
		c.h = &memHist{}
	}
	c.h.most = int32(min(keep, math.MaxInt32))
}
