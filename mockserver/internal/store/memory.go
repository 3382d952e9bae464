package store

import (
	"bytes"
	"sort"
	"sync"
	"unsafe"

	"github.com/google/btree"
)

// memBackend keeps every bucket in an ordered B-tree, so that a put and the
// seek of a prefix scan are O(log n), with a hash map beside it that indexes
// the keys written with put, so that getting one of them is O(1) and putting
// it again changes its value in place. Writers are exclusive; a failed
// update is rolled back from an undo log, so readers never see half a batch.
type memBackend struct {
	mu      sync.RWMutex
	closed  bool
	buckets [numBuckets]memBucket
	hot     hotCell   // the writer's (see memTxn.hot)
	cells   []memCell // unused cells of the last slab allocated (newCell)
	// plain keeps every history row in the tree (see memHist): the slow
	// path, for the tests that compare the two.
	plain bool
	// noSwap keeps writes off swapPreBuilt: the tests' reference.
	noSwap bool
	// noMemo keeps preBuild from taking a field of its memo (see
	// fieldMemo): the tests' reference.
	noMemo bool
	// epoch moves whenever a cell may leave its bucket (a delete, a clear,
	// a rollback) or history rows stop hanging: a cell found in an epoch
	// is still its key's while the epoch has not moved (see swapPreBuilt).
	epoch uint64
}

// cellSlab is the number of cells allocated at once.
const cellSlab = 256

// newCell returns a cell holding val, from a slab of cells allocated
// together (a slab stays allocated while any of its cells is in use).
func (b *memBackend) newCell(val []byte) *memCell {
	if len(b.cells) == 0 {
		b.cells = make([]memCell, cellSlab)
	}
	c := &b.cells[0]
	b.cells = b.cells[1:]
	c.val = val
	return c
}

// memBucket is one bucket. Every key is in the tree; the map indexes a
// subset of them (those put with put rather than putNew) with the same cell
// as the tree's. A key absent from the map is looked up in the tree.
//
// In the aspectRows bucket, while every key put is a row key (see
// rowKeyShape), a history row is not in the tree but hangs off the cell of
// its aspect's latest row (see memHist) when that row exists: the row keys
// of one aspect are adjacent, the latest first (version 0), so a scan meets
// them right after it, and adding a version costs no tree insert.
type memBucket struct {
	tree *btree.BTreeG[memItem]
	keys map[string]*memCell
	// hangs is set while history rows may hang off latest rows' cells: in
	// aspectRows, until a key that is not a row key is put.
	hangs bool
}

// memItem is one key and its cell in a bucket's tree. The key is a private
// copy of the caller's.
type memItem struct {
	key string
	c   *memCell
}

// memCell holds a key's value. A put of the key replaces val; the bytes
// it held are never modified.
type memCell struct {
	val []byte
	h   *memHist // the history rows hanging off a latest row's cell, or nil
}

// keyBytes shares the bytes of a key (which must not be modified).
func keyBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// rowCell is treeCell in aspectRows, through the hot cell: a write reads
// an aspect's latest row, moves it to history and replaces it, three
// lookups of one key.
func (t *memTxn) rowCell(key []byte) *memCell {
	if c := t.hot.find(key); c != nil {
		return c
	}
	c := t.b.buckets[aspectRows].treeCell(key)
	if c != nil {
		t.heat(key, c)
	}
	return c
}

// heat makes c, the cell of key in aspectRows, the hot cell.
func (t *memTxn) heat(key []byte, c *memCell) {
	if h := t.hot; h != nil {
		h.key = append(h.key[:0], key...)
		h.c = c
	}
}

// hotCell is a cell of aspectRows and its key; c is nil for none.
type hotCell struct {
	key []byte
	c   *memCell
}

// find returns the cell of key when it is h's, nil otherwise (h may be
// nil).
func (h *hotCell) find(key []byte) *memCell {
	if h != nil && h.c != nil && string(key) == string(h.key) {
		return h.c
	}
	return nil
}

// drop forgets h's cell (h may be nil).
func (h *hotCell) drop() {
	if h != nil {
		h.c = nil
	}
}

