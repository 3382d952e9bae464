package store

import (
	"bytes"
	"encoding/binary"
	"slices"
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
	log     []undo    // the undo log, kept between updates to be reused
	cells   []memCell // unused cells of the last slab allocated (newCell)
	// plain keeps every history row in the tree (see memHist): the slow
	// path, for the tests that compare the two.
	plain bool
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

// memHist is the history of one aspect kept with its latest row's cell.
// While the latest row exists and tree is unset, its history rows are all
// in items and none is in the tree; when the latest row is deleted, they
// move to the tree. A latest row put while the tree holds history rows of
// its aspect gets tree set, and its new history rows go to the tree too.
type memHist struct {
	items []memItem // sorted by key
	tree  bool
}

// find returns the index of key in h's items, or where it would go.
func (h *memHist) find(key []byte) (int, bool) {
	n := len(h.items)
	if n == 0 || bytes.Compare(keyBytes(h.items[n-1].key), key) < 0 {
		return n, false // the usual case: a new highest version
	}
	return slices.BinarySearchFunc(h.items, key, func(it memItem, k []byte) int { return bytes.Compare(keyBytes(it.key), k) })
}

// keyBytes shares the bytes of a key (which must not be modified).
func keyBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// rowKeyShape reports whether k is a row key (rowKey's shape) and whether
// its version is not 0 (a history row's).
func rowKeyShape(k []byte) (valid, history bool) {
	_, rest, ok := readLPBytes(k)
	if !ok {
		return false, false
	}
	if _, rest, ok = readLPBytes(rest); !ok || len(rest) != 8 {
		return false, false
	}
	return true, binary.BigEndian.Uint64(rest) != 0
}

// owner returns the cell of the latest row of history row key's aspect
// when it exists and its history rows hang off it (see memHist).
func (bk *memBucket) owner(key []byte) *memCell {
	var buf [192]byte
	o := append(append(buf[:0], key[:len(key)-8]...), 0, 0, 0, 0, 0, 0, 0, 0)
	if c := bk.treeCell(o); c != nil && (c.h == nil || !c.h.tree) {
		return c
	}
	return nil
}

// hangingOwner is owner for a key of a bucket whose history rows hang:
// the owner's cell when key is a history row key that hangs or would.
func (bk *memBucket) hangingOwner(key []byte) *memCell {
	if !bk.hangs {
		return nil
	}
	if valid, history := rowKeyShape(key); valid && history {
		return bk.owner(key)
	}
	return nil
}

// cell returns the cell of key, nil when absent.
func (bk *memBucket) cell(key []byte) *memCell {
	if c := bk.keys[string(key)]; c != nil {
		return c
	}
	if o := bk.hangingOwner(key); o != nil {
		if o.h != nil {
			if i, ok := o.h.find(key); ok {
				return o.h.items[i].c
			}
		}
		return nil
	}
	return bk.treeCell(key)
}

// treeCell is cell for a key that does not hang, such as a latest row's.
func (bk *memBucket) treeCell(key []byte) *memCell {
	if c := bk.keys[string(key)]; c != nil {
		return c
	}
	if it, ok := bk.tree.Get(memItem{key: string(key)}); ok {
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

// maxKeptLog is the undo log capacity kept between updates.
const maxKeptLog = 4096

func (b *memBackend) update(fn func(txn) error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return errClosedTxn
	}
	t := &memTxn{b: b, writable: true, log: b.log[:0]}
	err := fn(t)
	if err != nil {
		t.rollback()
	}
	if cap(t.log) <= maxKeptLog {
		clear(t.log) // drop references to old values
		b.log = t.log[:0]
	}
	return err
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
type undo struct {
	b     bucket
	op    undoOp
	key   string
	c     *memCell
	old   []byte    // the value an in-place put replaced
	whole memBucket // the bucket before a clear
	owner *memCell  // the latest row's cell of a hanging history row
	hist  *memHist  // owner's history before it moved to the tree
}

type undoOp uint8

const (
	undoSet      undoOp = iota + 1 // give c its old value back
	undoInsert                     // remove the inserted key
	undoDelete                     // put the deleted key and its cell back
	undoClear                      // put the whole bucket back
	undoHang                       // remove key from owner's history
	undoUnhang                     // put key and its cell c back in owner's history
	undoHist                       // give owner its history back
	undoHangsOff                   // set the bucket's hangs again
)

type memTxn struct {
	b        *memBackend
	writable bool
	log      []undo
}

// sharesValues reports that stored values stay valid after the transaction
// (they are never modified in place), so they can be put again uncopied.
func (t *memTxn) sharesValues() bool { return true }

func (t *memTxn) rollback() {
	for i := len(t.log) - 1; i >= 0; i-- {
		u := t.log[i]
		bk := &t.b.buckets[u.b]
		switch u.op {
		case undoClear:
			*bk = u.whole
		case undoSet:
			u.c.val = u.old
		case undoInsert:
			bk.tree.Delete(memItem{key: u.key})
			delete(bk.keys, u.key)
		case undoDelete:
			bk.tree.ReplaceOrInsert(memItem{u.key, u.c})
		case undoHang:
			if i, ok := u.owner.h.find(keyBytes(u.key)); ok {
				u.owner.h.items = slices.Delete(u.owner.h.items, i, i+1)
			}
		case undoUnhang:
			i, _ := u.owner.h.find(keyBytes(u.key))
			u.owner.h.items = slices.Insert(u.owner.h.items, i, memItem{u.key, u.c})
		case undoHist:
			u.owner.h = u.hist
		case undoHangsOff:
			bk.hangs = true
		}
	}
	t.log = t.log[:0]
}

func (t *memTxn) get(b bucket, key []byte) []byte {
	if c := t.b.buckets[b].cell(key); c != nil {
		return c.val
	}
	return nil
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
			if o := bk.owner(key); o != nil {
				t.hang(b, o, key, val)
				return nil
			}
		}
	}
	c := bk.keys[string(key)]
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
		c = bk.cell(key)
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

// checkTreeHist sets tree in the history of the latest row it, just
// inserted, when the tree holds history rows of its aspect.
func (bk *memBucket) checkTreeHist(it memItem) {
	n := len(it.key)
	bk.tree.AscendGreaterOrEqual(it, func(next memItem) bool {
		if next.key == it.key {
			return true
		}
		if len(next.key) == n && next.key[:n-8] == it.key[:n-8] {
			it.c.h = &memHist{tree: true}
		}
		return false
	})
}

// hang puts the history row key, of val, in the history of its latest
// row's cell o.
func (t *memTxn) hang(b bucket, o *memCell, key, val []byte) {
	if o.h == nil {
		o.h = &memHist{}
	}
	h := o.h
	i, found := h.find(key)
	if found {
		c := h.items[i].c
		t.log = append(t.log, undo{b: b, op: undoSet, c: c, old: c.val})
		c.val = val
		return
	}
	it := memItem{string(key), t.b.newCell(val)}
	if i == len(h.items) {
		h.items = append(h.items, it)
	} else {
		h.items = slices.Insert(h.items, i, it)
	}
	t.log = append(t.log, undo{b: b, op: undoHang, key: it.key, owner: o})
}

// unhang moves the history hanging off the latest row's cell o to the tree.
func (t *memTxn) unhang(b bucket, o *memCell) {
	bk := &t.b.buckets[b]
	for _, it := range o.h.items {
		bk.tree.ReplaceOrInsert(it)
		t.log = append(t.log, undo{b: b, op: undoInsert, key: it.key})
	}
	t.log = append(t.log, undo{b: b, op: undoHist, owner: o, hist: o.h})
	o.h = nil
}

// unhangAll moves every hanging history row of bucket b to the tree, and
// stops history rows from hanging: a key that is not a row key is put.
func (t *memTxn) unhangAll(b bucket) {
	bk := &t.b.buckets[b]
	var owners []*memCell
	bk.tree.Ascend(func(it memItem) bool {
		if it.c.h != nil && len(it.c.h.items) != 0 {
			owners = append(owners, it.c)
		}
		return true
	})
	for _, o := range owners {
		t.unhang(b, o)
	}
	bk.hangs = false
	t.log = append(t.log, undo{b: b, op: undoHangsOff})
}

func (t *memTxn) del(b bucket, key []byte) error {
	if !t.writable {
		return errReadOnly
	}
	bk := &t.b.buckets[b]
	if bk.hangs {
		if valid, history := rowKeyShape(key); valid && history {
			if o := bk.owner(key); o != nil {
				if o.h == nil {
					return nil
				}
				i, ok := o.h.find(key)
				if !ok {
					return nil
				}
				it := o.h.items[i]
				o.h.items = slices.Delete(o.h.items, i, i+1)
				t.log = append(t.log, undo{b: b, op: undoUnhang, key: it.key, c: it.c, owner: o})
				return nil
			}
		} else if valid {
			if c := bk.cell(key); c != nil && c.h != nil && len(c.h.items) != 0 {
				t.unhang(b, c) // its history stays
			}
		}
	}
	old, existed := bk.tree.Delete(memItem{key: string(key)})
	if !existed {
		return nil
	}
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
	t.log = append(t.log, undo{b: b, op: undoClear, whole: t.b.buckets[b]})
	t.b.buckets[b] = t.b.newBucket(b)
	return nil
}

func (t *memTxn) scan(b bucket, prefix, from []byte, fn func(k, v []byte) (bool, error)) error {
	start := prefix
	if bytes.Compare(from, start) > 0 {
		start = from
	}
	var err error
	emit := func(it memItem) bool {
		// The key is shared, not copied: fn must not modify it (see txn.scan).
		k := keyBytes(it.key)
		if !bytes.HasPrefix(k, prefix) {
			return false
		}
		var more bool
		more, err = fn(k, it.c.val)
		return err == nil && more
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
			items := before.c.h.items
			i, _ := before.c.h.find(start)
			for _, it := range items[i:] {
				if !emit(it) {
					return err
				}
			}
		}
	}
	bk.tree.AscendGreaterOrEqual(pivot, func(it memItem) bool {
		if !emit(it) {
			return false
		}
		if it.c.h != nil {
			for _, h := range it.c.h.items {
				if !emit(h) {
					return false
				}
			}
		}
		return true
	})
	return err
}
