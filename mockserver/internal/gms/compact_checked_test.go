package gms

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
)

// aspectPasses is the two-pass form aspectPassesCompact replaced, kept as
// its reference: the check alone, then the compaction.
func aspectPasses(info pdl.AspectInfo, raw []byte, schema bool) bool {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return false
	}
	if schema {
		if !pdl.Conforms(info.RecordName, raw) {
			return false
		}
	} else if !pdl.Valid(raw) {
		return false
	}
	if !info.Timeseries {
		return true
	}
	ms, ok := pdl.ObjectMembers(raw)
	if !ok {
		return false
	}
	var ts []byte // the last timestampMillis wins, as in a decoded object
	for _, m := range ms {
		if m.Key == "timestampMillis" {
			ts = m.Value
		}
	}
	_, err := strconv.ParseInt(string(ts), 10, 64)
	return err == nil
}

var aspectPassesSeeds = []string{
	`{"owners": [{"owner": "urn:li:corpuser:fbar", "type": "DATAOWNER"}], "ownerTypes": {}, "lastModified": {"time": 0, "actor": "urn:li:corpuser:fbar"}}`,
	`{"owners":[]}`, ` {"removed": true} `, "{\"removed\" :\ttrue\n}", `{"removed": 1}`, `[]`, `"x"`, ``, `{`,
	`{"timestampMillis": 1, "uniqueUserCount": 2}`, `{"timestampMillis": "1", "uniqueUserCount": 2}`,
	`{"timestampMillis": 1, "timestampMillis": 1.5}`, `{"unknown": {"a": [1, 2]}}`, `{"description": "a \" b é"}`,
}

// checkAspectPassesCompact holds aspectPassesCompact to aspectPasses and
// jsonx.CompactShared for the aspects of a few kinds, with and without the schema
// check.
func checkAspectPassesCompact(t *testing.T, s string) {
	t.Helper()
	for _, name := range []string{"ownership", "status", "datasetUsageStatistics", "datasetProperties"} {
		info, ok := pdl.LookupAspect(name)
		if !ok {
			t.Fatalf("no aspect %s", name)
		}
		for _, schema := range []bool{true, false} {
			raw := []byte(s)
			got, ok := aspectPassesCompact(info, raw, schema, &valueArena{size: len(raw)})
			wantOK := aspectPasses(info, raw, schema)
			var want []byte
			if wantOK {
				want = jsonx.CompactShared(raw)
			}
			if ok != wantOK || !bytes.Equal(got, want) {
				t.Fatalf("aspectPassesCompact(%s, %q, %v) = %q, %v; want %q, %v", name, s, schema, got, ok, want, wantOK)
			}
		}
	}
}

func TestAspectPassesCompact(t *testing.T) {
	t.Parallel()
	for _, s := range aspectPassesSeeds {
		checkAspectPassesCompact(t, s)
	}
}

func FuzzAspectPassesCompact(f *testing.F) {
	for _, s := range aspectPassesSeeds {
		f.Add(s)
	}
	f.Fuzz(checkAspectPassesCompact)
}
