package store

import (
	"bytes"
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
type memBucket struct {
	tree *btree.BTreeG[memItem]
	keys map[string]*memCell
}

// memItem is one key and its cell in a bucket's tree. The key is a private
// copy of the caller's.
type memItem struct {
	key string
	c   *memCell
}

// memCell holds a key's value. A put of the key replaces val; the bytes
// it held are never modified.
type memCell struct{ val []byte }

// cell returns the cell of key, nil when absent.
func (bk *memBucket) cell(key []byte) *memCell {
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

func newMemBucket() memBucket {
	return memBucket{tree: btree.NewWithFreeListG(memDegree, memLess, memFreeList), keys: map[string]*memCell{}}
}

func newMemBackend() *memBackend {
	b := &memBackend{}
	for i := range b.buckets {
		b.buckets[i] = newMemBucket()
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
}

type undoOp uint8

const (
	undoSet    undoOp = iota + 1 // give c its old value back
	undoInsert                   // remove the inserted key
	undoDelete                   // put the deleted key and its cell back
	undoClear                    // put the whole bucket back
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
	c := bk.keys[string(key)]
	if c == nil && !index {
		// Most likely a new key: the insert finds out.
		it := memItem{string(key), t.b.newCell(val)}
		if old, replaced := bk.tree.ReplaceOrInsert(it); replaced {
			bk.tree.ReplaceOrInsert(old) // it was not: change it in place
			c = old.c
		} else {
			t.log = append(t.log, undo{b: b, op: undoInsert, key: it.key})
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
	return nil
}

func (t *memTxn) del(b bucket, key []byte) error {
	if !t.writable {
		return errReadOnly
	}
	bk := &t.b.buckets[b]
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
	t.b.buckets[b] = newMemBucket()
	return nil
}

func (t *memTxn) scan(b bucket, prefix, from []byte, fn func(k, v []byte) (bool, error)) error {
	start := prefix
	if bytes.Compare(from, start) > 0 {
		start = from
	}
	var err error
	t.b.buckets[b].tree.AscendGreaterOrEqual(memItem{key: string(start)}, func(it memItem) bool {
		// The key is shared, not copied: fn must not modify it (see txn.scan).
		k := unsafe.Slice(unsafe.StringData(it.key), len(it.key))
		if !bytes.HasPrefix(k, prefix) {
			return false
		}
		var more bool
		more, err = fn(k, it.c.val)
		return err == nil && more
	})
	return err
}
