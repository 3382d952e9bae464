package gms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// DefaultActor is the actor of a write that names none, and so the
// createdBy of its rows: DataHub's system actor (Constants.SYSTEM_ACTOR).
const DefaultActor = "urn:li:corpuser:__datahub_system"

// DefaultRunID is the systemMetadata runId of a write that carries none
// (Constants.DEFAULT_RUN_ID, the SystemMetadata.pdl default).
const DefaultRunID = "no-run-id-provided"

// quotedDefaultRunID is DefaultRunID as a JSON string (shared, read-only).
var quotedDefaultRunID = json.RawMessage(strconv.Quote(DefaultRunID))

// systemMetadataRecord is the PDL record of a proposal's systemMetadata.
const systemMetadataRecord = "com.linkedin.mxe.SystemMetadata"

// CheckSystemMetadata checks the systemMetadata object v of a Rest.li
// proposal against the SystemMetadata record, as Rest.li checks a request's
// records before GMS sees them. It returns v compact, and the failure, for
// [PegasusMessageAt], when v does not conform. DataHub's OpenAPI takes a
// systemMetadata without checking it (SystemMetadataUtils.parseSystemMetadata),
// so only the Rest.li adapter calls it.
func CheckSystemMetadata(v []byte) ([]byte, error) {
	if c, ok := pdl.ConformsCompact(systemMetadataRecord, v); ok {
		return c, nil
	}
	err := pdl.ValidateJSON(systemMetadataRecord, v)
	c, ok := pdl.CompactShared(v)
	if !ok {
		c = jsonx.Compact(v)
	}
	return c, err
}

// Received is what GMS does with every item when it arrives
// (SystemMetadataUtils.generateSystemMetadataIfEmpty, setSchemaVersion and
// setAspectModified): the actor is [DefaultActor] when the write names
// none; the systemMetadata gets lastObserved = now when absent or 0 (an
// integral number spelt 1e3 or 1.0 counts, as the schema accepts it for a
// long), schemaVersion = the aspect's @Aspect schemaVersion (1 when it
// names none) when absent, and aspectModified = {time, actor} of the write
// unless the actor is the system actor. An absent runId or lastRunId stays
// absent: GMS's check for a missing runId reads its SystemMetadata.pdl
// default, so the default is left implicit (a reader sees
// [DefaultRunID]); an update writes the runId out (see Rules.Same). It
// reads nothing of the write but those and its aspect, as store.Rules
// requires of it.
func (Rules) Received(w *store.Write, nowMillis int64, dst []jsonx.Member) (string, []jsonx.Member, error) {
	actor := w.Actor
	if actor == "" {
		actor = DefaultActor
	}
	m, err := receivedMembers(jsonx.Object(dst), w.SystemMetadata, w.SystemMetadataCompact)
	if err != nil {
		if sm := bytes.Trim(w.SystemMetadata, jsonx.Space); len(sm) != 0 && string(sm) != "null" && !jsonx.IsObject(sm) {
			return "", nil, fmt.Errorf("%s %s: systemMetadata is not a JSON object", w.URN, w.Aspect)
		}
		return "", nil, fmt.Errorf("systemMetadata: %w", err)
	}
	var lastObserved int64
	if raw, ok := m.Get("lastObserved"); ok && string(raw) != "null" {
		if lastObserved, err = parseLong(raw); err != nil {
			return "", nil, fmt.Errorf("systemMetadata.lastObserved: %w", err)
		}
	}
	if lastObserved == 0 {
		m.Set("lastObserved", json.RawMessage(strconv.FormatInt(nowMillis, 10)))
	}
	for _, k := range []string{"runId", "lastRunId"} {
		if raw, ok := m.Get(k); ok && string(raw) == "null" {
			m.Del(k) // a null member is an absent one
		}
	}
	if raw, ok := m.Get("schemaVersion"); !ok || string(raw) == "null" {
		info, _ := pdl.LookupAspect(w.Aspect)
		m.Set("schemaVersion", schemaVersionJSON(info.Schema()))
	}
	if actor != DefaultActor {
		stamp, err := json.Marshal(struct {
			Time  int64  `json:"time"`
			Actor string `json:"actor"`
		}{nowMillis, actor})
		if err != nil {
			return "", nil, err
		}
		m.Set("aspectModified", stamp)
	}
	return actor, m, nil
}

// schemaVersionJSON is v as JSON, shared for the common versions.
func schemaVersionJSON(v int64) json.RawMessage {
	if v >= 1 && v <= int64(len(schemaVersions)) {
		return schemaVersions[v-1]
	}
	return json.RawMessage(strconv.FormatInt(v, 10))
}