// get returns the value of key in bucket b, nil when absent.
func (t *memTxn) get(b bucket, key []byte) []byte {
	bk := &t.b.buckets[b]
	if b == aspectRows {
		if c := t.hot.find(key); c != nil {
			return c.val
		}
	}
	if c := bk.keys[string(key)]; c != nil {
		if b == aspectRows {
			t.heat(key, c)
		}
		return c.val
	}
	if o := t.hangingOwner(bk, key); o != nil {
		if o.h != nil {
			if i, ok := o.h.find(rowVer(key)); ok {
				return o.h.val(o.h.at(i))
			}
		}
		return nil
	}
	if c := bk.treeCell(key); c != nil {
		return c.val
	}
	return nil
}

// treeCell returns the cell of a key that does not hang, such as a latest
// row's, nil when absent.
func (bk *memBucket) treeCell(key []byte) *memCell {
	if c := bk.keys[string(key)]; c != nil {
		return c
	}
	if it, ok := bk.tree.Get(memItem{key: unsafe.String(unsafe.SliceData(key), len(key))}); ok { // Get keeps no key
		return it.c
	}
	return nil
}

func memLess(a, b memItem) bool { return a.key < b.key }

// memDegree is the B-tree degree: nodes of 31..63 items keep the tree
// shallow (3 levels at 100,000 keys) without long copies on insert.
const memDegree = 32

// memFreeList is shared by every tree of every memory store: the nodes a
// cleared or deleted tree gives back are reused by the next one.
var memFreeList = btree.NewFreeListG[memItem](btree.DefaultFreeListSize)

// newBucket returns an empty bucket b.
func (b *memBackend) newBucket(name bucket) memBucket {
	return memBucket{tree: btree.NewWithFreeListG(memDegree, memLess, memFreeList), keys: map[string]*memCell{},
		hangs: name == aspectRows && !b.plain}
}

func newMemBackend() *memBackend {
	b := &memBackend{}
	for i := range b.buckets {
		b.buckets[i] = b.newBucket(bucket(i))
	}
	return b
}

// maxKeptLog is the undo log capacity kept between updates, maxKeptHotKey
// the hot cell's key's.
const (
	maxKeptLog    = 4096
	maxKeptHotKey = 1024
)

func (b *memBackend) update(fn func(txn) error) error {
	lp, err := b.updateThen(fn)
	releaseLog(lp)
	return err
}

// updateThen is update, returning the undo log it used for releaseLog:
// the log comes from undoLogs and goes back there cleared (its references
// to old values dropped) after the writer lock, which so covers only the
// update itself.
func (b *memBackend) updateThen(fn func(txn) error) (*[]undo, error) {
	lp := undoLogs.Get().(*[]undo)
	log, err := b.updateLocked(fn, (*lp)[:0])
	*lp = log
	return lp, err
}

// releaseLog clears the undo log of an update and keeps it for the next
// one, unless it grew too large.
func releaseLog(lp *[]undo) {
	if log := *lp; cap(log) <= maxKeptLog {
		clear(log)
		*lp = log[:0]
		undoLogs.Put(lp)
	}
}

// undoLogs are the undo logs kept between updates (see update).
var undoLogs = sync.Pool{New: func() any { return new([]undo) }}

// updateLocked is update under the writer lock, with the undo log log,
// which it returns as grown.
func (b *memBackend) updateLocked(fn func(txn) error, log []undo) ([]undo, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return log, errClosedTxn
	}
	t := &memTxn{b: b, writable: true, log: log}
	if !b.plain {
		t.hot = &b.hot
	}
	defer t.hot.drop()
	err := fn(t)
	used := t.log // what the update logged, which update clears
	if err != nil {
		t.rollback()
	}
	if cap(b.hot.key) > maxKeptHotKey {
		b.hot.key = nil
	}
	return used, err
}

func (b *memBackend) view(fn func(txn) error) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return errClosedTxn
	}
	return fn(&memTxn{b: b})
}

func (b *memBackend) close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return nil
}

