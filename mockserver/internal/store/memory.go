package store

import (
	"bytes"
	"slices"
	"sync"
)

// memBackend keeps every bucket in a map. Writers are exclusive; a failed
// update is rolled back from an undo log, so readers never see half a batch.
type memBackend struct {
	mu      sync.RWMutex
	closed  bool
	buckets [numBuckets]*memBucket
}

// memBucket is one keyspace with a lazily rebuilt sorted key list for scans.
type memBucket struct {
	m map[string][]byte

	cacheMu sync.Mutex // guards sorted and dirty against concurrent readers
	sorted  []string   // the keys of m in order, valid when !dirty
	dirty   bool
}

// keys returns the sorted keys of the bucket. Callers hold the backend lock
// (read or write), so m does not change underneath.
func (mb *memBucket) keys() []string {
	mb.cacheMu.Lock()
	defer mb.cacheMu.Unlock()
	if mb.dirty {
		mb.sorted = sortedKeys(mb.m)
		mb.dirty = false
	}
	return mb.sorted
}

func (mb *memBucket) touch() {
	mb.cacheMu.Lock()
	mb.dirty = true
	mb.cacheMu.Unlock()
}

func newMemBackend() *memBackend {
	b := &memBackend{}
	for i := range b.buckets {
		b.buckets[i] = &memBucket{m: map[string][]byte{}}
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

// undo restores one key (or, for a cleared bucket, the whole map).
type undo struct {
	b       bucket
	key     string
	old     []byte
	existed bool
	whole   map[string][]byte // non-nil: the bucket was cleared
}

type memTxn struct {
	b        *memBackend
	writable bool
	log      []undo
}

func (t *memTxn) rollback() {
	for i := len(t.log) - 1; i >= 0; i-- {
		u := t.log[i]
		mb := t.b.buckets[u.b]
		mb.touch()
		switch {
		case u.whole != nil:
			mb.m = u.whole
		case u.existed:
			mb.m[u.key] = u.old
		default:
			delete(mb.m, u.key)
		}
	}
	t.log = nil
}

func (t *memTxn) get(b bucket, key []byte) []byte {
	return t.b.buckets[b].m[string(key)]
}

func (t *memTxn) record(b bucket, key string) {
	old, ok := t.b.buckets[b].m[key]
	t.log = append(t.log, undo{b: b, key: key, old: old, existed: ok})
}

func (t *memTxn) put(b bucket, key, val []byte) error {
	if !t.writable {
		return errReadOnly
	}
	k := string(key)
	t.record(b, k)
	mb := t.b.buckets[b]
	if _, ok := mb.m[k]; !ok {
		mb.touch()
	}
	mb.m[k] = val // put's caller hands val over (see txn.put)
	return nil
}

func (t *memTxn) del(b bucket, key []byte) error {
	if !t.writable {
		return errReadOnly
	}
	k := string(key)
	mb := t.b.buckets[b]
	if _, ok := mb.m[k]; !ok {
		return nil
	}
	t.record(b, k)
	delete(mb.m, k)
	mb.touch()
	return nil
}

func (t *memTxn) clear(b bucket) error {
	if !t.writable {
		return errReadOnly
	}
	mb := t.b.buckets[b]
	t.log = append(t.log, undo{b: b, whole: mb.m})
	mb.m = map[string][]byte{}
	mb.touch()
	return nil
}

func (t *memTxn) scan(b bucket, prefix, from []byte, fn func(k, v []byte) (bool, error)) error {
	mb := t.b.buckets[b]
	return scanKeys(mb.keys(), mb.m, prefix, from, fn)
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func scanKeys(keys []string, m map[string][]byte, prefix, from []byte, fn func(k, v []byte) (bool, error)) error {
	start := prefix
	if bytes.Compare(from, start) > 0 {
		start = from
	}
	i, _ := slices.BinarySearch(keys, string(start))
	for ; i < len(keys); i++ {
		k := keys[i]
		if !bytes.HasPrefix([]byte(k), prefix) {
			return nil
		}
		v, ok := m[k]
		if !ok {
			continue
		}
		more, err := fn([]byte(k), v)
		if err != nil || !more {
			return err
		}
	}
	return nil
}
