package pdl_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/internal/pdl"
)

// WIRE.md §2.1: the schemaMetadata of DataHub's Rest.li doc example (the elided leading fields
// filled with schemaName, the only one without a default).
const schemaMetadataDoc = `{"schemaName":"foo","platformSchema":{"com.linkedin.schema.KafkaSchema":{"documentSchema":"..."}},"fields":[{"fieldPath":"foo","description":"Bar","type":{"type":{"com.linkedin.schema.StringType":{}}},"nativeDataType":"string"}],"version":0,"hash":"","platform":"urn:li:dataPlatform:foo"}`

// WIRE.md §1.3: the ownership value the Python emitter sends (test_rest_sink.py).
const ownershipPython = `{"owners": [{"owner": "urn:li:corpuser:fbar", "type": "DATAOWNER"}], "ownerTypes": {}, "lastModified": {"time": 0, "actor": "urn:li:corpuser:fbar"}}`

// WIRE.md §1.3: the illustrative mlFeatureProperties value.
const mlFeaturePython = `{"customProperties": {}, "description": "desc", "dataType": "CONTINUOUS", "version": {"versionTag": "1"}, "sources": ["urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"]}`

// A datasetProfile as DataHub's profiler emits it.
const datasetProfilePython = `{"timestampMillis": 1700000000000, "eventGranularity": {"unit": "DAY", "multiple": 1}, "partitionSpec": {"type": "FULL_TABLE", "partition": "FULL_TABLE_SNAPSHOT"}, "rowCount": 1000, "columnCount": 2, "fieldProfiles": [{"fieldPath": "id", "uniqueCount": 1000, "uniqueProportion": 1.0, "nullCount": 0, "nullProportion": 0.0, "min": "1", "max": "1000", "quantiles": [{"quantile": "0.5", "value": "500"}], "distinctValueFrequencies": [{"value": "1", "frequency": 1}], "histogram": {"boundaries": ["0", "10"], "heights": [0.5]}, "sampleValues": ["1", "2"]}], "sizeInBytes": 4096}`