// undo restores one key (or, for a cleared bucket, the whole bucket).
// It is kept small, with few pointers: a write logs two or three.
type undo struct {
	b   bucket
	op  undoOp
	key string
	// c is the cell set or deleted, or for the history operations the
	// latest row's cell whose history changed.
	c     *memCell
	old   []byte     // the value an in-place put replaced
	e     histRow    // the history entry hung, replaced or removed
	saved *undoSaved // what a clear or an unhang replaced
}

// undoSaved is what the rarer undo operations restore.
type undoSaved struct {
	whole memBucket // the bucket before a clear
	hist  *memHist  // c's history before it moved to the tree
}

type undoOp uint8

const (
	undoSet      undoOp = iota + 1 // give c its old value back
	undoInsert                     // remove the inserted key
	undoDelete                     // put the deleted key and its cell back
	undoClear                      // put the whole bucket back
	undoHang                       // remove e from c's history
	undoHistSet                    // put e back in c's history
	undoUnhang                     // put e back in c's history
	undoHist                       // give c its history back
	undoHangsOff                   // set the bucket's hangs again
	undoMove                       // remove c's newest history row, give c its old value back
	undoMoveDrop                   // undoMove, and put e back as c's oldest history row
)

type memTxn struct {
	b        *memBackend
	writable bool
	log      []undo
	// hot is the cell of aspectRows where a key that does not hang was
	// last found (see rowCell), the backend's; nil in a read-only
	// transaction and in a plain backend (the tests' reference). A delete,
	// a clear, a rollback and the update's end drop it.
	hot *hotCell
}

// sharesValues reports that stored values stay valid after the transaction
// (they are never modified in place), so they can be put again uncopied.
func (t *memTxn) sharesValues() bool { return true }

func (t *memTxn) rollback() {
	t.hot.drop()
	t.b.epoch++
	for i := len(t.log) - 1; i >= 0; i-- {
		u := t.log[i]
		bk := &t.b.buckets[u.b]
		switch u.op {
		case undoClear:
			*bk = u.saved.whole
		case undoSet:
			u.c.val = u.old
		case undoInsert:
			bk.tree.Delete(memItem{key: u.key})
			delete(bk.keys, u.key)
		case undoDelete:
			bk.tree.ReplaceOrInsert(memItem{u.key, u.c})
		case undoHang:
			h := u.c.h
			if i, ok := h.find(u.e.ver); ok {
				h.remove(i)
			}
		case undoHistSet:
			h := u.c.h
			i, _ := h.find(u.e.ver)
			h.set(i, u.e)
		case undoUnhang:
			h := u.c.h
			i, _ := h.find(u.e.ver)
			h.insert(i, u.e)
		case undoHist:
			u.c.h = u.saved.hist
		case undoHangsOff:
			bk.hangs = true
		case undoMove, undoMoveDrop: // see moveToHistory
			h := u.c.h
			h.remove(h.len() - 1)
			if u.op == undoMoveDrop {
				h.insert(0, u.e)
			}
			u.c.val = u.old
		}
	}
	t.log = t.log[:0]
}

func (t *memTxn) put(b bucket, key, val []byte) error {
	return t.store(b, key, val, true)
}

func (t *memTxn) putNew(b bucket, key, val []byte) error {
	return t.store(b, key, val, false)
}

// store is put (index: the map indexes the key) and putNew.
func (t *memTxn) store(b bucket, key, val []byte, index bool) error {
	if !t.writable {
		return errReadOnly
	}
	// put's caller hands val over (see txn.put); the key is copied.
	bk := &t.b.buckets[b]
	latestRow := false // key is a row key of version 0 (when bk.hangs)
	if bk.hangs {
		valid, history := rowKeyShape(key)
		switch {
		case !valid:
			t.unhangAll(b)
		case !history:
			latestRow = true
		default:
			if o := t.owner(key); o != nil {
				t.hang(b, o, key, val)
				return nil
			}
		}
	}
	var c *memCell
	if b == aspectRows {
		c = t.hot.find(key)
	}
	if c == nil {
		c = bk.keys[string(key)]
	}
	if c == nil && !index {
		// Most likely a new key: the insert finds out.
		it := memItem{string(key), t.b.newCell(val)}
		if old, replaced := bk.tree.ReplaceOrInsert(it); replaced {
			bk.tree.ReplaceOrInsert(old) // it was not: change it in place
			c = old.c
		} else {
			t.log = append(t.log, undo{b: b, op: undoInsert, key: it.key})
			if latestRow {
				bk.checkTreeHist(it)
			}
			return nil
		}
	}
	if c == nil {
		c = bk.treeCell(key) // key does not hang
	}
	if c != nil {
		t.log = append(t.log, undo{b: b, op: undoSet, c: c, old: c.val})
		c.val = val
		return nil
	}
	it := memItem{string(key), t.b.newCell(val)}
	bk.tree.ReplaceOrInsert(it)
	bk.keys[it.key] = it.c
	t.log = append(t.log, undo{b: b, op: undoInsert, key: it.key})
	if latestRow {
		bk.checkTreeHist(it)
	}
	return nil
}