// schemaVersions are the JSON of schema versions 1 to 9 (shared, read-only).
var schemaVersions = func() []json.RawMessage {
	out := make([]json.RawMessage, 9)
	for i := range out {
		out[i] = json.RawMessage(strconv.Itoa(i + 1))
	}
	return out
}()

// parseLong reads a long as a DataMap holds it: an integer, or an integral
// number spelt otherwise (1e3, 1.0) as the schema accepts it. Its error is
// encoding/json's for an int64.
func parseLong(raw []byte) (int64, error) {
	if v, ok := shortLong(raw); ok {
		return v, nil
	}
	if v, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return v, nil
	}
	var n int64
	err := json.Unmarshal(raw, &n)
	if err == nil {
		return n, nil
	}
	f, ferr := strconv.ParseFloat(string(raw), 64)
	if ferr != nil || f != math.Trunc(f) || f < math.MinInt64 || f >= -math.MinInt64 {
		return 0, err
	}
	return int64(f), nil
}

// shortLong is strconv.ParseInt(string(b), 10, 64) for the b it can read
// without strconv: an optional minus sign and 1 to 18 digits, which cannot
// overflow (a millisecond time has 13); false for any other b.
func shortLong(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// receivedMembers appends the members of a write's systemMetadata (none
// when absent or null) to dst, each key once, the last value of a repeated
// key winning as in a DataMap. A text the caller promised to be a checked
// compact object is split without checking it again.
func receivedMembers(dst jsonx.Object, sm []byte, compact bool) (jsonx.Object, error) {
	if compact && len(sm) > 0 {
		if m, ok := compactMembers(dst, sm); ok {
			return m.Dedupe(), nil
		}
	}
	if len(sm) == 0 || bytes.Equal(bytes.Trim(sm, jsonx.Space), []byte("null")) {
		return dst, nil
	}
	if m, ok := jsonx.AppendMembers(dst, sm); ok && len(m) <= maxMembers {
		return jsonx.Object(m).Dedupe(), nil
	}
	all := map[string]json.RawMessage{}
	if err := json.Unmarshal(sm, &all); err != nil {
		return nil, err
	}
	m := dst
	for _, k := range slices.Sorted(maps.Keys(all)) {
		m = append(m, jsonx.Member{Key: k, Value: all[k]})
	}
	return m, nil
}

// maxMembers is the size past which receivedMembers decodes into a map
// rather than dedupe jsonx.Object one by one.
const maxMembers = 64

// compactMembers splits sm, a valid JSON object without white space, into
// its members appended to dst, sharing sm's memory; false (dst as it came)
// for a key with an escape or invalid UTF-8, which needs decoding.
func compactMembers(dst jsonx.Object, sm []byte) (jsonx.Object, bool) {
	n := len(dst)
	if len(sm) < 2 || sm[0] != '{' {
		return dst, false
	}
	for i := 1; i < len(sm) && sm[i] != '}'; {
		if sm[i] == ',' {
			i++
		}
		end, plain := keyEnd(sm, i)
		if end+1 >= len(sm) {
			return dst[:n], false
		}
		key := sm[i+1 : end]
		if !plain && (bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key)) {
			return dst[:n], false
		}
		start := end + 2 // past the colon
		if i = jsonx.CompactValueEnd(sm, start); i < 0 {
			return dst[:n], false
		}
		dst = append(dst, jsonx.Member{Key: memberKey(key), Value: sm[start:i:i]})
	}
	return dst, true
}

// keyEnd is stringEnd for the key of a member, a short string: a byte at a
// time, also reporting whether its body is plain ASCII without escapes.
func keyEnd(b []byte, i int) (end int, plain bool) {
	plain = true
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i, plain
		case c == '\\':
			plain = false
			i++
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	return len(b), plain
}

// memberKey is string(k), without a copy for a systemMetadata member of
// the SystemMetadata record.
func memberKey(k []byte) string {
	switch string(k) {
	case "aspectCreated":
		return "aspectCreated"
	case "aspectModified":
		return "aspectModified"
	case "lastObserved":
		return "lastObserved"
	case "lastRunId":
		return "lastRunId"
	case "pipelineName":
		return "pipelineName"
	case "properties":
		return "properties"
	case "registryName":
		return "registryName"
	case "registryVersion":
		return "registryVersion"
	case "runId":
		return "runId"
	case "schemaVersion":
		return "schemaVersion"
	case "version":
		return "version"
	}
	return string(k)
}
