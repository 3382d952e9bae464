package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/jsonx"
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

// applyOne performs one write inside t and returns its result. The store's
// change events come from the rows it puts and deletes (see recorder).
func applyOne(t txn, i int, w *Write, p *prepared) (Result, error) {
	if w.DeleteEntity && w.URN != "" {
		_, _, err := deleteEntity(t, w.URN)
		return Result{}, err
	}
	if p.err != nil {
		return Result{}, p.err
	}
	if w.Timeseries {
		if err := putKey(t, i, w, p); err != nil {
			return Result{}, err
		}
		return Result{}, putTimeseries(t, i, w, p.sm)
	}
	cur, err := readLatest(t, p.latestKey())
	if err != nil {
		return Result{}, err
	}
	if w.Check != nil {
		if err := w.Check(cur.state(t, p.entityKey())); errors.Is(err, ErrSkip) {
			return Result{Skipped: true}, nil
		} else if err != nil {
			return Result{}, &CheckError{Index: i, Err: err}
		}
	}
	value, hash, err := transformed(i, w, p, cur)
	if err != nil {
		return Result{}, err
	}
	if err := putKey(t, i, w, p); err != nil {
		return Result{}, err
	}
	if cur.exists && sameValue(cur.row, value, hash) {
		return refreshLatest(t, w, p, cur, hash)
	}
	return putVersion(t, w, p, cur, value, hash)
}

// sameValue reports whether value (of hash h, 0 if unknown) equals the
// row's value: different known hashes settle it without comparing.
func sameValue(r row, value json.RawMessage, h uint64) bool {
	if r.Hash != 0 && h != 0 && r.Hash != h {
		return false
	}
	return jsonx.Equal(r.Value, value)
}

// checkWrite refuses a write the store cannot perform at all, its
// systemMetadata aside (see checkSystemMetadata).
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

// checkSystemMetadata refuses a systemMetadata that is not a JSON object
// (or null). Every systemMetadata it refuses fillSystemMetadata fails to
// decode, so it runs only then, for its message.
func checkSystemMetadata(i int, w *Write) error {
	if sm := bytes.Trim(w.SystemMetadata, jsonx.Space); len(sm) != 0 && string(sm) != "null" && !jsonx.IsObject(sm) {
		return fmt.Errorf("%w: item %d: %s %s: systemMetadata is not a JSON object", ErrInvalidWrite, i, w.URN, w.Aspect)
	}
	return nil
}

// latest is an aspect's latest row as a write finds it.
type latest struct {
	key    []byte // its row key
	row    row    // decoded, sharing raw, without CreatedBy
	raw    []byte // as stored, valid inside the transaction only
	exists bool
}

// readLatest reads the latest row at key inside t, earlier items of the
// batch included.
func readLatest(t txn, key []byte) (latest, error) {
	l := latest{key: key}
	var err error
	l.row, l.raw, l.exists, err = getRowShared(t, l.key, false)
	return l, err
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

// putKey writes the entity's key aspect, once, with the first write to the
// entity (DefaultAspectsUtil; for timeseries, ingestTimeseriesProposal),
// and marks the entity as existing. A write of the key aspect itself only
// marks it: the write stores the row.
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
			keySM, err := insertSystemMetadata(p.sm)
			if err != nil {
				return err
			}
			value := jsonx.Compact(w.KeyValue)
			kr := row{Value: value, SystemMetadata: keySM, CreatedOn: p.ms, CreatedBy: p.actor, Version: 1, Hash: jsonx.Hash(value)}
			if err := putLatest(t, key, w.URN, w.KeyAspect, kr); err != nil {
				return err
			}
		}
	}
	return t.put(entities, entityKey, []byte(w.KeyAspect))
}

// putTimeseries stores the write's timeseries document.
func putTimeseries(t txn, i int, w *Write, sm rawObject) error {
	docSM, err := sm.marshal()
	if err != nil {
		return err
	}
	if err := putDoc(t, w, docSM); err != nil {
		return fmt.Errorf("%w: item %d: %w", ErrInvalidWrite, i, err)
	}
	return nil
}

