package aspects

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// canonical decodes JSON into generic values (numbers kept as text) so that
// two documents compare equal regardless of key order and spacing.
func canonical(t *testing.T, data []byte) any {
	t.Helper()
	v, err := decodeAny(data)
	if err != nil {
		t.Fatalf("invalid JSON %s: %v", data, err)
	}
	return v
}

func TestGolden(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, tc := range goldenValues() {
		name := tc.value.AspectName() + "." + tc.variant
		if seen[name] {
			t.Fatalf("duplicate golden case %s", name)
		}
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := json.MarshalIndent(tc.value, "", "  ")
			if err != nil {
				t.Fatalf("MarshalIndent: %v", err)
			}
			got = append(got, '\n')
			file := filepath.Join("testdata", name+".json")
			if *update {
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("encoding differs from %s (-want +got):\n%s", file, diff)
			}

			// Round trip: decode the golden strictly, encode again, same JSON.
			v, err := Decode(tc.value.AspectName(), want)
			if err != nil {
				t.Fatalf("Decode(%s): %v", file, err)
			}
			re, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("Marshal(decoded): %v", err)
			}
			if diff := cmp.Diff(canonical(t, want), canonical(t, re)); diff != "" {
				t.Errorf("round trip of %s changed the JSON (-golden +re-encoded):\n%s", file, diff)
			}
			if tc.variant == "full" {
				// A fully populated value decodes back to itself (nil and
				// empty maps alike: absent defaults decode as empty maps).
				decoded := reflect.ValueOf(v).Elem().Interface()
				if diff := cmp.Diff(tc.value, decoded, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("decoded value differs (-want +got):\n%s", diff)
				}
			}
		})
	}
	for name := range typed {
		for _, variant := range []string{"full", "minimal"} {
			if !seen[name+"."+variant] {
				t.Errorf("no golden case %s.%s", name, variant)
			}
		}
	}
}

// TestGoldenFilesAreKnown fails on stray files in testdata/.
func TestGoldenFilesAreKnown(t *testing.T) {
	t.Parallel()
	want := map[string]bool{}
	for _, tc := range goldenValues() {
		want[tc.value.AspectName()+"."+tc.variant+".json"] = true
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !want[filepath.Base(f)] {
			t.Errorf("stray golden file %s", f)
		}
	}
}

// isSubset reports whether every value of in is present, equal, in out:
// out may add fields (PDL defaults) but must not lose or change any.
func isSubset(in, out any) bool {
	switch in := in.(type) {
	case map[string]any:
		o, ok := out.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range in {
			ov, ok := o[k]
			if !ok || !isSubset(v, ov) {
				return false
			}
		}
		return true
	case []any:
		o, ok := out.([]any)
		if !ok || len(o) != len(in) {
			return false
		}
		for i := range in {
			if !isSubset(in[i], o[i]) {
				return false
			}
		}
		return true
	default:
		return reflect.DeepEqual(in, out)
	}
}

