package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// row is the stored form of one versioned row, in both backends.
type row struct {
	Value          json.RawMessage `json:"v"`
	SystemMetadata json.RawMessage `json:"s,omitempty"`
	CreatedOn      int64           `json:"t"` // Unix milliseconds
	CreatedBy      string          `json:"b"`
}

func decodeRow(v []byte) (row, error) {
	var r row
	if err := json.Unmarshal(v, &r); err != nil {
		return row{}, fmt.Errorf("store: corrupt row: %w", err)
	}
	return r, nil
}

// aspect converts a decoded row; the decoded slices are already private.
func (r row) aspect(urn, name string, version int64) Aspect {
	return Aspect{URN: urn, Name: name, Version: version, Value: r.Value,
		SystemMetadata: r.SystemMetadata, CreatedOn: time.UnixMilli(r.CreatedOn).UTC(), CreatedBy: r.CreatedBy}
}

// doc is the stored form of one timeseries document.
type doc struct {
	Value          json.RawMessage `json:"v"`
	SystemMetadata json.RawMessage `json:"s,omitempty"`
}

func decodeDoc(v []byte) (doc, error) {
	var d doc
	if err := json.Unmarshal(v, &d); err != nil {
		return doc{}, fmt.Errorf("store: corrupt timeseries document: %w", err)
	}
	return d, nil
}

func beUint64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }

func getRow(t txn, urn, aspect string, version int64) (row, bool, error) {
	v := t.get(aspectRows, rowKey(urn, aspect, version))
	if v == nil {
		return row{}, false, nil
	}
	r, err := decodeRow(v)
	return r, err == nil, err
}

