package gms

import (
	"encoding/json"
	"strconv"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// Rules are GMS's decisions the store asks for while it writes and reads
// (store.Rules): who wrote a row and what its systemMetadata holds
// (sysmeta.go), the systemMetadata of each version (here), a timeseries
// document's identity (documents.go) and which version a negative version
// reads (here). [New] gives them to its store.
type Rules struct{}

var _ store.Rules = Rules{}

// The versions of an aspect follow EntityServiceImpl.applyUpsert,
// AspectsBatch.incrementBatchVersion and AspectDao.saveLatestAspect: the
// first write stores version 1, a write of a changed value stores the next
// version (the store moves the latest row to history), and a write of an
// equal value (DataTemplateUtil.areEqual) makes no version and refreshes
// the latest row's run fields in place.

// First is the systemMetadata of an aspect's first version (applyUpsert's
// insert), and of the key aspect written with an entity's first aspect
// (DefaultAspectsUtil, ingestTimeseriesProposal): the write's own with
// version "1" and aspectCreated = aspectModified when there is one.
func (Rules) First(dst, sm []jsonx.Member) []jsonx.Member {
	p := append(jsonx.Object(dst[:0]), sm...)
	p.Set("version", versionOne)
	if v, ok := jsonx.Object(sm).Get("aspectModified"); ok && string(v) != "null" {
		p.Set("aspectCreated", v)
	}
	return p
}

// versionOne is the version of a first write as JSON (shared, read-only).
var versionOne = json.RawMessage(`"1"`)

// Next is the systemMetadata of a new version (applyUpsert's update): the
// stored object carries over with the write's run fields (see Same), the
// new version and the write's aspectModified and aspectCreated; the other
// members the write carries (properties, pipelineName, ...) are not taken
// over.
func (r Rules) Next(prev, sm []jsonx.Member, version int64, room []byte) []jsonx.Member {
	p := jsonx.Object(r.Same(prev, sm))
	p.Set("version", quotedInt(room[:0], version))
	for _, k := range []string{"aspectModified", "aspectCreated"} {
		if v, ok := jsonx.Object(sm).Get(k); ok && string(v) != "null" {
			p.Set(k, v)
		}
	}
	return p
}

// Unchanged reports that a write makes no new version when its value
// equals the latest one as data (DataTemplateUtil.areEqual in applyUpsert:
// members in any order). Different known hashes settle
// it without comparing.
func (Rules) Unchanged(current, next json.RawMessage, currentHash, nextHash uint64) bool {
	if currentHash != 0 && nextHash != 0 && currentHash != nextHash {
		return false
	}
	return jsonx.Equal(current, next)
}

// Same is the systemMetadata of the latest row written again with an equal
// value, and the run fields of an update: the stored object with lastRunId
// = its old runId (removed when it had none), and lastObserved, runId and
// schemaVersion taken from the write, and the telemetry properties of a
// write received in a traced request (telemetryTraceId, eventSource,
// sourceIP; see Caller); a write without a runId writes its default,
// [DefaultRunID], out (applyUpsert reads the write's runId with its
// default and sets it).
func (Rules) Same(prev, sm []jsonx.Member) []jsonx.Member {
	p, in := jsonx.Object(prev), jsonx.Object(sm)
	if runID, ok := p.Get("runId"); ok && string(runID) != "null" {
		p.Set("lastRunId", runID)
	} else {
		p.Del("lastRunId")
	}
	if v, ok := in.Get("lastObserved"); ok {
		p.Set("lastObserved", v)
	}
	if v, ok := in.Get("runId"); ok && string(v) != "null" {
		p.Set("runId", v)
	} else {
		p.Set("runId", quotedDefaultRunID)
	}
	if v, ok := in.Get("schemaVersion"); ok && string(v) != "null" {
		p.Set("schemaVersion", v)
	}
	if v, ok := in.Get("properties"); ok {
		prevProps, _ := p.Get("properties")
		if props, ok := updateTelemetry(prevProps, v); ok {
			p.Set("properties", props)
		}
	}
	return p
}

// ReadVersion is the version a read of version v < 0 reads
// (EntityServiceImpl.getVersionedAspect, calculateVersionNumber): it counts
// back from the highest history version, so -1 is the newest history row,
// or the latest when there is no history.
func (Rules) ReadVersion(highest, v int64) int64 { return highest + v + 1 }

// quotedInt appends v as a JSON string, such as "12", to b.
func quotedInt(b []byte, v int64) json.RawMessage {
	b = append(b, '"')
	b = strconv.AppendInt(b, v, 10)
	return append(b, '"')
}
