package store

import (
	"bytes"
	"sync"

	"github.com/google/btree"
)

// memBackend keeps every bucket in an ordered B-tree, so that a put, a get
// and the seek of a prefix scan are O(log n). Writers are exclusive; a failed
// update is rolled back from an undo log, so readers never see half a batch.
type memBackend struct {
	mu      sync.RWMutex
	closed  bool
	buckets [numBuckets]*btree.BTreeG[memItem]
}

// memItem is one key and its value in a bucket's tree. Keys are byte
// slices, so that a lookup probes the tree with the caller's key without a
// copy; a stored key is a private copy and never modified.
type memItem struct {
	key, val []byte
}

func memLess(a, b memItem) bool { return bytes.Compare(a.key, b.key) < 0 }

// memDegree is the B-tree degree: nodes of 31..63 items keep the tree
// shallow (3 levels at 100,000 keys) without long copies on insert.
const memDegree = 32

// memFreeList is shared by every tree of every memory store: the nodes a
// cleared or deleted tree gives back are reused by the next one.
var memFreeList = btree.NewFreeListG[memItem](btree.DefaultFreeListSize)

func newMemTree() *btree.BTreeG[memItem] {
	return btree.NewWithFreeListG(memDegree, memLess, memFreeList)
}

func newMemBackend() *memBackend {
	b := &memBackend{}
	for i := range b.buckets {
		b.buckets[i] = newMemTree()
	}
	return b
}

func (b *memBackend) update(fn func(txn) error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return errClosedTxn
	}
	t := &memTxn{b: b, writable: true, log: make([]undo, 0, 16)}
	if err := fn(t); err != nil {
		t.rollback()
		return err
	}
	return nil
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

// undo restores one key (or, for a cleared bucket, the whole tree).
type undo struct {
	b       bucket
	key     []byte
	old     []byte
	existed bool
	whole   *btree.BTreeG[memItem] // non-nil: the bucket was cleared
}

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
		switch {
		case u.whole != nil:
			t.b.buckets[u.b] = u.whole
		case u.existed:
			t.b.buckets[u.b].ReplaceOrInsert(memItem{u.key, u.old})
		default:
			t.b.buckets[u.b].Delete(memItem{key: u.key})
		}
	}
	t.log = nil
}

func (t *memTxn) get(b bucket, key []byte) []byte {
	it, ok := t.b.buckets[b].Get(memItem{key: key})
	if !ok {
		return nil
	}
	return it.val
}

func (t *memTxn) put(b bucket, key, val []byte) error {
	if !t.writable {
		return errReadOnly
	}
	// put's caller hands val over (see txn.put); the key is copied.
	it := memItem{bytes.Clone(key), val}
	old, existed := t.b.buckets[b].ReplaceOrInsert(it)
	t.log = append(t.log, undo{b: b, key: it.key, old: old.val, existed: existed})
	return nil
}

func (t *memTxn) del(b bucket, key []byte) error {
	if !t.writable {
		return errReadOnly
	}
	old, existed := t.b.buckets[b].Delete(memItem{key: key})
	if existed {
		t.log = append(t.log, undo{b: b, key: old.key, old: old.val, existed: true})
	}
	return nil
}

func (t *memTxn) clear(b bucket) error {
	if !t.writable {
		return errReadOnly
	}
	// The old tree is kept whole for a rollback, so it is not cleared (which
	// would hand its nodes to the free list) but replaced.
	t.log = append(t.log, undo{b: b, whole: t.b.buckets[b]})
	t.b.buckets[b] = newMemTree()
	return nil
}

func (t *memTxn) scan(b bucket, prefix, from []byte, fn func(k, v []byte) (bool, error)) error {
	start := prefix
	if bytes.Compare(from, start) > 0 {
		start = from
	}
	var err error
	t.b.buckets[b].AscendGreaterOrEqual(memItem{key: start}, func(it memItem) bool {
		if !bytes.HasPrefix(it.key, prefix) {
			return false
		}
		var more bool
		more, err = fn(it.key, it.val)
		return err == nil && more
	})
	return err
}
