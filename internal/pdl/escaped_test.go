package pdl_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// escapedHeld are the records the escaped walk is held to the general one
// for: records, arrays, maps, unions, enums, numbers and URN checks.
var escapedHeld = [][2]string{
	{"dataset", "com.linkedin.common.Ownership"},
	{"dataset", "com.linkedin.common.Status"},
	{"dataset", "com.linkedin.dataset.DatasetProperties"},
	{"dataset", "com.linkedin.dataset.UpstreamLineage"},
	{"dataset", "com.linkedin.schema.SchemaMetadata"},
	{"dataset", "com.linkedin.dataset.DatasetUsageStatistics"},
	{"dataset", "com.linkedin.common.GlobalTags"},
}

// escapedLiteral is s as a JSON string literal with only " and \ escaped
// (as Python's json.dumps writes ASCII text), followed by text after it.
func escapedLiteral(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// checkEscaped holds Held.ConformsEscaped of the literal lit (followed by
// after) to the general reading: the literal decoded by AppendUnquoted,
// then checked by Held.ConformsCompactHash. When the escaped walk passes,
// the decoding must be the literal's, all ASCII, pass the general check
// with the same compaction and hash, and data[:End] must be one literal.
// It reports whether the walk passed.
func checkEscaped(t *testing.T, held pdl.Held, name, lit, after string) bool {
	t.Helper()
	data := []byte(lit + after)
	for _, room := range []int{0, 8, 1024} { // the results appended in place or moved
		raw, compact := make([]byte, 3, 3+room), make([]byte, 5, 5+room)
		copy(raw, "abc")
		copy(compact, "vwxyz")
		got, ok := held.ConformsEscaped(data, 0, raw, compact)
		if !ok {
			return false
		}
		// data[:End] is one literal whole (AppendUnquoted reads all of it).
		want, okU := pdl.AppendUnquoted(nil, data[:min(got.End, len(data))])
		wc, wh, ascii, okC := held.ConformsCompactHash(want, nil)
		switch {
		case !okU:
			t.Fatalf("%s: ConformsEscaped(%q) passes %q, no literal", name, data, data[:min(got.End, len(data))])
		case !bytes.Equal(got.Raw, want):
			t.Fatalf("%s: ConformsEscaped(%q) decodes %q, AppendUnquoted %q", name, lit, got.Raw, want)
		case !okC || !ascii:
			t.Fatalf("%s: ConformsEscaped(%q) passes what ConformsCompactHash refuses (ok %v, ascii %v)", name, lit, okC, ascii)
		case !bytes.Equal(got.Compact, wc) || got.Hash != wh:
			t.Fatalf("%s: ConformsEscaped(%q) = %q %#x; ConformsCompactHash %q %#x", name, lit, got.Compact, got.Hash, wc, wh)
		case string(raw[:3]) != "abc" || string(compact[:5]) != "vwxyz":
			t.Fatalf("%s: ConformsEscaped(%q) wrote over its destinations' text", name, lit)
		}
	}
	return true
}

// escapedSeeds are JSON texts (decoded values) the fuzz test starts from,
// escaped by escapedLiteral: escapes within the text, unicode, invalid
// values, unknown fields, numbers, nested records, unions and maps.
var escapedSeeds = []string{
	`{"owners": [{"owner": "urn:li:corpuser:fbar", "type": "DATAOWNER"}], "ownerTypes": {}, "lastModified": {"time": 0, "actor": "urn:li:corpuser:fbar"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:fbar","type":"DATAOWNER"}],"lastModified":{"time":1700000000000,"actor":"urn:li:corpuser:fbar"}}`,
	`{"owners": [{"owner": "urn:li:corpGroup:eng", "type": "TECHNICAL_OWNER", "typeUrn": "urn:li:ownershipType:__system__technical_owner"}], "ownerTypes": {"urn:li:ownershipType:x": ["urn:li:corpuser:a"]}}`,
	`{"owners": [], "ownerTypes": {"urn:li:ownershipType:x": [{"urn:li:corpuser:a": 1}]}}`,
	`{"owners": [{"owner": "urn:li:corpuser:f\u0062ar", "type": "DATAOWNER"}]}`,
	`{"owners": [{"owner": "urn:li:corpuser:f\"bar", "type": "DATAOWNER"}]}`,
	`{"owners": [{"owner": "urn:li:corpuser:é", "type": "DATAOWNER"}]}`,
	"{\"owners\": [{\"owner\": \"urn:li:corpuser:a\",\n \"type\": \"DATAOWNER\"}]}",
	`{"owners": [{"owner": "urn:li:corpuser:a", "type": "NOT_A_TYPE"}]}`,
	`{"owners": [{"owner": "urn:li:corpuser:a", "type": "DATAOWNER", "unknown": 1}]}`,
	`{"owners": [{"owner": "not a urn", "type": "DATAOWNER"}]}`,
	`{"owners": null}`, `{"owners": []} x`, `{"owners": [}`, `[]`, `{}`, ``, ` {"removed": true} `,
	`{"removed": true}`, `{"removed": 1}`, `{"removed": false, "removed": true}`,
	`{"name": "a", "customProperties": {"k": "v", "k2": "w"}, "tags": ["a", "b"], "created": {"time": -1}}`,
	`{"name": "a", "customProperties": {"k": "v", "k": "w"}}`,
	`{"upstreams": [{"auditStamp": {"time": 0, "actor": "urn:li:corpuser:unknown"}, "dataset": "urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)", "type": "TRANSFORMED"}], ` +
		`"fineGrainedLineages": [{"upstreamType": "FIELD_SET", "upstreams": ["urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD),x)"], "downstreamType": "FIELD", "confidenceScore": 1.5e0}]}`,
	`{"schemaName": "t", "platform": "urn:li:dataPlatform:hive", "version": 0, "hash": "", "platformSchema": {"com.linkedin.schema.OtherSchema": {"rawSchema": ""}}, "fields": [` +
		`{"fieldPath": "a", "nullable": false, "type": {"type": {"com.linkedin.schema.StringType": {}}}, "nativeDataType": "string", "recursive": false, "isPartOfKey": false}]}`,
	`{"schemaName": "t", "platform": "urn:li:dataPlatform:hive", "version": 0, "hash": "", "platformSchema": {"com.linkedin.schema.Unknown": {}}, "fields": []}`,
	`{"timestampMillis": 1, "uniqueUserCount": 2, "userCounts": [{"user": "urn:li:corpuser:a", "count": 3}], "totalSqlQueries": 99999999999}`,
	`{"timestampMillis": 1.5, "uniqueUserCount": 2147483648}`, `{"timestampMillis": "1"}`,
	`{"tags": [{"tag": "urn:li:tag:a"}, {"tag": "urn:li:tag:b", "context": "c"}]}`,
	`{"tags": [{"tag": "urn:li:corpuser:a"}]}`,
}

// TestConformsEscaped checks the seeds, and that the walk reads the texts
// Rest.li emitters send: Python's ", " style and compact text.
func TestConformsEscaped(t *testing.T) {
	t.Parallel()
	for _, s := range escapedSeeds {
		lit := escapedLiteral(s)
		for _, hr := range escapedHeld {
			held, ok := pdl.HeldRecord(hr[0], hr[1])
			if !ok {
				t.Fatalf("no record %v", hr)
			}
			checkEscaped(t, held, hr[1], lit, `,"contentType":"application/json"}`)
		}
	}
	held, _ := pdl.HeldRecord("dataset", "com.linkedin.common.Ownership")
	for _, s := range escapedSeeds[:3] {
		if !checkEscaped(t, held, "ownership", escapedLiteral(s), "") {
			t.Errorf("ConformsEscaped does not read %q", escapedLiteral(s))
		}
	}
}

// TestConformsEscapedAspects checks every aspect document of the SDK's
// testdata, as a Rest.li emitter escapes it, against its record: the
// escaped walk passes it (the documents are ASCII and valid) and agrees
// with the general reading.
func TestConformsEscapedAspects(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "..", "aspects", "testdata", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no aspect documents: %v", err)
	}
	passed := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name, _, _ := strings.Cut(filepath.Base(file), ".")
		info, ok := pdl.LookupAspect(name)
		if !ok {
			t.Fatalf("%s: no aspect %q", file, name)
		}
		var entity string
		for _, e := range pdl.Entities() {
			if e.Allows(name) {
				entity = e.Name
				break
			}
		}
		held, ok := pdl.HeldRecord(entity, info.RecordName)
		if !ok {
			continue // no record held (a key aspect's is held otherwise)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{compact.String(), strings.ReplaceAll(strings.ReplaceAll(compact.String(), `":`, `": `), `,"`, `, "`)} {
			if checkEscaped(t, held, file, escapedLiteral(text), "}") {
				passed++
			} else if !strings.ContainsAny(text, "\\\u0080") && bytes.IndexFunc([]byte(text), func(r rune) bool { return r >= 0x80 }) < 0 {
				if _, _, _, ok := held.ConformsCompactHash([]byte(text), nil); ok {
					t.Errorf("%s: ConformsEscaped does not read an ASCII text without escapes that conforms: %s", file, text)
				}
			}
		}
	}
	if passed == 0 {
		t.Fatal("the escaped walk passed no document")
	}
}

func FuzzConformsEscaped(f *testing.F) {
	for _, s := range escapedSeeds {
		f.Add(escapedLiteral(s))
		f.Add(s) // as a literal's body as it is
	}
	f.Add(`"{\"removed\": true}"`)
	f.Add(`"{\"removed\":\ttrue}"`)
	f.Add(`"{\"removed\": true}\u0020"`)
	f.Add(`"{\"removed\"\u003a true}"`)
	f.Add(`"{\/\"removed\": true}"`)
	f.Add(`"{\"removed\": true}`)
	f.Fuzz(func(t *testing.T, lit string) {
		for _, hr := range escapedHeld {
			held, _ := pdl.HeldRecord(hr[0], hr[1])
			checkEscaped(t, held, hr[1], lit, "")
			checkEscaped(t, held, hr[1], lit, `"}`)
		}
	})
}
