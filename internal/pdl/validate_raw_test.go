package pdl_test

import (
	"math/rand"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

var conformsRecords = []string{"com.linkedin.schema.SchemaMetadata", "com.linkedin.common.Ownership",
	"com.linkedin.ml.metadata.MLFeatureProperties", "com.linkedin.dataset.DatasetProfile",
	"com.linkedin.ml.metadata.MLModelProperties", "com.linkedin.mxe.GenericAspect", "com.linkedin.mxe.SystemMetadata",
	"com.linkedin.common.Status", "com.linkedin.dataset.DatasetUsageStatistics"}

// checkConforms fails when Conforms accepts what decoding and Validate
// refuse, or refuses a value that decodes and validates (for the inputs
// Conforms promises to settle: no repeated keys).
func checkConforms(t *testing.T, record, s string) {
	t.Helper()
	got := pdl.Conforms(record, []byte(s))
	v, ok := decodeStd([]byte(s))
	valid := ok && pdl.Validate(record, v) == nil
	if got && !valid {
		t.Fatalf("Conforms(%s, %q) = true, but it does not validate", record, s)
	}
	c, ok := pdl.ConformsCompact(record, []byte(s))
	if ok != got {
		t.Fatalf("ConformsCompact(%s, %q) = %v, Conforms %v", record, s, ok, got)
	}
	if want, _ := pdl.CompactShared([]byte(s)); ok && string(c) != string(want) {
		t.Fatalf("ConformsCompact(%s, %q) = %q, want %q", record, s, c, want)
	}
}

func FuzzConforms(f *testing.F) {
	for _, s := range []string{schemaMetadataDoc, ownershipPython, mlFeaturePython, datasetProfilePython, `{"owners": [null]}`,
		`[]`, `{"hyperParameters": {"a": {"int": 1e99}}}`, `{"removed": true, "removed": 1}`, `{"value": "\u00e9\u20ac", "contentType": "x"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range conformsRecords {
			checkConforms(t, r, s)
		}
	})
}

// TestConformsMutations runs Conforms against the validator over many
// mutations of valid documents.
func TestConformsMutations(t *testing.T) {
	t.Parallel()
	docs := []string{schemaMetadataDoc, ownershipPython, mlFeaturePython, datasetProfilePython,
		`{"lastObserved": 1618987484580, "lastRunId": "no-run-id-provided", "properties": {"clientId": "acryl-datahub"}, "runId": "r", "version": "3"}`,
		`{"hyperParameters": {"lr": {"double": 0.1}, "layers": {"int": 3}, "opt": {"string": "adam"}}}`,
		`{"timestampMillis": 1, "uniqueUserCount": 2, "userCounts": [{"user": "urn:li:corpuser:a", "count": 3}], "fieldCounts": [{"fieldPath": "x", "count": 2147483647}]}`,
		`{"value": "{\"a\": \"\u00e9\"}", "contentType": "application/json"}`, `{"removed": true}`}
	bits := []string{`null`, `1`, `-1`, `1.5`, `1e3`, `1e999`, `2147483648`, `9223372036854775808`, `"x"`, `"\u20ac"`, `"\u00e9"`,
		`{}`, `[]`, `true`, `,`, `:`, `"`, `{`, `}`, `[`, `]`, `"DATAOWNER"`, `"CONTINUOUS"`, `"removed"`, `"owners"`, `"int"`,
		`{"string": "a"}`, `{"int": 1, "int": 2}`, `"time"`}
	r := rand.New(rand.NewSource(3))
	for n := range 60000 {
		s := docs[n%len(docs)]
		for range 1 + r.Intn(3) {
			i := r.Intn(len(s) + 1)
			switch r.Intn(3) {
			case 0: // insert
				s = s[:i] + bits[r.Intn(len(bits))] + s[i:]
			case 1: // delete a few bytes
				j := min(len(s), i+1+r.Intn(8))
				s = s[:i] + s[j:]
			default: // replace a few bytes
				j := min(len(s), i+1+r.Intn(8))
				s = s[:i] + bits[r.Intn(len(bits))] + s[j:]
			}
		}
		for _, rec := range conformsRecords {
			checkConforms(t, rec, s)
		}
	}
	for _, s := range docs {
		ok := false
		for _, rec := range conformsRecords {
			ok = ok || pdl.Conforms(rec, []byte(s))
		}
		if !ok {
			t.Errorf("no record conforms to %s", s)
		}
	}
}