func putRow(t txn, urn, aspect string, version int64, r row) error {
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return t.put(aspectRows, rowKey(urn, aspect, version), v)
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
func rowVersion(r row) int64 {
	if v, ok := sysVersion(r.SystemMetadata); ok && v >= 1 {
		return v
	}
	return 1
}

func sysVersion(sm json.RawMessage) (int64, bool) {
	if len(sm) == 0 {
		return 0, false
	}
	var m struct {
		Version *string `json:"version"`
	}
	if json.Unmarshal(sm, &m) != nil || m.Version == nil {
		return 0, false
	}
	v, err := strconv.ParseInt(*m.Version, 10, 64)
	return v, err == nil
}

// applyOne performs one write inside t and returns its result and the rows it
// made latest (for OnChange).
func applyOne(t txn, i int, w *Write, now time.Time) (Result, []Aspect, error) {
	if w.URN == "" || w.Aspect == "" {
		return Result{}, nil, fmt.Errorf("%w: item %d: empty urn or aspect name", ErrInvalidWrite, i)
	}
	if !isObject(w.Value) {
		return Result{}, nil, fmt.Errorf("%w: item %d: %s %s: value is not a JSON object", ErrInvalidWrite, i, w.URN, w.Aspect)
	}
	if len(w.SystemMetadata) != 0 && !isObject(w.SystemMetadata) && !bytes.Equal(bytes.TrimSpace(w.SystemMetadata), []byte("null")) {
		return Result{}, nil, fmt.Errorf("%w: item %d: %s %s: systemMetadata is not a JSON object", ErrInvalidWrite, i, w.URN, w.Aspect)
	}
	changeType := w.ChangeType
	if changeType == "" {
		changeType = ChangeUpsert
	}
	switch changeType {
	case ChangeUpsert, ChangeCreate, ChangeCreateEntity:
	default:
		return Result{}, nil, fmt.Errorf("%w: item %d: unsupported change type %q", ErrInvalidWrite, i, w.ChangeType)
	}
	if w.Timeseries && changeType != ChangeUpsert {
		// EntityServiceImpl.ingestTimeseriesProposal: "ChangeType not supported".
		return Result{}, nil, fmt.Errorf("%w: item %d: change type %s not supported for timeseries aspect %s", ErrInvalidWrite, i, changeType, w.Aspect)
	}
	ms := now.UnixMilli()
	sm, err := fillSystemMetadata(w.SystemMetadata, ms)
	if err != nil {
		return Result{}, nil, fmt.Errorf("%w: item %d: %w", ErrInvalidWrite, i, err)
	}
	actor := w.Actor
	if actor == "" {
		actor = DefaultActor
	}

	// Conditions, checked against the state including earlier batch items.
	entityKey := urnPrefix(w.URN)
	if changeType == ChangeCreateEntity {
		if name := t.get(entities, entityKey); name != nil {
			if w.IfNoneMatch {
				return Result{Skipped: true}, nil, nil
			}
			have := "1"
			if kr, ok, _ := getRow(t, w.URN, string(name), 0); ok {
				have = strconv.FormatInt(rowVersion(kr), 10)
			}
			return Result{}, nil, &ConditionError{Index: i, URN: w.URN, Aspect: w.Aspect,
				Header: ChangeCreateEntity, Want: UnversionedVersion, Have: have}
		}
	}
	var (
		cur    row
		hasCur bool
	)
	if !w.Timeseries {
		if cur, hasCur, err = getRow(t, w.URN, w.Aspect, 0); err != nil {
			return Result{}, nil, err
		}
	}
	if changeType == ChangeCreate && hasCur {
		if w.IfNoneMatch {
			return Result{Skipped: true}, nil, nil
		}
		return Result{}, nil, &ConditionError{Index: i, URN: w.URN, Aspect: w.Aspect,
			Header: ChangeCreate, Want: UnversionedVersion, Have: strconv.FormatInt(rowVersion(cur), 10)}
	}
	if w.IfVersionMatch != "" && !w.Timeseries {
		// ConditionalWriteValidator: CREATE and CREATE_ENTITY always compare
		// against "-1"; otherwise the latest row's systemMetadata.version, or
		// max(1, row version) without one, or "-1" when there is no row.
		have := UnversionedVersion
		if changeType == ChangeUpsert && hasCur {
			have = strconv.FormatInt(rowVersion(cur), 10)
		}
		if w.IfVersionMatch != have {
			return Result{}, nil, &ConditionError{Index: i, URN: w.URN, Aspect: w.Aspect,
				Header: HeaderIfVersionMatch, Want: w.IfVersionMatch, Have: have}
		}
	}

	var changed []Aspect
	// The key aspect, written once with the first write to the entity
	// (DefaultAspectsUtil; for timeseries, ingestTimeseriesProposal).
	if keyName := keyAspectOf(w); keyName != "" && t.get(entities, entityKey) == nil {
		switch {
		case w.Aspect == keyName:
			// The write is the key aspect itself; the versioned write below
			// stores its row.
		case w.KeyAspect == "":
			// Without KeyValue there is no key row to write yet.
			keyName = ""
		default:
			if !isObject(w.KeyValue) {
				return Result{}, nil, fmt.Errorf("%w: item %d: %s: key aspect %s value is not a JSON object", ErrInvalidWrite, i, w.URN, w.KeyAspect)
			}
			if _, ok, err := getRow(t, w.URN, keyName, 0); err != nil {
				return Result{}, nil, err
			} else if !ok {
				keySM, err := withVersion(sm, "1")
				if err != nil {
					return Result{}, nil, err
				}
				kr := row{Value: compact(w.KeyValue), SystemMetadata: keySM, CreatedOn: ms, CreatedBy: actor}
				if err := putRow(t, w.URN, keyName, 0, kr); err != nil {
					return Result{}, nil, err
				}
				changed = append(changed, kr.aspect(w.URN, keyName, 0))
			}
		}
		if keyName != "" {
			if err := t.put(entities, entityKey, []byte(keyName)); err != nil {
				return Result{}, nil, err
			}
		}
	}

	if w.Timeseries {
		docSM, err := json.Marshal(sm)
		if err != nil {
			return Result{}, nil, err
		}
		if err := putDoc(t, w, docSM); err != nil {
			return Result{}, nil, fmt.Errorf("%w: item %d: %w", ErrInvalidWrite, i, err)
		}
		return Result{}, changed, nil
	}

	value := compact(w.Value)
	if hasCur && jsonEqual(cur.Value, value) {
		// EntityServiceImpl.ingestAspectToLocalDB: an equal value makes no new
		// version; only lastObserved/runId/lastRunId of row 0 are refreshed
		// (systemMetadataDiff), and nothing at all is written when those are
		// unchanged too.
		ver := rowVersion(cur)
		res := Result{Version: strconv.FormatInt(ver, 10), Unchanged: true}
		next, err := refreshSystemMetadata(cur.SystemMetadata, sm)
		if err != nil {
			return Result{}, nil, err
		}
		if jsonEqual(next, cur.SystemMetadata) {
			return res, changed, nil
		}
		cur.SystemMetadata = next
		if err := putRow(t, w.URN, w.Aspect, 0, cur); err != nil {
			return Result{}, nil, err
		}
		return res, append(changed, cur.aspect(w.URN, w.Aspect, 0)), nil
	}

	// A new version: row 0 moves to history row N (N = its systemMetadata.version)
	// and the new value becomes row 0 with version N+1 (AspectDao.saveLatestAspect,
	// AspectsBatch.incrementBatchVersion). The first write is version 1.
	next := int64(1)
	if hasCur {
		n := rowVersion(cur)
		if err := putRow(t, w.URN, w.Aspect, n, cur); err != nil {
			return Result{}, nil, err
		}
		next = n + 1
	}
	ver := strconv.FormatInt(next, 10)
	newSM, err := withVersion(sm, ver)
	if err != nil {
		return Result{}, nil, err
	}
	nr := row{Value: value, SystemMetadata: newSM, CreatedOn: ms, CreatedBy: actor}
	if err := putRow(t, w.URN, w.Aspect, 0, nr); err != nil {
		return Result{}, nil, err
	}
	return Result{Version: ver}, append(changed, nr.aspect(w.URN, w.Aspect, 0)), nil
}

// keyAspectOf is the name of the write's entity key aspect: Write.KeyAspect,
// else the entity registry's key aspect for Write.EntityType (or the URN's
// entity type), so that a write of the key aspect itself marks the entity as
// existing even when the caller leaves KeyAspect empty for it.
func keyAspectOf(w *Write) string {
	if w.KeyAspect != "" {
		return w.KeyAspect
	}
	entityType := w.EntityType
	if entityType == "" {
		entityType = urnEntityType(w.URN)
	}
	if e, ok := pdl.LookupEntity(entityType); ok {
		return e.KeyAspect
	}
	return ""
}

// urnEntityType is the entity type of "urn:li:<type>:<id>", "" otherwise.
func urnEntityType(urn string) string {
	rest, ok := strings.CutPrefix(urn, "urn:li:")
	if !ok {
		return ""
	}
	typ, _, ok := strings.Cut(rest, ":")
	if !ok {
		return ""
	}
	return typ
}

// putDoc stores a timeseries document, replacing one with the same identity.
// DataHub's document id (TimeseriesAspectTransformer.getDocId) is a hash of
// timestampMillis, eventGranularity, urn, messageId and partitionSpec; the
// index is per aspect.
func putDoc(t txn, w *Write, sm json.RawMessage) error {
	var f struct {
		TimestampMillis  *int64          `json:"timestampMillis"`
		EventGranularity json.RawMessage `json:"eventGranularity"`
		MessageID        json.RawMessage `json:"messageId"`
		PartitionSpec    json.RawMessage `json:"partitionSpec"`
	}
	if err := json.Unmarshal(w.Value, &f); err != nil {
		return fmt.Errorf("%s %s: %w", w.URN, w.Aspect, err)
	}
	if f.TimestampMillis == nil {
		return fmt.Errorf("%s %s: timeseries aspect has no timestampMillis", w.URN, w.Aspect)
	}
	var id []byte
	for _, part := range []json.RawMessage{f.EventGranularity, f.MessageID, f.PartitionSpec} {
		id = lp(id, string(canonical(part)))
	}
	v, err := json.Marshal(doc{Value: compact(w.Value), SystemMetadata: sm})
	if err != nil {
		return err
	}
	return t.put(timeseriesDocs, tsKey(w.URN, w.Aspect, *f.TimestampMillis, id), v)
}

// fillSystemMetadata returns the proposal's systemMetadata with DataHub's
// defaults applied: lastObserved = now when 0 or absent
// (SystemMetadataUtils.generateSystemMetadataIfEmpty, the Python
// ensure_has_system_metadata), runId = "no-run-id-provided" when absent, and
// lastRunId = runId (ingestAspectToLocalDB).
func fillSystemMetadata(in json.RawMessage, nowMillis int64) (map[string]json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	if len(in) != 0 && !bytes.Equal(bytes.TrimSpace(in), []byte("null")) {
		if err := json.Unmarshal(in, &m); err != nil {
			return nil, fmt.Errorf("systemMetadata: %w", err)
		}
		if m == nil {
			m = map[string]json.RawMessage{}
		}
	}
	var lastObserved int64
	if raw, ok := m["lastObserved"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &lastObserved); err != nil {
			return nil, fmt.Errorf("systemMetadata.lastObserved: %w", err)
		}
	}
	if lastObserved == 0 {
		m["lastObserved"] = json.RawMessage(strconv.FormatInt(nowMillis, 10))
	}
	if raw, ok := m["runId"]; !ok || string(raw) == "null" {
		m["runId"] = json.RawMessage(strconv.Quote(DefaultRunID))
	}
	m["lastRunId"] = m["runId"]
	return m, nil
}

