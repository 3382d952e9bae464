package aspects_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/google/go-cmp/cmp"
)

func TestMarshal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		value any
		want  string
	}{
		{"string type", aspects.DataType(aspects.StringType{}), `{"type":{"com.linkedin.schema.StringType":{}}}`},
		{"pointer member", aspects.DataType(&aspects.BooleanType{}), `{"type":{"com.linkedin.schema.BooleanType":{}}}`},
		{"array type", aspects.DataType(aspects.ArrayType{NestedType: []string{"string"}}), `{"type":{"com.linkedin.schema.ArrayType":{"nestedType":["string"]}}}`},
		{"array type without nested type", aspects.DataType(aspects.ArrayType{}), `{"type":{"com.linkedin.schema.ArrayType":{}}}`},
		{"map type", aspects.DataType(aspects.MapType{KeyType: aspects.Ptr("string"), ValueType: aspects.Ptr("long")}), `{"type":{"com.linkedin.schema.MapType":{"keyType":"string","valueType":"long"}}}`},
		{"union type", aspects.DataType(aspects.UnionType{NestedTypes: []string{"int", "string"}}), `{"type":{"com.linkedin.schema.UnionType":{"nestedTypes":["int","string"]}}}`},
		{"hyperparameter double", aspects.HyperParameterDouble(0.001), `{"double":0.001}`},
		{"hyperparameter float", aspects.HyperParameterFloat(0.8), `{"float":0.8}`},
		{"hyperparameter int", aspects.HyperParameterInt(6), `{"int":6}`},
		{"hyperparameter string", aspects.HyperParameterString("adam"), `{"string":"adam"}`},
		{"hyperparameter bool", aspects.HyperParameterBool(false), `{"boolean":false}`},
		{"foreign key spec", aspects.ForeignKeySpec{ForeignKey: aspects.UrnForeignKey{CurrentFieldPath: "owner_urn"}}, `{"foreignKey":{"com.linkedin.schema.UrnForeignKey":{"currentFieldPath":"owner_urn"}}}`},
		{"empty editable properties", aspects.EditableMLFeatureProperties{}, `{}`},
		{"status defaults", aspects.Status{}, `{"removed":false}`},
		{"mlFeatureProperties defaults", aspects.MLFeatureProperties{}, `{"customProperties":{}}`},
		{"optional empty list is kept", aspects.MLFeatureProperties{Sources: []string{}}, `{"customProperties":{},"sources":[]}`},
		{"required nil lists", aspects.TestResults{}, `{"failing":[],"passing":[]}`},
		{"schema field defaults", aspects.SchemaField{FieldPath: "a", Type: aspects.DataType(aspects.NumberType{}), NativeDataType: "int"},
			`{"fieldPath":"a","nullable":false,"type":{"type":{"com.linkedin.schema.NumberType":{}}},"nativeDataType":"int","recursive":false,"isPartOfKey":false}`},
		{"time window multiple defaults to 1", aspects.TimeWindowSize{Unit: aspects.CalendarIntervalWeek}, `{"unit":"WEEK","multiple":1}`},
		{"partition type defaults to PARTITION", aspects.PartitionSpec{Partition: "p=1"}, `{"type":"PARTITION","partition":"p=1"}`},
		{"operation defaults", aspects.Operation{TimestampMillis: 1, OperationType: aspects.OperationTypeDrop, LastUpdatedTimestamp: 1},
			`{"timestampMillis":1,"partitionSpec":{"type":"FULL_TABLE","partition":"FULL_TABLE_SNAPSHOT"},"operationType":"DROP","lastUpdatedTimestamp":1}`},
		{"set stamp is kept", aspects.EditableDatasetProperties{Created: aspects.AuditStamp{Time: 5, Actor: "urn:li:corpuser:a"}},
			`{"created":{"time":5,"actor":"urn:li:corpuser:a"},"lastModified":{"time":0,"actor":"urn:li:corpuser:unknown"}}`},
		{"glossary terms", aspects.GlossaryTerms{AuditStamp: aspects.AuditStamp{Time: 1, Actor: "urn:li:corpuser:a"}}, `{"terms":[],"auditStamp":{"time":1,"actor":"urn:li:corpuser:a"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := json.Marshal(tt.value)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestMarshalErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		value   any
		wantErr string
	}{
		{"schema field data type without type", aspects.SchemaFieldDataType{}, "schema field data type: type is not set"},
		{"nil pointer member", aspects.DataType((*aspects.StringType)(nil)), "union member *aspects.StringType is a nil pointer"},
		{"schema metadata without platform schema", aspects.SchemaMetadata{SchemaName: "s"}, "schema metadata: platformSchema is not set"},
		{"nil pointer platform schema", aspects.SchemaMetadata{PlatformSchema: (*aspects.OtherSchema)(nil)}, "union member *aspects.OtherSchema is a nil pointer"},
		{"foreign key spec without key", aspects.ForeignKeySpec{}, "foreign key spec: foreignKey is not set"},
		{"hyperparameter without member", aspects.HyperParameterValueType{}, "hyperparameter value: 0 union members set, want exactly 1"},
		{"hyperparameter with two members", aspects.HyperParameterValueType{String: aspects.Ptr("a"), Int: aspects.Ptr(int32(1))}, "hyperparameter value: 2 union members set, want exactly 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := json.Marshal(tt.value)
			if err == nil {
				t.Fatalf("Marshal = %s, want an error", got)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Marshal error %q does not contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestHyperParameterValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    aspects.HyperParameterValueType
		want any
	}{
		{aspects.HyperParameterString("x"), "x"},
		{aspects.HyperParameterInt(3), int32(3)},
		{aspects.HyperParameterFloat(0.5), float32(0.5)},
		{aspects.HyperParameterDouble(0.25), 0.25},
		{aspects.HyperParameterBool(true), true},
		{aspects.HyperParameterValueType{}, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.v.Value()); diff != "" {
			t.Errorf("Value() (-want +got):\n%s", diff)
		}
	}
}

// TestNoHTMLEscaping checks that the package's encoders leave <, > and &
// alone, as the Python SDK does, when the caller's encoder does.
func TestNoHTMLEscaping(t *testing.T) {
	t.Parallel()
	v := aspects.DatasetProperties{Description: aspects.Ptr("a < b && c > d")}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	want := `{"customProperties":{},"description":"a < b && c > d","tags":[]}` + "\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