// TestDataHubExamples decodes aspect JSON quoted in WIRE.md (§1.3 as the
// Python SDK emits it, §2.1 as GMS answers it) and encodes it again.
func TestDataHubExamples(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, aspect, json string
		// exact: the re-encoding must equal the input (the Python SDK's own
		// output); otherwise it may only add PDL defaults.
		exact bool
	}{
		{
			name:   "wire 1.3 ownership from test_rest_sink.py",
			aspect: "ownership",
			json:   `{"owners": [{"owner": "urn:li:corpuser:fbar", "type": "DATAOWNER"}], "ownerTypes": {}, "lastModified": {"time": 0, "actor": "urn:li:corpuser:fbar"}}`,
			exact:  true,
		},
		{
			name:   "wire 1.3 mlFeatureProperties",
			aspect: "mlFeatureProperties",
			json:   `{"customProperties": {}, "description": "desc", "dataType": "CONTINUOUS", "version": {"versionTag": "1"}, "sources": ["urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"]}`,
			exact:  true,
		},
		{
			name:   "wire 2.1 mlFeatureProperties read",
			aspect: "mlFeatureProperties",
			json:   `{"customProperties":{},"description":"desc","dataType":"CONTINUOUS"}`,
			exact:  true,
		},
		{
			name:   "wire 2.1 schemaMetadata doc example",
			aspect: "schemaMetadata",
			json: `{"created":{"actor":"urn:li:corpuser:fbar","time":0},
 "platformSchema":{"com.linkedin.schema.KafkaSchema":{"documentSchema":"{\"type\":\"record\",\"name\":\"MetadataChangeEvent\",\"namespace\":\"com.linkedin.mxe\",\"doc\":\"Kafka event for proposing a metadata change for an entity.\",\"fields\":[{\"name\":\"auditHeader\",\"type\":{\"type\":\"record\",\"name\":\"KafkaAuditHeader\",\"namespace\":\"com.linkedin.avro2pegasus.events\",\"doc\":\"Header\"}}]}"}},
 "lastModified":{"actor":"urn:li:corpuser:fbar","time":0},
 "schemaName":"FooEvent",
 "fields":[{"fieldPath":"foo","description":"Bar","type":{"type":{"com.linkedin.schema.StringType":{}}},"nativeDataType":"string"}],
 "version":0,"hash":"","platform":"urn:li:dataPlatform:foo"}`,
		},
		{
			name:   "restli-overview editableSchemaMetadata ingest example",
			aspect: "editableSchemaMetadata",
			json:   `{"editableSchemaFieldInfo":[{"fieldPath":"myFieldName","globalTags":{"tags":[{"tag":"urn:li:tag:Engineering"}]}}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, err := Decode(tt.aspect, []byte(tt.json))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			in, got := canonical(t, []byte(tt.json)), canonical(t, out)
			if tt.exact {
				if diff := cmp.Diff(in, got); diff != "" {
					t.Errorf("re-encoding differs (-input +output):\n%s", diff)
				}
			} else if !isSubset(in, got) {
				t.Errorf("re-encoding lost or changed input values:\ninput  %s\noutput %s", tt.json, out)
			}
			// Encoding is stable: a second round gives the same bytes.
			v2, err := Decode(tt.aspect, out)
			if err != nil {
				t.Fatalf("Decode(re-encoded): %v", err)
			}
			out2, err := json.Marshal(v2)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, out2) {
				t.Errorf("second round differs:\n%s\n%s", out, out2)
			}
		})
	}
}

// TestPythonEquivalent builds in Go the ownership value that DataHub's
// Python test emits and checks the JSON is the same.
func TestPythonEquivalent(t *testing.T) {
	t.Parallel()
	o := Ownership{
		Owners:       []Owner{{Owner: "urn:li:corpuser:fbar", Type: OwnershipTypeDataOwner}},
		LastModified: AuditStamp{Time: 0, Actor: "urn:li:corpuser:fbar"},
	}
	got, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"owners": [{"owner": "urn:li:corpuser:fbar", "type": "DATAOWNER"}], "ownerTypes": {}, "lastModified": {"time": 0, "actor": "urn:li:corpuser:fbar"}}`
	if diff := cmp.Diff(canonical(t, []byte(want)), canonical(t, got)); diff != "" {
		t.Errorf("(-python +go):\n%s", diff)
	}
}

func mustRead(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGoldensPassPDLValidation checks every golden file against the PDL
// validator the mock server uses (internal/pdl, independent of these structs).
func TestGoldensPassPDLValidation(t *testing.T) {
	t.Parallel()
	for _, tc := range goldenValues() {
		name := tc.value.AspectName() + "." + tc.variant
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			info, ok := Lookup(tc.value.AspectName())
			if !ok {
				t.Fatalf("Lookup(%s) failed", tc.value.AspectName())
			}
			if err := pdl.ValidateJSON(info.RecordName, mustRead(t, filepath.Join("testdata", name+".json"))); err != nil {
				t.Errorf("pdl.ValidateJSON: %v", err)
			}
		})
	}
}
