package gms

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
)

// checkGeneral is checkValue without its quick pass: the UTF-8 check, the
// decode, pdl.ValidateIn, the timestamp of a timeseries aspect and the
// compaction, each on its own. checkHeld must answer as it does.
func checkGeneral(info pdl.AspectInfo, entityType string, raw []byte) ([]byte, *Error) {
	if !utf8.Valid(raw) {
		return nil, errorf(BadArgument, MsgValueNotUTF8)
	}
	v, err := decodeUseNumber(raw)
	if err != nil {
		if TooDeep(err) {
			return nil, errorf(BadArgument, MsgAspectTooDeep, info.Name, entityType, MaxJSONDepth)
		}
		return nil, errorf(BadArgument, MsgAspectNotJSON, info.Name, entityType, JSONErrorText(err))
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errorf(BadArgument, MsgAspectNotJSON, info.Name, entityType, "found "+jsonKind(v))
	}
	if err := pdl.ValidateIn(entityType, info.RecordName, v); err != nil {
		return nil, recordInvalid(info, entityType, err)
	}
	if info.Timeseries {
		n, _ := obj["timestampMillis"].(json.Number)
		if _, err := strconv.ParseInt(string(n), 10, 64); err != nil {
			return nil, errorf(Invalid, MsgTimestampMissing, info.Name)
		}
	}
	return jsonx.CompactShared(raw), nil
}

// checkHeldAgrees holds checkHeld, with the facts prepare has of the
// aspect, to checkGeneral for a dataset's aspects of several kinds: the same
// answer, the same compaction, and a hash that is the compaction's
// jsonx.Hash when it is not 0.
func checkHeldAgrees(t *testing.T, s string) {
	t.Helper()
	for _, name := range []string{"ownership", "upstreamLineage", "schemaMetadata", "datasetUsageStatistics", "status", "datasetProperties"} {
		facts, ok := allowedAspect("dataset", name)
		af := &facts
		if !ok || !af.validated {
			t.Fatalf("dataset has no validated aspect %s", name)
		}
		raw := []byte(s)
		want, wantErr := checkGeneral(af.info, "dataset", raw)
		// The first time, the second (the answer is kept) and the third
		// (the kept answer).
		for range 3 {
			checkHeldAgain(t, name, af, raw, want, wantErr)
		}
	}
}

// checkHeldAgain is one turn of checkHeldAgrees.
func checkHeldAgain(t *testing.T, name string, af *aspectFacts, raw, want []byte, wantErr *Error) {
	t.Helper()
	s := string(raw)
	got, h, err := checkHeld(af.info, af.held, "dataset", raw, true, &valueArena{size: len(raw)})
	switch {
	case (err == nil) != (wantErr == nil):
		t.Fatalf("checkHeld(%s, %q) = %v; the general check %v", name, s, err, wantErr)
	case err != nil && (err.Kind != wantErr.Kind || err.Message != wantErr.Message):
		t.Fatalf("checkHeld(%s, %q) = %v %q; the general check %v %q", name, s, err.Kind, err.Message, wantErr.Kind, wantErr.Message)
	case !bytes.Equal(got, want):
		t.Fatalf("checkHeld(%s, %q) = %q; the general check %q", name, s, got, want)
	case h != 0 && h != jsonx.Hash(got):
		t.Fatalf("checkHeld(%s, %q) hash %#x; jsonx.Hash %#x", name, s, h, jsonx.Hash(got))
	}
}