// refreshLatest is the write of a value equal to the latest one
// (EntityServiceImpl.applyUpsert): the version stays; only row 0's run
// fields are refreshed (AspectDao.saveLatestAspect updates row 0 in place),
// and nothing is written when they are unchanged too. h is the hash of the
// written value, which is the stored one's too when known.
func refreshLatest(t txn, w *Write, p *prepared, cur latest, h uint64) (Result, error) {
	version := rowVersion(cur.row)
	res := Result{Version: strconv.FormatInt(version, 10), Unchanged: true}
	next, err := carryRunFields(p.scratch[:0], cur.row.SystemMetadata, p.sm)
	if err != nil {
		return Result{}, err
	}
	nextSM, err := next.marshal()
	if err != nil {
		return Result{}, err
	}
	if jsonx.Equal(nextSM, cur.row.SystemMetadata) {
		return res, nil
	}
	r, err := decodeRowShared(cur.raw) // with its CreatedBy
	if err != nil {
		return Result{}, err
	}
	r.SystemMetadata, r.Version = nextSM, version
	if r.Hash == 0 {
		r.Hash = h
	}
	if err := putLatest(t, cur.key, w.URN, w.Aspect, r); err != nil { // encode copies r.Value
		return Result{}, err
	}
	return res, nil
}

// putVersion writes value (of hash h) as a new version: row 0 moves to
// history row N (N = its systemMetadata.version) and the new value becomes
// row 0 with version N+1 (AspectDao.saveLatestAspect,
// AspectsBatch.incrementBatchVersion). The first write is version 1.
func putVersion(t txn, w *Write, p *prepared, cur latest, value json.RawMessage, h uint64) (Result, error) {
	var sm rawObject
	version := int64(1)
	if !cur.exists {
		sm = insertMembers(p.scratch[:0], p.sm)
	} else {
		// The row moves to history as it is stored.
		n := rowVersion(cur.row)
		if err := t.putNew(aspectRows, p.historyKey(n), storedCopy(t, cur.raw)); err != nil {
			return Result{}, err
		}
		version = n + 1
		// applyUpsert: the stored systemMetadata carries over; the run fields,
		// version and aspectModified/aspectCreated come from the write.
		var err error
		if sm, err = carryRunFields(p.scratch[:0], cur.row.SystemMetadata, p.sm); err != nil {
			return Result{}, err
		}
		sm.set("version", quotedInt(p.version[:0], version))
		for _, k := range []string{"aspectModified", "aspectCreated"} {
			if v, ok := p.sm.get(k); ok && string(v) != "null" {
				sm.set(k, v)
			}
		}
	}
	// The row prepared for the write's value, or one for the transformed value.
	head := p.head
	if w.Transform != nil || head.b == nil {
		head = newRowHead(value, p.ms, p.actor, h, smRoom(p.sm))
	}
	p.head = rowHead{} // finish may use its memory
	val, built, err := head.finish(version, func(b []byte) ([]byte, error) { return sm.appendMarshal(b, true) })
	if err != nil {
		return Result{}, err
	}
	if err := putEncoded(t, cur.key, w.URN, w.Aspect, val, built); err != nil {
		return Result{}, err
	}
	return Result{Version: strconv.FormatInt(version, 10)}, nil
}

// quotedInt appends v as a JSON string, such as "12", to b.
func quotedInt(b []byte, v int64) json.RawMessage {
	b = append(b, '"')
	b = strconv.AppendInt(b, v, 10)
	return append(b, '"')
}

// smRoom is room for the length-prefixed systemMetadata of a row written
// with sm (see fillSystemMetadata): sm, a version and an aspectCreated, and
// the stored members an update carries over, most often the same.
func smRoom(sm rawObject) int {
	n := 2 + len(`,"version":"12345"`)
	for _, m := range sm {
		n += len(m.Key) + len(m.Value) + 4
		if m.Key == "aspectModified" {
			n += len(`"aspectCreated":,`) + len(m.Value)
		}
	}
	return uvarintLen(uint64(n)) + n
}

// putDoc stores a timeseries document, replacing one with the same identity.
// DataHub's document id (TimeseriesAspectTransformer.getDocId) is a hash of
// timestampMillis, eventGranularity, urn, messageId and partitionSpec; the
// index is per aspect.
func putDoc(t txn, w *Write, sm json.RawMessage) error {
	// The members by their exact names, as in a DataMap (decoding into a
	// struct would match names case-insensitively).
	f := make(map[string]json.RawMessage, 8)
	if err := unmarshalRawMap(w.Value, f); err != nil {
		return fmt.Errorf("%s %s: %w", w.URN, w.Aspect, err)
	}
	var ts int64
	if raw, ok := f["timestampMillis"]; !ok || string(raw) == "null" {
		return fmt.Errorf("%s %s: timeseries aspect has no timestampMillis", w.URN, w.Aspect)
	} else if err := unmarshalInt64(raw, &ts); err != nil {
		return fmt.Errorf("%s %s: %w", w.URN, w.Aspect, err)
	}
	var id []byte
	for _, part := range []json.RawMessage{f["eventGranularity"], f["messageId"], f["partitionSpec"]} {
		id = lp(id, string(jsonx.Canonical(part)))
	}
	d := doc{Value: jsonx.Compact(w.Value), SystemMetadata: sm}
	key := tsKey(w.URN, w.Aspect, ts, id)
	if rec, ok := t.(*recorder); ok {
		return rec.putDoc(key, d.encode(), w.URN, w.Aspect, ts, d)
	}
	return t.put(timeseriesDocs, key, d.encode())
}