// withVersion encodes the systemMetadata m with "version" set to v, leaving m
// as it was.
func withVersion(m map[string]json.RawMessage, v string) (json.RawMessage, error) {
	old, had := m["version"]
	m["version"] = json.RawMessage(strconv.Quote(v))
	b, err := json.Marshal(m)
	if had {
		m["version"] = old
	} else {
		delete(m, "version")
	}
	return b, err
}

// refreshSystemMetadata is EntityServiceImpl.systemMetadataDiff: the stored
// systemMetadata with lastRunId = its old runId, and lastObserved and runId
// taken from the new write. The version is kept.
func refreshSystemMetadata(prev json.RawMessage, c map[string]json.RawMessage) (json.RawMessage, error) {
	p := map[string]json.RawMessage{}
	if len(prev) != 0 {
		if err := json.Unmarshal(prev, &p); err != nil {
			return nil, fmt.Errorf("store: corrupt systemMetadata: %w", err)
		}
	}
	if runID, ok := p["runId"]; ok {
		p["lastRunId"] = runID
	} else {
		delete(p, "lastRunId")
	}
	if v, ok := c["lastObserved"]; ok {
		p["lastObserved"] = v
	}
	if v, ok := c["runId"]; ok {
		p["runId"] = v
	} else {
		delete(p, "runId")
	}
	return json.Marshal(p)
}

func isObject(b json.RawMessage) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
}

// compact returns a private compact copy of valid JSON.
func compact(b json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return append(json.RawMessage(nil), b...)
	}
	return buf.Bytes()
}

// canonical returns JSON text with object keys sorted, so that equal
// documents compare equal bytewise (numbers keep their text).
func canonical(b json.RawMessage) []byte {
	if len(b) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return b
	}
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}

// jsonEqual is DataTemplateUtil.areEqual for JSON: equal data, key order aside.
func jsonEqual(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	return bytes.Equal(canonical(a), canonical(b))
}
