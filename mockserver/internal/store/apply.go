package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/catalogkit/datahub-go/internal/jsonx"
)

func beUint64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }

func getRow(t txn, urn, aspect string, version int64) (row, bool, error) {
	v := t.get(aspectRows, rowKey(urn, aspect, version))
	if v == nil {
		return row{}, false, nil
	}
	r, err := decodeRow(v)
	return r, err == nil, err
}

// getRowShared reads the row at key for use inside t only: its Value and
// SystemMetadata share the stored bytes, which it also returns. Its
// CreatedBy is decoded only when createdBy is set.
func getRowShared(t txn, key []byte, createdBy bool) (row, []byte, bool, error) {
	v := t.get(aspectRows, key)
	if v == nil {
		return row{}, nil, false, nil
	}
	r, err := decodeRowParts(v, createdBy)
	return r, v, err == nil, err
}

// storedCopy is a stored value of t to put again: the memory backend's are
// never modified, so it shares them; bbolt's are valid only inside t.
func storedCopy(t txn, v []byte) []byte {
	if s, ok := t.(interface{ sharesValues() bool }); ok && s.sharesValues() {
		return v
	}
	return bytes.Clone(v)
}

// putLatest stores r as the latest row (version 0) of (urn, aspect) under
// key. It is handed to the recorder as built, so that its event needs no
// decoding.
func putLatest(t txn, key []byte, urn, aspect string, r row) error {
	val, built := r.encodeShared()
	return putEncoded(t, key, urn, aspect, val, built)
}

// putEncoded is putLatest of a row already encoded as val, which decodes to
// built.
func putEncoded(t txn, key []byte, urn, aspect string, val []byte, built row) error {
	if rec, ok := t.(*recorder); ok {
		return rec.putLatest(key, val, urn, aspect, built)
	}
	return t.put(aspectRows, key, val)
}

// maxHistoryVersion is the highest history version of (urn, aspect), 0 if none.
func maxHistoryVersion(t txn, urn, aspect string) (int64, error) {
	var max int64
	err := t.scan(aspectRows, aspectPrefix(urn, aspect), nil, func(k, _ []byte) (bool, error) {
		if _, _, v, ok := parseRowKey(k); ok && v > max {
			max = v
		}
		return true, nil
	})
	return max, err
}

// rowVersion is the version a latest row reports: its systemMetadata.version,
// or 1 when that is missing (ConditionalWriteValidator and
// AspectDao.nextVersionResolution both floor an unversioned row 0 at 1).
// A row of the current format carries it.
func rowVersion(r row) int64 {
	if r.Version >= 1 {
		return r.Version
	}
	if v, ok := sysVersion(r.SystemMetadata); ok && v >= 1 {
		return v
	}
	return 1
}

func sysVersion(sm json.RawMessage) (int64, bool) {
	if len(sm) == 0 {
		return 0, false
	}
	version, found, ok := versionField(sm)
	if !ok || !found {
		return 0, false
	}
	v, err := strconv.ParseInt(version, 10, 64)
	return v, err == nil
}

// outcome is a write's Result under the writer lock: its version is
// formatted after the lock.
type outcome struct {
	version            int64 // 0: none
	skipped, unchanged bool
}

// applyOne performs one write inside t and returns its outcome. The store's
// change events come from the rows it puts and deletes (see recorder).
func applyOne(t txn, i int, w *Write, p *prepared) (outcome, error) {
	if w.DeleteEntity && w.URN != "" {
		_, _, err := deleteEntity(t, w.URN)
		return outcome{}, err
	}
	if p.err != nil {
		return outcome{}, p.err
	}
	if w.Timeseries {
		if err := putKey(t, i, w, p); err != nil {
			return outcome{}, err
		}
		if p.doc.err != nil {
			return outcome{}, p.doc.err
		}
		return outcome{}, putDoc(t, w, p)
	}
	if w.Check == nil && w.Transform == nil {
		if o, ok := swapPreBuilt(t, w, p); ok {
			return o, nil
		}
	}
	key := p.latestKey()
	raw := t.get(aspectRows, key)
	if pre := p.pre.builtOnRaw(raw); pre != nil && w.Check == nil && w.Transform == nil {
		// The row was built on this latest row, which it changes (or
		// refreshes): no need to decode it.
		if err := putKey(t, i, w, p); err != nil {
			return outcome{}, err
		}
		if pre.unchanged {
			return putRefreshed(t, w, key, pre)
		}
		return putPreBuilt(t, w, p, key, raw, pre)
	}
	cur, err := readLatestRaw(key, raw)
	if err != nil {
		return outcome{}, err
	}
	if w.Check != nil {
		if err := w.Check(cur.state(t, p.entityKey())); errors.Is(err, ErrSkip) {
			return outcome{skipped: true}, nil
		} else if err != nil {
			return outcome{}, &CheckError{Index: i, Err: err}
		}
	}
	value, hash, err := transformed(i, w, p, cur)
	if err != nil {
		return outcome{}, err
	}
	if err := putKey(t, i, w, p); err != nil {
		return outcome{}, err
	}
	if cur.exists && p.batch.rules.Unchanged(cur.row.Value, value, cur.row.Hash, hash) {
		return refreshLatest(t, w, p, cur, hash)
	}
	return putVersion(t, w, p, cur, value, hash)
}