func TestValidateValid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, record, json string
	}{
		{"schemaMetadata doc example", "com.linkedin.schema.SchemaMetadata", schemaMetadataDoc},
		{"ownership from Python", "com.linkedin.common.Ownership", ownershipPython},
		{"ownership minimal", "com.linkedin.common.Ownership", `{"owners": []}`},
		{"mlFeatureProperties illustrative", "com.linkedin.ml.metadata.MLFeatureProperties", mlFeaturePython},
		{"mlFeatureProperties empty", "com.linkedin.ml.metadata.MLFeatureProperties", `{}`},
		{"datasetProfile", "com.linkedin.dataset.DatasetProfile", datasetProfilePython},
		{"datasetProfile minimal", "com.linkedin.dataset.DatasetProfile", `{"timestampMillis": 0}`},
		{"status default", "com.linkedin.common.Status", `{}`},
		{"status removed", "com.linkedin.common.Status", `{"removed": true}`},
		{"long as exponent", "com.linkedin.common.Status", `{"lifecycleLastUpdated": {"time": 1e3, "actor": "urn:li:corpuser:x"}}`},
		{"primitive union member", "com.linkedin.ml.metadata.MLModelProperties", `{"hyperParameters": {"lr": {"double": 0.1}, "layers": {"int": 3}, "opt": {"string": "adam"}}}`},
		{"datasetUsageStatistics", "com.linkedin.dataset.DatasetUsageStatistics", `{"timestampMillis": 1, "uniqueUserCount": 2, "userCounts": [{"user": "urn:li:corpuser:a", "count": 3}], "fieldCounts": [{"fieldPath": "x", "count": 2147483647}]}`},
		{"operation", "com.linkedin.common.Operation", `{"timestampMillis": 1, "lastUpdatedTimestamp": 2, "operationType": "CUSTOM", "customOperationType": "VACUUM"}`},
		{"snapshot model upstreamLineage", "com.linkedin.dataset.UpstreamLineage", `{"upstreams": [{"auditStamp": {"time": 0, "actor": "urn:li:corpuser:unknown"}, "dataset": "urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)", "type": "TRANSFORMED"}]}`},
		{"bytes latin-1", "com.linkedin.mxe.GenericAspect", `{"value": "{\"a\": \"\u00e9\"}", "contentType": "application/json"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if err := pdl.ValidateJSON(tt.record, []byte(tt.json)); err != nil {
				t.Errorf("ValidateJSON(%s) = %v, want nil", tt.record, err)
			}
		})
	}
}

// fieldTypeKeys are the member keys of SchemaFieldDataType's type union.
const fieldTypeKeys = `"com.linkedin.schema.BooleanType", "com.linkedin.schema.FixedType", "com.linkedin.schema.StringType", "com.linkedin.schema.BytesType", "com.linkedin.schema.NumberType", "com.linkedin.schema.DateType", "com.linkedin.schema.TimeType", "com.linkedin.schema.EnumType", "com.linkedin.schema.NullType", "com.linkedin.schema.MapType", "com.linkedin.schema.ArrayType", "com.linkedin.schema.UnionType", "com.linkedin.schema.RecordType"`

func TestValidateInvalid(t *testing.T) {
	t.Parallel()
	const (
		sm  = "com.linkedin.schema.SchemaMetadata"
		own = "com.linkedin.common.Ownership"
		mlf = "com.linkedin.ml.metadata.MLFeatureProperties"
		dp  = "com.linkedin.dataset.DatasetProfile"
	)
	swap := func(s, old, new string) string {
		if !strings.Contains(s, old) {
			panic(fmt.Sprintf("test setup: %q not in %s", old, s))
		}
		return strings.Replace(s, old, new, 1)
	}
	tests := []struct {
		name, record, json string
		want               pdl.ValidationError
	}{
		{"unknown top-level field", own, swap(ownershipPython, `"ownerTypes"`, `"bogus": 1, "ownerTypes"`),
			pdl.ValidationError{Reason: `unrecognized field "bogus"`}},
		{"missing required top-level field", sm, swap(schemaMetadataDoc, `"hash":"",`, ``),
			pdl.ValidationError{Reason: `missing required field "hash"`}},
		{"missing required nested field", sm, swap(schemaMetadataDoc, `"type":{"type":{"com.linkedin.schema.StringType":{}}}`, `"type":{}`),
			pdl.ValidationError{Path: "fields[0].type", Reason: `missing required field "type"`}},
		{"unknown nested field", sm, swap(schemaMetadataDoc, `"fieldPath":"foo"`, `"fieldPath":"foo","colour":"red"`),
			pdl.ValidationError{Path: "fields[0]", Reason: `unrecognized field "colour"`}},
		{"unknown union member", sm, swap(schemaMetadataDoc, `com.linkedin.schema.StringType`, `com.linkedin.schema.TextType`),
			pdl.ValidationError{Path: "fields[0].type.type", Reason: `"com.linkedin.schema.TextType" is not a member of the union; want one of "com.linkedin.schema.BooleanType", "com.linkedin.schema.FixedType", "com.linkedin.schema.StringType", "com.linkedin.schema.BytesType", "com.linkedin.schema.NumberType", "com.linkedin.schema.DateType", "com.linkedin.schema.TimeType", "com.linkedin.schema.EnumType", "com.linkedin.schema.NullType", "com.linkedin.schema.MapType", "com.linkedin.schema.ArrayType", "com.linkedin.schema.UnionType", "com.linkedin.schema.RecordType"`, Pegasus: `"com.linkedin.schema.TextType" is not a member type of union [ ` + fieldTypeKeys + ` ]`}},
		{"pegasus2avro union key", sm, swap(schemaMetadataDoc, `com.linkedin.schema.KafkaSchema`, `com.linkedin.pegasus2avro.schema.KafkaSchema`),
			pdl.ValidationError{Path: "platformSchema", Reason: `"com.linkedin.pegasus2avro.schema.KafkaSchema" is not a member of the union; want one of "com.linkedin.schema.EspressoSchema", "com.linkedin.schema.OracleDDL", "com.linkedin.schema.MySqlDDL", "com.linkedin.schema.PrestoDDL", "com.linkedin.schema.KafkaSchema", "com.linkedin.schema.BinaryJsonSchema", "com.linkedin.schema.OrcSchema", "com.linkedin.schema.Schemaless", "com.linkedin.schema.KeyValueSchema", "com.linkedin.schema.OtherSchema"`, Pegasus: `"com.linkedin.pegasus2avro.schema.KafkaSchema" is not a member type of union [ "com.linkedin.schema.EspressoSchema", "com.linkedin.schema.OracleDDL", "com.linkedin.schema.MySqlDDL", "com.linkedin.schema.PrestoDDL", "com.linkedin.schema.KafkaSchema", "com.linkedin.schema.BinaryJsonSchema", "com.linkedin.schema.OrcSchema", "com.linkedin.schema.Schemaless", "com.linkedin.schema.KeyValueSchema", "com.linkedin.schema.OtherSchema" ]`}},
		{"union with two keys", sm, swap(schemaMetadataDoc, `{"com.linkedin.schema.StringType":{}}`, `{"com.linkedin.schema.StringType":{},"com.linkedin.schema.DateType":{}}`),
			pdl.ValidationError{Path: "fields[0].type.type", Reason: `a union needs exactly one member key (one of "com.linkedin.schema.BooleanType", "com.linkedin.schema.FixedType", "com.linkedin.schema.StringType", "com.linkedin.schema.BytesType", "com.linkedin.schema.NumberType", "com.linkedin.schema.DateType", "com.linkedin.schema.TimeType", "com.linkedin.schema.EnumType", "com.linkedin.schema.NullType", "com.linkedin.schema.MapType", "com.linkedin.schema.ArrayType", "com.linkedin.schema.UnionType", "com.linkedin.schema.RecordType"), got 2 keys`, Pegasus: "DataMap should have exactly one entry for a union type"}},
		{"union as bare string", sm, swap(schemaMetadataDoc, `{"type":{"com.linkedin.schema.StringType":{}}}`, `{"type":"STRING"}`),
			pdl.ValidationError{Path: "fields[0].type.type", Reason: `expected a union (an object with one of "com.linkedin.schema.BooleanType", "com.linkedin.schema.FixedType", "com.linkedin.schema.StringType", "com.linkedin.schema.BytesType", "com.linkedin.schema.NumberType", "com.linkedin.schema.DateType", "com.linkedin.schema.TimeType", "com.linkedin.schema.EnumType", "com.linkedin.schema.NullType", "com.linkedin.schema.MapType", "com.linkedin.schema.ArrayType", "com.linkedin.schema.UnionType", "com.linkedin.schema.RecordType"), got string`, Pegasus: "union type is not backed by a DataMap or null"}},
		{"union member value wrong", sm, swap(schemaMetadataDoc, `{"documentSchema":"..."}`, `{"documentSchema":7}`),
			pdl.ValidationError{Path: `platformSchema["com.linkedin.schema.KafkaSchema"].documentSchema`, Reason: "expected string, got number", Pegasus: "7 cannot be coerced to String"}},
		{"bad enum symbol", own, swap(ownershipPython, `"DATAOWNER"`, `"BOSS"`),
			pdl.ValidationError{Path: "owners[0].type", Reason: `"BOSS" is not a symbol of enum com.linkedin.common.OwnershipType`, Pegasus: `"BOSS" is not an enum symbol`}},
		{"enum as number", mlf, swap(mlFeaturePython, `"CONTINUOUS"`, `3`),
			pdl.ValidationError{Path: "dataType", Reason: `expected enum com.linkedin.common.MLFeatureDataType (a string), got number`, Pegasus: "enum type is not backed by a String"}},
		{"long as string", own, swap(ownershipPython, `"time": 0`, `"time": "0"`),
			pdl.ValidationError{Path: "lastModified.time", Reason: "expected long, got string", Pegasus: "0 cannot be coerced to Long"}},
		{"long not integral", own, swap(ownershipPython, `"time": 0`, `"time": 1.5`),
			pdl.ValidationError{Path: "lastModified.time", Reason: "expected long (an integral number), got 1.5"}},
		{"long out of range", own, swap(ownershipPython, `"time": 0`, `"time": 9223372036854775808`),
			pdl.ValidationError{Path: "lastModified.time", Reason: "long out of range: 9223372036854775808"}},
		{"int out of range", "com.linkedin.dataset.DatasetUsageStatistics", `{"timestampMillis": 1, "fieldCounts": [{"fieldPath": "x", "count": 2147483648}]}`,
			pdl.ValidationError{Path: "fieldCounts[0].count", Reason: "int out of range: 2147483648"}},
		{"float as string", dp, swap(datasetProfilePython, `"uniqueProportion": 1.0`, `"uniqueProportion": "1.0"`),
			pdl.ValidationError{Path: "fieldProfiles[0].uniqueProportion", Reason: "expected float, got string", Pegasus: "1.0 cannot be coerced to Float"}},
		{"boolean as string", "com.linkedin.common.Status", `{"removed": "false"}`,
			pdl.ValidationError{Path: "removed", Reason: "expected boolean, got string", Pegasus: "false cannot be coerced to Boolean"}},
		{"null optional field", mlf, swap(mlFeaturePython, `"description": "desc"`, `"description": null`),
			pdl.ValidationError{Path: "description", Reason: "null is not allowed; omit the field instead", Pegasus: "null cannot be coerced to String"}},
		{"null array item", mlf, swap(mlFeaturePython, `["urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"]`, `[null]`),
			pdl.ValidationError{Path: "sources[0]", Reason: "null array items are not allowed", Pegasus: "null cannot be coerced to String"}},
		{"array as object", mlf, swap(mlFeaturePython, `["urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"]`, `{}`),
			pdl.ValidationError{Path: "sources", Reason: "expected array, got object", Pegasus: "array type is not backed by a DataList"}},
		{"map value wrong type", mlf, swap(mlFeaturePython, `"customProperties": {}`, `"customProperties": {"b": "ok", "a": 1}`),
			pdl.ValidationError{Path: `customProperties["a"]`, Reason: "expected string, got number", Pegasus: "1 cannot be coerced to String"}},
		{"map as array", mlf, swap(mlFeaturePython, `"customProperties": {}`, `"customProperties": []`),
			pdl.ValidationError{Path: "customProperties", Reason: "expected map (an object), got array", Pegasus: "map type is not backed by a DataMap"}},
		{"record as string", own, swap(ownershipPython, `{"time": 0, "actor": "urn:li:corpuser:fbar"}`, `"yesterday"`),
			pdl.ValidationError{Path: "lastModified", Reason: "expected an object (record com.linkedin.common.AuditStamp), got string", Pegasus: "record type is not backed by a DataMap"}},
		{"top level not an object", own, `[]`,
			pdl.ValidationError{Reason: "expected an object (record com.linkedin.common.Ownership), got array", Pegasus: "record type is not backed by a DataMap"}},
		{"missing timeseries timestamp", dp, `{"rowCount": 1}`,
			pdl.ValidationError{Reason: `missing required field "timestampMillis"`}},
		{"bad calendar interval", dp, swap(datasetProfilePython, `"DAY"`, `"FORTNIGHT"`),
			pdl.ValidationError{Path: "eventGranularity.unit", Reason: `"FORTNIGHT" is not a symbol of enum com.linkedin.timeseries.CalendarInterval`, Pegasus: `"FORTNIGHT" is not an enum symbol`}},
		{"primitive union bad key", "com.linkedin.ml.metadata.MLModelProperties", `{"hyperParameters": {"lr": {"decimal": 0.1}}}`,
			pdl.ValidationError{Path: `hyperParameters["lr"]`, Reason: `"decimal" is not a member of the union; want one of "string", "int", "float", "double", "boolean"`, Pegasus: `"decimal" is not a member type of union [ "string", "int", "float", "double", "boolean" ]`}},
		{"bytes above latin-1", "com.linkedin.mxe.GenericAspect", `{"value": "€", "contentType": "application/json"}`,
			pdl.ValidationError{Path: "value", Reason: "bytes string holds U+20AC; only code points up to U+00FF are allowed", Pegasus: `"€" is not a valid string representation of bytes`}},
		{"invalid JSON", own, `{"owners": [`,
			pdl.ValidationError{Reason: "invalid JSON: unexpected EOF"}},
		{"trailing data", own, `{"owners": []} {}`,
			pdl.ValidationError{Reason: "invalid JSON: data after the top-level value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := pdl.ValidateJSON(tt.record, []byte(tt.json))
			var got *pdl.ValidationError
			if !errors.As(err, &got) {
				t.Fatalf("ValidateJSON() = %v (%T), want *ValidationError", err, err)
			}
			if diff := cmp.Diff(tt.want, *got); diff != "" {
				t.Errorf("ValidateJSON() mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(err, datahub.ErrValidation) {
				t.Errorf("errors.Is(%v, datahub.ErrValidation) = false", err)
			}
		})
	}
}

func TestValidationErrorText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  pdl.ValidationError
		want string
	}{
		{pdl.ValidationError{Path: "fields[2].type", Reason: `missing required field "type"`}, `field "fields[2].type": missing required field "type"`},
		{pdl.ValidationError{Reason: `unrecognized field "x"`}, `unrecognized field "x"`},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.err.Error()); diff != "" {
			t.Errorf("Error() mismatch (-want +got):\n%s", diff)
		}
	}
}

func TestValidateUnknownRecord(t *testing.T) {
	t.Parallel()
	err := pdl.Validate("com.example.Nope", map[string]any{})
	if !errors.Is(err, pdl.ErrUnknownRecord) {
		t.Fatalf("Validate(unknown) = %v, want ErrUnknownRecord", err)
	}
}

// TestValidateGoValues covers values built in Go rather than decoded with UseNumber.
func TestValidateGoValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		v       any
		wantErr string
	}{
		{"float64 integral", map[string]any{"owners": []any{}, "lastModified": map[string]any{"time": float64(5), "actor": "urn:li:corpuser:x"}}, ""},
		{"int", map[string]any{"owners": []any{}, "lastModified": map[string]any{"time": 5, "actor": "urn:li:corpuser:x"}}, ""},
		{"float64 fraction", map[string]any{"owners": []any{}, "lastModified": map[string]any{"time": 0.5, "actor": "urn:li:corpuser:x"}}, `field "lastModified.time": expected long (an integral number), got 0.5`},
		{"unsupported Go type", map[string]any{"owners": []any{}, "lastModified": map[string]any{"time": struct{}{}, "actor": "urn:li:corpuser:x"}}, `field "lastModified.time": expected long, got unsupported Go type struct {}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := ""
			if err := pdl.Validate("com.linkedin.common.Ownership", tt.v); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.wantErr, got); diff != "" {
				t.Errorf("Validate() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTypedAspectSchemas checks that every aspect the SDK types has a schema.
func TestTypedAspectSchemas(t *testing.T) {
	t.Parallel()
	for _, a := range []string{"mlFeatureProperties", "mlFeatureTableProperties", "mlModelProperties", "mlModelGroupProperties",
		"datasetProperties", "schemaMetadata", "editableDatasetProperties", "institutionalMemory", "editableSchemaMetadata",
		"datasetKey", "mlFeatureKey", "mlFeatureTableKey", "mlModelKey", "mlModelGroupKey", "dataPlatformKey", "testKey", "status",
		"editableMlFeatureProperties", "editableMlFeatureTableProperties", "editableMlModelProperties", "editableMlModelGroupProperties",
		"globalTags", "glossaryTerms", "ownership", "datasetProfile", "datasetUsageStatistics", "operation", "testInfo", "testResults",
		"dataPlatformInfo"} {
		info, ok := pdl.LookupAspect(a)
		if !ok {
			t.Errorf("aspect %s not in the registry", a)
			continue
		}
		if _, ok := pdl.Record(info.RecordName); !ok {
			t.Errorf("aspect %s: no schema for record %s", a, info.RecordName)
		}
	}
}

// FuzzValidateJSON checks that no input makes Validate panic and that every failure is a
// *ValidationError.
func FuzzValidateJSON(f *testing.F) {
	for _, s := range []string{schemaMetadataDoc, ownershipPython, mlFeaturePython, datasetProfilePython, `{"owners": [null]}`, `[]`, `{"hyperParameters": {"a": {"int": 1e99}}}`} {
		f.Add(s)
	}
	records := []string{"com.linkedin.schema.SchemaMetadata", "com.linkedin.common.Ownership",
		"com.linkedin.ml.metadata.MLFeatureProperties", "com.linkedin.dataset.DatasetProfile", "com.linkedin.ml.metadata.MLModelProperties"}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range records {
			err := pdl.ValidateJSON(r, []byte(s))
			var ve *pdl.ValidationError
			if err != nil && !errors.As(err, &ve) {
				t.Fatalf("ValidateJSON(%s) = %v (%T), want *ValidationError", r, err, err)
			}
		}
	})
}