// TestCheckedSeenKept checks that a value accepted twice is kept, for its
// record only, and that the kept answer is checkHeld's: the same
// compaction, in memory of its own, and the same hash. (Not parallel:
// other tests' values could take the slot.)
func TestCheckedSeenKept(t *testing.T) {
	own, _ := allowedAspect("dataset", "ownership")
	status, _ := allowedAspect("dataset", "status")
	raw := []byte(`{"owners": [{"owner": "urn:li:corpuser:kept", "type": "DATAOWNER"}], "lastModified": {"time": 7, "actor": "urn:li:corpuser:kept"}}`)
	sh := checkedHash(raw)
	want, wantHash, err := checkHeld(own.info, own.held, "dataset", raw, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := seenChecked(own.info, own.held, raw, sh, nil); ok {
		t.Fatal("a value seen once is kept")
	}
	if _, _, err := checkHeld(own.info, own.held, "dataset", raw, true, nil); err != nil {
		t.Fatal(err)
	}
	got, h, ok := seenChecked(own.info, own.held, raw, sh, nil)
	if !ok || !bytes.Equal(got, want) || h != wantHash || h == 0 {
		t.Fatalf("kept answer = %q, %#x, %v; want %q, %#x", got, h, ok, want, wantHash)
	}
	if &got[0] == &checkedSeen[sh%checkedSlots].Load().compact[0] {
		t.Error("the kept compaction is shared with the caller")
	}
	if _, _, ok := seenChecked(status.info, status.held, raw, sh, nil); ok {
		t.Error("the answer kept for ownership is status's too")
	}
}

var checkHeldSeeds = []string{
	`{"owners": [{"owner": "urn:li:corpuser:fbar", "type": "DATAOWNER"}], "ownerTypes": {}, "lastModified": {"time": 0, "actor": "urn:li:corpuser:fbar"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:fbar","type":"DATAOWNER"}],"lastModified":{"time":0,"actor":"urn:li:corpuser:fbar"}}`,
	`{"lastModified": {"actor": "urn:li:corpuser:fbar", "time": 0}, "owners": [{"type": "DATAOWNER", "owner": "urn:li:corpuser:fbar"}]}`,
	"{\"owners\" : [ {\"owner\":\t\"urn:li:corpuser:fbar\", \"type\" :\"DATAOWNER\"} ] ,\n \"ownerTypes\": {}}",
	`{"owners": [{"owner": "urn:li:corpGroup:eng", "type": "TECHNICAL_OWNER"}], "owners": []}`,
	`{"owners": [{"owner": "urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)", "type": "DATAOWNER"}]}`,
	`{"owners": [{"owner": "urn:li:corpuser:f\u0062ar", "type": "DATA\u004fWNER"}], "\u006fwnerTypes": {}}`,
	"{\"owners\": [{\"owner\": \"urn:li:corpuser:\xff\", \"type\": \"DATAOWNER\"}]}",
	`{"owners": [{"owner": "urn:li:corpuser:é", "type": "DATAOWNER"}]}`,
	`{"upstreams": [{"auditStamp": {"time": 0, "actor": "urn:li:corpuser:unknown"}, "dataset": "urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)", "type": "TRANSFORMED"}], ` +
		`"fineGrainedLineages": [{"upstreamType": "FIELD_SET", "upstreams": ["urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD),x)"], "downstreamType": "FIELD", "confidenceScore": 1.0}]}`,
	`{"upstreams": [{"auditStamp": {"time": 0, "actor": "urn:li:corpuser:unknown"}, "dataset": "urn:li:corpuser:x", "type": "COPY"}]}`,
	`{"schemaName": "t", "platform": "urn:li:dataPlatform:hive", "version": 0, "hash": "", "platformSchema": {"com.linkedin.schema.OtherSchema": {"rawSchema": ""}}, "fields": [` +
		`{"fieldPath": "a", "nullable": false, "type": {"type": {"com.linkedin.schema.StringType": {}}}, "nativeDataType": "string", "recursive": false, "isPartOfKey": false}]}`,
	`{"timestampMillis": 1, "uniqueUserCount": 2, "userCounts": [{"user": "urn:li:corpuser:a", "count": 3}]}`,
	`{"timestampMillis": "1"}`, `{"removed": true}`, `{"removed": null}`, `{"name": "a", "customProperties": {"k": "v", "k": "w"}}`,
	`[]`, ``, `{`, `{"owners": []} x`,
}

func TestCheckHeld(t *testing.T) {
	t.Parallel()
	for _, s := range checkHeldSeeds {
		checkHeldAgrees(t, s)
	}
}

func FuzzCheckHeld(f *testing.F) {
	for _, s := range checkHeldSeeds {
		f.Add(s)
	}
	f.Fuzz(checkHeldAgrees)
}