// checkWrite refuses a write the store cannot perform at all (its
// systemMetadata and document are the Rules').
func checkWrite(i int, w *Write) error {
	if w.URN == "" || w.Aspect == "" {
		return fmt.Errorf("%w: item %d: empty urn or aspect name", ErrInvalidWrite, i)
	}
	if w.Transform == nil && !w.Compact && !jsonx.IsObject(w.Value) {
		return fmt.Errorf("%w: item %d: %s %s: value is not a JSON object", ErrInvalidWrite, i, w.URN, w.Aspect)
	}
	if w.Transform != nil && w.Timeseries {
		return fmt.Errorf("%w: item %d: %s %s: a transform of a timeseries aspect", ErrInvalidWrite, i, w.URN, w.Aspect)
	}
	return nil
}

// latest is an aspect's latest row as a write finds it.
type latest struct {
	key    []byte // its row key
	row    row    // decoded, sharing raw, without CreatedBy
	table  []byte // the table of its systemMetadata (see smtable.go), nil if none
	raw    []byte // as stored, valid inside the transaction only
	exists bool
}

// readLatestRaw is the latest row at key, stored as raw (nil: none),
// which a write found inside its transaction (earlier items of the batch
// included).
func readLatestRaw(key, raw []byte) (latest, error) {
	l := latest{key: key, raw: raw, exists: raw != nil}
	if !l.exists {
		return latest{key: key}, nil
	}
	var err error
	if l.row, l.table, err = decodeLatestRow(raw); err != nil {
		return latest{key: key}, err
	}
	return l, nil
}

// state is what a Check sees of the aspect and its entity, whose marker is
// at entityKey.
func (l latest) state(t txn, entityKey []byte) Current {
	c := Current{Exists: l.exists, EntityExists: t.get(entities, entityKey) != nil}
	if l.exists {
		c.Version = strconv.FormatInt(rowVersion(l.row), 10)
		c.CreatedOn = time.UnixMilli(l.row.CreatedOn).UTC()
	}
	return c
}

// transformed is the value to write and its hash: the prepared value, or
// what Transform makes of the latest value; valid and compact either way.
func transformed(i int, w *Write, p *prepared, cur latest) (json.RawMessage, uint64, error) {
	if w.Transform == nil {
		return p.value, p.hash, nil
	}
	var curValue json.RawMessage
	if cur.exists {
		curValue = cur.row.Value
	}
	value, err := w.Transform(curValue)
	if err != nil {
		return nil, 0, &CheckError{Index: i, Err: err}
	}
	if !w.Compact && !jsonx.IsObject(value) {
		return nil, 0, fmt.Errorf("%w: item %d: %s %s: transformed value is not a JSON object", ErrInvalidWrite, i, w.URN, w.Aspect)
	}
	if !w.Compact {
		value = jsonx.CompactShared(value) // checked by IsObject; encode copies it
	}
	return value, jsonx.Hash(value), nil
}

// putKey writes the entity's companion row (its key aspect), once, with
// the first write to the entity, and marks the entity as existing; the row
// has the systemMetadata of a first version. A write of the key aspect
// itself only marks it: the write stores the row.
func putKey(t txn, i int, w *Write, p *prepared) error {
	entityKey := p.entityKey()
	if w.KeyAspect == "" || t.get(entities, entityKey) != nil {
		return nil
	}
	if w.Aspect != w.KeyAspect {
		if !jsonx.IsObject(w.KeyValue) {
			return fmt.Errorf("%w: item %d: %s: key aspect %s value is not a JSON object", ErrInvalidWrite, i, w.URN, w.KeyAspect)
		}
		key := rowKey(w.URN, w.KeyAspect, 0)
		if _, _, ok, err := getRowShared(t, key, false); err != nil {
			return err
		} else if !ok {
			keySM, err := p.batch.stored(rawObject(p.batch.rules.First(p.batch.scratch[:0], p.sm)), nil)
			if err != nil {
				return err
			}
			value := jsonx.CompactShared(w.KeyValue) // checked by IsObject; encodeRow copies it
			val, built := encodeRow(value, p.ms, p.actor, jsonx.Hash(value), 1, keySM)
			if err := putEncoded(t, key, w.URN, w.KeyAspect, val, built); err != nil {
				return err
			}
		}
	}
	return t.put(entities, entityKey, []byte(w.KeyAspect))
}

