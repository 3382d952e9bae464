package store

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// boltBackend keeps the buckets in one bbolt file. bbolt allows one writer
// at a time and fsyncs on every commit, so update returns only after the
// batch is durable.
type boltBackend struct {
	db *bolt.DB
}

func openBoltBackend(path string) (*boltBackend, error) {
	// Another process holding the file's lock fails the open at once rather
	// than after a long wait, with a message a user can act on.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 200 * time.Millisecond})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("store: %s is locked by another process (bbolt's exclusive file lock; is another server using this data directory?): %w", path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range bucketNames {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: create buckets in %s: %w", path, err)
	}
	return &boltBackend{db: db}, nil
}

func (b *boltBackend) update(fn func(txn) error) error {
	return mapBoltErr(b.db.Update(func(tx *bolt.Tx) error { return fn(boltTxn{tx}) }))
}

func (b *boltBackend) view(fn func(txn) error) error {
	return mapBoltErr(b.db.View(func(tx *bolt.Tx) error { return fn(boltTxn{tx}) }))
}

func (b *boltBackend) close() error { return b.db.Close() }

func mapBoltErr(err error) error {
	if errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
		return errClosedTxn
	}
	return err
}

type boltTxn struct{ tx *bolt.Tx }

func (t boltTxn) bucket(b bucket) *bolt.Bucket { return t.tx.Bucket(bucketNames[b]) }

func (t boltTxn) get(b bucket, key []byte) []byte { return t.bucket(b).Get(key) }

func (t boltTxn) put(b bucket, key, val []byte) error {
	if !t.tx.Writable() {
		return errReadOnly
	}
	return t.bucket(b).Put(key, val)
}

func (t boltTxn) putNew(b bucket, key, val []byte) error { return t.put(b, key, val) }

func (t boltTxn) del(b bucket, key []byte) error {
	if !t.tx.Writable() {
		return errReadOnly
	}
	return t.bucket(b).Delete(key)
}

func (t boltTxn) clear(b bucket) error {
	if !t.tx.Writable() {
		return errReadOnly
	}
	name := bucketNames[b]
	if err := t.tx.DeleteBucket(name); err != nil {
		return err
	}
	_, err := t.tx.CreateBucket(name)
	return err
}

func (t boltTxn) scan(b bucket, prefix, from []byte, fn func(k, v []byte) (bool, error)) error {
	start := prefix
	if bytes.Compare(from, start) > 0 {
		start = from
	}
	c := t.bucket(b).Cursor()
	for k, v := c.Seek(start); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		more, err := fn(k, v)
		if err != nil || !more {
			return err
		}
	}
	return nil
}