// fillSystemMetadata decodes the write's systemMetadata and applies what
// GMS does to every incoming item: runId "no-run-id-provided" when absent and
// lastObserved = now when absent or 0
// (SystemMetadataUtils.generateSystemMetadataIfEmpty), and aspectModified =
// the write's audit stamp unless the actor is the system actor
// (SystemMetadataUtils.setAspectModified). An absent lastRunId is written out
// as its schema default "no-run-id-provided" (GMS leaves it implicit).
// It appends the members to m, which it returns.
func fillSystemMetadata(m rawObject, in json.RawMessage, nowMillis int64, actor string) (rawObject, error) {
	if len(in) != 0 && !bytes.Equal(bytes.Trim(in, jsonx.Space), []byte("null")) {
		if err := unmarshalRawObject(in, &m); err != nil {
			return nil, fmt.Errorf("systemMetadata: %w", err)
		}
	}
	var lastObserved int64
	if raw, ok := m.get("lastObserved"); ok && string(raw) != "null" {
		if err := unmarshalInt64(raw, &lastObserved); err != nil {
			// An integral number spelt otherwise (1e3, 1.0), which the
			// SystemMetadata schema accepts for a long as pdl.Validate does.
			f, ferr := strconv.ParseFloat(string(raw), 64)
			if ferr != nil || f != math.Trunc(f) || f < math.MinInt64 || f >= -math.MinInt64 {
				return nil, fmt.Errorf("systemMetadata.lastObserved: %w", err)
			}
			lastObserved = int64(f)
		}
	}
	if lastObserved == 0 {
		m.set("lastObserved", json.RawMessage(strconv.FormatInt(nowMillis, 10)))
	}
	if raw, ok := m.get("runId"); !ok || string(raw) == "null" {
		m.set("runId", quotedDefaultRunID)
	}
	if raw, ok := m.get("lastRunId"); !ok || string(raw) == "null" {
		// The SystemMetadata.pdl default, spelled out as the Python emitter does.
		m.set("lastRunId", quotedDefaultRunID)
	}
	if actor != DefaultActor {
		stamp, err := json.Marshal(struct {
			Time  int64  `json:"time"`
			Actor string `json:"actor"`
		}{nowMillis, actor})
		if err != nil {
			return nil, err
		}
		m.set("aspectModified", stamp)
	}
	return m, nil
}

// quotedDefaultRunID is DefaultRunID as a JSON string (shared, read-only).
var quotedDefaultRunID = json.RawMessage(strconv.Quote(DefaultRunID))

// insertSystemMetadata is the systemMetadata of a first version
// (applyUpsert's insert): the write's own, version "1", and aspectCreated =
// aspectModified when there is one.
func insertSystemMetadata(sm rawObject) (json.RawMessage, error) {
	return insertMembers(make(rawObject, 0, len(sm)+2), sm).marshal()
}

// insertMembers is insertSystemMetadata's object, built in dst's memory.
func insertMembers(dst, sm rawObject) rawObject {
	p := append(dst[:0], sm...)
	p.set("version", json.RawMessage(`"1"`))
	if v, ok := sm.get("aspectModified"); ok && string(v) != "null" {
		p.set("aspectCreated", v)
	}
	return p
}

// carryRunFields is applyUpsert's update of an existing row's systemMetadata:
// the stored object with lastRunId = its old runId (removed when it had
// none), and lastObserved, runId and schemaVersion taken from the write.
// It builds the object in dst's memory.
func carryRunFields(dst rawObject, prev json.RawMessage, sm rawObject) (rawObject, error) {
	p := dst[:0]
	if len(prev) != 0 {
		var ok bool
		if p, ok = storedMembers(p, prev); !ok {
			if err := unmarshalRawObject(prev, &p); err != nil {
				return nil, fmt.Errorf("store: corrupt systemMetadata: %w", err)
			}
		}
	}
	if runID, ok := p.get("runId"); ok && string(runID) != "null" {
		p.set("lastRunId", runID)
	} else {
		p.del("lastRunId")
	}
	if v, ok := sm.get("lastObserved"); ok {
		p.set("lastObserved", v)
	}
	if v, ok := sm.get("runId"); ok {
		p.set("runId", v)
	} else {
		p.del("runId")
	}
	if v, ok := sm.get("schemaVersion"); ok && string(v) != "null" {
		p.set("schemaVersion", v)
	}
	return p, nil
}