// refreshLatest is the write of a value [Rules.Unchanged] finds unchanged:
// the version stays, row 0 gets the systemMetadata of Rules.Same in place,
// and nothing is written when that is unchanged too. h is the hash of the
// written value, which a row without one takes.
func refreshLatest(t txn, w *Write, p *prepared, cur latest, h uint64) (outcome, error) {
	val, built, version, err := refreshed(t, p, cur, h)
	if err != nil {
		return outcome{}, err
	}
	if val != nil {
		if err := putEncoded(t, cur.key, w.URN, w.Aspect, val, built); err != nil {
			return outcome{}, err
		}
	}
	return outcome{version: version, unchanged: true}, nil
}

// refreshed is the latest row cur with the systemMetadata of Rules.Same,
// encoded as val (decoding to built), which refreshLatest puts in its
// place; val is nil when that systemMetadata is cur's. version is cur's.
func refreshed(t txn, p *prepared, cur latest, h uint64) (val []byte, built row, version int64, err error) {
	field, unchanged, err := refreshField(t, p, cur)
	if err != nil {
		return nil, row{}, 0, err
	}
	return refreshRow(cur, field, unchanged, h)
}

// refreshField is the systemMetadata field (see appendStored) of the
// latest row cur refreshed for p's write, by Rules.Same, in p's batch's
// memory, valid until its next use; unchanged reports one whose
// systemMetadata is cur's, which makes no new row.
func refreshField(t txn, p *prepared, cur latest) (field []byte, unchanged bool, err error) {
	prev, err := cur.members(t, p.batch.scratch[:0])
	if err != nil {
		return nil, false, err
	}
	field, err = p.batch.stored(rawObject(p.batch.rules.Same(prev, p.sm)), cur.marshalled())
	if err != nil {
		return nil, false, err
	}
	nextSM, _, _ := readLPBytes(field)
	return field, bytes.Equal(nextSM, cur.row.SystemMetadata) || jsonx.Equal(nextSM, cur.row.SystemMetadata), nil
}

// refreshRow is refreshed of the field refreshField made.
func refreshRow(cur latest, field []byte, unchanged bool, h uint64) (val []byte, built row, version int64, err error) {
	version = rowVersion(cur.row)
	if unchanged {
		return nil, row{}, version, nil
	}
	r, err := decodeRowShared(cur.raw) // with its CreatedBy
	if err != nil {
		return nil, row{}, 0, err
	}
	if r.Hash == 0 {
		r.Hash = h
	}
	val, built = encodeRow(r.Value, r.CreatedOn, r.CreatedBy, r.Hash, version, field)
	return val, built, version, nil
}

// putVersion writes value (of hash h) as a new version: row 0 moves to
// history row N (N = its version) and the new value becomes row 0 with
// version N+1, whose systemMetadata Rules.Next makes. The first write is
// version 1, with the systemMetadata of Rules.First.
func putVersion(t txn, w *Write, p *prepared, cur latest, value json.RawMessage, h uint64) (outcome, error) {
	if cur.exists {
		// The row moves to history as it is stored, unless retention keeps
		// no history (retention.go); a row retention puts past its versions
		// goes.
		n := rowVersion(cur.row)
		keep := p.keep
		if keep != 1 {
			if err := t.putNew(aspectRows, p.historyKey(n), storedCopy(t, cur.raw)); err != nil {
				return outcome{}, err
			}
		}
		if err := retain(t, p, n+1, keep); err != nil {
			return outcome{}, err
		}
	}
	sm, version, err := nextSystemMetadata(t, p, cur)
	if err != nil {
		return outcome{}, err
	}
	field, err := p.batch.stored(sm, cur.marshalled())
	if err != nil {
		return outcome{}, err
	}
	// The row prepared for the write's value, or one for the transformed
	// value (or for a write whose row preBuild was to build).
	var val []byte
	var built row
	if head := p.head; w.Transform == nil && head.b != nil {
		p.head = rowHead{} // finish may use its memory
		if val, built, err = head.finish(version, field); err != nil {
			return outcome{}, err
		}
	} else {
		val, built = encodeRow(value, p.ms, p.actor, h, version, field)
	}
	if err := putEncoded(t, cur.key, w.URN, w.Aspect, val, built); err != nil {
		return outcome{}, err
	}
	return outcome{version: version}, nil
}