func (t *memTxn) del(b bucket, key []byte) error {
	if !t.writable {
		return errReadOnly
	}
	bk := &t.b.buckets[b]
	var valid, history bool
	if bk.hangs {
		if valid, history = rowKeyShape(key); valid && history {
			// A history row that hangs leaves the latest rows' cells, and
			// the hot cell, as they are (retention deletes one per write).
			if o := t.owner(key); o != nil {
				t.unhangVer(b, o, rowVer(key))
				return nil
			}
		}
	}
	if b == aspectRows {
		t.hot.drop()
	}
	if valid && !history { // a latest row, whose history rows may hang
		if c := bk.treeCell(key); c != nil && c.h.len() != 0 {
			t.unhang(b, string(key), c) // its history stays
		}
	}
	old, existed := bk.tree.Delete(memItem{key: string(key)})
	if !existed {
		return nil
	}
	t.b.epoch++
	delete(bk.keys, old.key)
	t.log = append(t.log, undo{b: b, op: undoDelete, key: old.key, c: old.c})
	return nil
}

func (t *memTxn) clear(b bucket) error {
	if !t.writable {
		return errReadOnly
	}
	// The old bucket is kept whole for a rollback, so it is not cleared
	// (which would hand its nodes to the free list) but replaced.
	t.log = append(t.log, undo{b: b, op: undoClear, saved: &undoSaved{whole: t.b.buckets[b]}})
	t.b.epoch++
	if b == aspectRows {
		t.hot.drop()
	}
	t.b.buckets[b] = t.b.newBucket(b)
	return nil
}

func (t *memTxn) scan(b bucket, prefix, from []byte, fn func(k, v []byte) (bool, error)) error {
	start := prefix
	if bytes.Compare(from, start) > 0 {
		start = from
	}
	var err error
	emit := func(k, v []byte) bool {
		if !bytes.HasPrefix(k, prefix) {
			return false
		}
		var more bool
		more, err = fn(k, v)
		return err == nil && more
	}
	// The keys of tree items are shared, not copied; those of history rows
	// are built in hk, one after the other: fn must not modify k nor keep it
	// past its return (see txn.scan).
	var hk []byte
	emitHist := func(owner memItem, from int) bool {
		h := owner.c.h
		return h.each(from, func(e histRow) bool {
			hk = histKey(hk[:0], owner.key, e.ver)
			return emit(hk, h.val(e))
		})
	}
	bk := &t.b.buckets[b]
	pivot := memItem{key: string(start)}
	if bk.hangs {
		// The history rows at or after start of an aspect whose latest row
		// is before it.
		var before memItem
		bk.tree.DescendLessOrEqual(pivot, func(it memItem) bool {
			before = it
			return false
		})
		if before.c != nil && before.key != pivot.key && before.c.h != nil {
			h := before.c.h
			i := sort.Search(h.len(), func(i int) bool {
				hk = histKey(hk[:0], before.key, h.at(i).ver)
				return bytes.Compare(hk, start) >= 0
			})
			if !emitHist(before, i) {
				return err
			}
		}
	}
	bk.tree.AscendGreaterOrEqual(pivot, func(it memItem) bool {
		if !emit(keyBytes(it.key), it.c.val) {
			return false
		}
		if it.c.h != nil {
			return emitHist(it, 0)
		}
		return true
	})
	return err
}
