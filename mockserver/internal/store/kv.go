package store

import (
	"encoding/binary"
	"errors"
)

// bucket names one keyspace of a backend. Both backends hold the same three.
type bucket uint8

const (
	// aspectRows holds versioned rows, keyed by rowKey(urn, aspect, version),
	// like GMS's metadata_aspect_v2 primary key (urn, aspect, version).
	aspectRows bucket = iota
	// entities holds one marker per entity whose key aspect was written,
	// keyed by lp(urn); the value is the key aspect's name.
	entities
	// timeseriesDocs holds timeseries documents, keyed by tsKey(...).
	timeseriesDocs
	numBuckets
)

var bucketNames = [numBuckets][]byte{
	aspectRows:     []byte("aspects"),
	entities:       []byte("entities"),
	timeseriesDocs: []byte("timeseries"),
}

// backend is the small key-value interface the versioning logic runs over.
// Keys within a bucket are ordered bytewise. update runs fn in one exclusive
// read-write transaction that commits only when fn returns nil (and, for a
// durable backend, only returns after the commit is on disk); view runs fn in a
// read-only snapshot. A txn and the slices it hands out are valid only inside
// fn.
type backend interface {
	update(fn func(txn) error) error
	view(fn func(txn) error) error
	close() error
}

// txn is one transaction of a backend.
type txn interface {
	get(b bucket, key []byte) []byte
	// put stores val under key. The backend may keep val itself: callers
	// pass a slice they no longer modify.
	put(b bucket, key, val []byte) error
	// putNew is put for a key that is most likely absent, such as a new
	// history row: the memory backend then leaves it out of its hash index.
	putNew(b bucket, key, val []byte) error
	del(b bucket, key []byte) error
	// scan calls fn for each key that has prefix, in ascending order, starting
	// at the first key >= max(prefix, from), until fn returns false or an error.
	// fn must not modify the bucket, k or v, nor keep k past its return.
	scan(b bucket, prefix, from []byte, fn func(k, v []byte) (bool, error)) error
	clear(b bucket) error
}

var errClosedTxn = errors.New("store: closed")

// lp appends s to dst with a uvarint length prefix, so that no byte value in
// a URN or aspect name can be confused with a separator.
func lp(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// lpBytes is lp for a byte slice.
func lpBytes(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

// readLP reads one length-prefixed string from b and returns it and the rest.
func readLP(b []byte) (string, []byte, bool) {
	v, rest, ok := readLPBytes(b)
	return string(v), rest, ok
}

// readLPBytes is readLP returning a subslice of b (not a copy).
func readLPBytes(b []byte) ([]byte, []byte, bool) {
	n, w := binary.Uvarint(b)
	if w <= 0 || uint64(len(b)-w) < n {
		return nil, nil, false
	}
	return b[w : w+int(n)], b[w+int(n):], true
}

// urnPrefix is the key prefix of every row of one entity.
func urnPrefix(urn string) []byte { return lp(nil, urn) }

// aspectPrefix is the key prefix of every row of one (urn, aspect).
func aspectPrefix(urn, aspect string) []byte {
	return appendAspectPrefix(make([]byte, 0, len(urn)+len(aspect)+2*binary.MaxVarintLen64+8), urn, aspect)
}

func appendAspectPrefix(dst []byte, urn, aspect string) []byte { return lp(lp(dst, urn), aspect) }

// rowKey is the key of one versioned row.
func rowKey(urn, aspect string, version int64) []byte {
	return binary.BigEndian.AppendUint64(aspectPrefix(urn, aspect), uint64(version))
}

// parseRowKey splits a rowKey.
func parseRowKey(k []byte) (urn, aspect string, version int64, ok bool) {
	urn, rest, ok := readLP(k)
	if !ok {
		return "", "", 0, false
	}
	aspect, rest, ok = readLP(rest)
	if !ok || len(rest) != 8 {
		return "", "", 0, false
	}
	return urn, aspect, int64(binary.BigEndian.Uint64(rest)), true
}

// tsTime encodes a timestamp so that bytewise order is numeric order,
// negative values included.
func tsTime(dst []byte, ms int64) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(ms)^(1<<63))
}

// tsKey is the key of one timeseries document: (urn, aspect, timestampMillis)
// followed by the rest of the document identity (granularity, messageId,
// partitionSpec).
func tsKey(urn, aspect string, ms int64, identity []byte) []byte {
	return append(tsTime(aspectPrefix(urn, aspect), ms), identity...)
}