// putPreBuilt is putVersion of the row pre, built before the writer lock
// on the latest row raw (nil: none) at key, which it still is: raw moves to
// history as the version before pre's.
func putPreBuilt(t txn, w *Write, p *prepared, key, raw []byte, pre *preRow) (outcome, error) {
	if raw != nil {
		keep := p.keep
		if keep != 1 {
			if err := t.putNew(aspectRows, p.historyKey(pre.version-1), storedCopy(t, raw)); err != nil {
				return outcome{}, err
			}
		}
		if err := retain(t, p, pre.version, keep); err != nil {
			return outcome{}, err
		}
	}
	p.head = rowHead{} // pre uses its memory
	if err := putEncoded(t, key, w.URN, w.Aspect, pre.val, pre.built); err != nil {
		return outcome{}, err
	}
	return outcome{version: pre.version}, nil
}

// putRefreshed is refreshLatest of the row pre, built before the writer
// lock on the latest row at key, which it still is.
func putRefreshed(t txn, w *Write, key []byte, pre *preRow) (outcome, error) {
	if pre.val != nil {
		if err := putEncoded(t, key, w.URN, w.Aspect, pre.val, pre.built); err != nil {
			return outcome{}, err
		}
	}
	return outcome{version: pre.version, unchanged: true}, nil
}

// nextSystemMetadata returns the systemMetadata and the version of the
// row that p's write makes of a changed value whose latest row is cur
// (version 1, Rules.First's, when there is none; else one more than cur's,
// Rules.Next's), built in p's memory.
func nextSystemMetadata(t txn, p *prepared, cur latest) (rawObject, int64, error) {
	if !cur.exists {
		return p.batch.rules.First(p.batch.scratch[:0], p.sm), 1, nil
	}
	version := rowVersion(cur.row) + 1
	prev, err := cur.members(t, p.batch.scratch[:0])
	if err != nil {
		return nil, 0, err
	}
	return p.batch.rules.Next(prev, p.sm, version, p.room[:0]), version, nil
}

// smRoom is room for the systemMetadata field of a row whose first
// version has the members first: those, and a longer version; an update's
// stored members are most often the same.
func smRoom(first rawObject) int {
	n := 2 + len(`12345`)
	for _, m := range first {
		n += len(m.Key) + len(m.Value) + 4
	}
	return storedFieldSize(n, len(first)+1)
}

// putDoc stores a timeseries document under the identity the Rules gave
// it, replacing one with the same identity.
func putDoc(t txn, w *Write, p *prepared) error {
	sm, err := p.sm.marshal()
	if err != nil {
		return err
	}
	d := doc{Value: jsonx.Compact(w.Value), SystemMetadata: sm}
	key := tsKey(w.URN, w.Aspect, p.doc.time, p.doc.id)
	if rec, ok := t.(*recorder); ok {
		return rec.putDoc(key, d.encode(), w.URN, w.Aspect, p.doc.time, d)
	}
	return t.put(timeseriesDocs, key, d.encode())
}

// marshalled is the latest row's systemMetadata when marshal wrote it (a
// row of the current format), nil otherwise.
func (l latest) marshalled() []byte {
	if !l.exists || (l.raw[0] != rowFormat && l.raw[0] != rowFormatV2) {
		return nil
	}
	return l.row.SystemMetadata
}

// members is the members of the latest row's systemMetadata (none when
// empty), built in dst's memory, valid inside t. A row of the current
// format has the systemMetadata marshal wrote (see storedSplit); its keys
// share the row when t's stored values never change.
func (l latest) members(t txn, dst rawObject) (rawObject, error) {
	p, sm := dst[:0], l.row.SystemMetadata
	if len(sm) == 0 {
		return p, nil
	}
	var ok bool
	if l.marshalled() != nil {
		s, shares := t.(interface{ sharesValues() bool })
		share := shares && s.sharesValues()
		if l.table != nil {
			p, ok = tableSplit(p, sm, l.table, share)
		}
		if !ok {
			p, ok = storedSplit(p, sm, share)
		}
	}
	if !ok {
		p, ok = storedMembers(p, sm)
	}
	if !ok {
		if err := unmarshalRawObject(sm, &p); err != nil {
			return nil, fmt.Errorf("store: corrupt systemMetadata: %w", err)
		}
	}
	return p, nil
}
