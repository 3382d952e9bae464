package aspects_test

import (
	"errors"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/google/go-cmp/cmp"
)

func TestDecodeRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, aspect, json string
		wantPath           string
		wantErr            string
	}{
		{"unknown aspect", "noSuchAspect", `{}`, "", "aspects: decode noSuchAspect: unknown aspect"},
		{"not an object", "status", `[]`, "", "aspects: decode status: not a JSON object"},
		{"null", "status", `null`, "", "aspects: decode status: not a JSON object"},
		{"invalid JSON", "status", `{"removed":`, "", "aspects: decode status: unexpected EOF"},
		{"trailing data", "status", `{} {}`, "", "aspects: decode status: data after the JSON value"},
		{"unknown top-level field", "status", `{"removed":true,"deleted":true}`, "deleted", `aspects: decode status: field "deleted": unknown field`},
		{"field in another case", "editableMlModelProperties", `{"Description":"x"}`, "Description", `aspects: decode editableMlModelProperties: field "Description": unknown field`},
		{"nested unknown field", "schemaMetadata",
			`{"schemaName":"s","platform":"urn:li:dataPlatform:hive","version":0,"hash":"","platformSchema":{"com.linkedin.schema.Schemaless":{}},` +
				`"fields":[{"fieldPath":"a","type":{"type":{"com.linkedin.schema.StringType":{}}},"nativeDataType":"string","colour":"red"}]}`,
			"fields[0].colour", `aspects: decode schemaMetadata: field "fields[0].colour": unknown field`},
		{"unknown field in a union member", "schemaMetadata",
			`{"schemaName":"s","platform":"p","version":0,"hash":"","platformSchema":{"com.linkedin.schema.OtherSchema":{"rawSchema":"","x":1}},"fields":[]}`,
			"platformSchema.com.linkedin.schema.OtherSchema.x", `aspects: decode schemaMetadata: field "platformSchema.com.linkedin.schema.OtherSchema.x": unknown field`},
		{"unknown union member", "schemaMetadata",
			`{"schemaName":"s","platform":"p","version":0,"hash":"","platformSchema":{"com.linkedin.schema.AvroSchema":{"schema":""}},"fields":[]}`,
			"", `aspects: decode schemaMetadata: schema metadata: platformSchema: unknown union member "com.linkedin.schema.AvroSchema"`},
		{"two union members", "schemaMetadata",
			`{"schemaName":"s","platform":"p","version":0,"hash":"","platformSchema":{"com.linkedin.schema.Schemaless":{},"com.linkedin.schema.OtherSchema":{"rawSchema":""}},"fields":[]}`,
			"", `aspects: decode schemaMetadata: schema metadata: platformSchema: union has 2 members, want exactly 1`},
		{"wrong JSON type", "status", `{"removed":"yes"}`, "", "aspects: decode status: json: cannot unmarshal string into Go struct field Status.removed of type bool"},
		{"null optional field", "datasetProperties", `{"customProperties":{},"tags":[],"description":null}`, "description", `aspects: decode datasetProperties: field "description": null is not a valid value`},
		{"hyperparameter with two members", "mlModelProperties", `{"hyperParameters":{"lr":{"float":0.1,"double":0.1}}}`, "", "aspects: decode mlModelProperties: hyperparameter value: 2 union members, want exactly 1"},
		{"int out of range", "datasetUsageStatistics", `{"timestampMillis":0,"uniqueUserCount":3000000000}`, "", "aspects: decode datasetUsageStatistics: json: cannot unmarshal number 3000000000 into Go struct field DatasetUsageStatistics.uniqueUserCount of type int32"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, err := aspects.Decode(tt.aspect, []byte(tt.json))
			if err == nil {
				t.Fatalf("Decode succeeded with %#v, want an error", v)
			}
			if !errors.Is(err, datahub.ErrValidation) {
				t.Errorf("errors.Is(%v, ErrValidation) = false", err)
			}
			var de *aspects.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %T is not a *DecodeError", err)
			}
			if diff := cmp.Diff(tt.wantPath, de.Path); diff != "" {
				t.Errorf("Path (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
				t.Errorf("Error() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeDefaults(t *testing.T) {
	t.Parallel()
	unknown := aspects.AuditStamp{Time: 0, Actor: aspects.UnknownActor}
	fullTable := &aspects.PartitionSpec{Type: aspects.PartitionTypeFullTable, Partition: aspects.FullTableSnapshot}
	tests := []struct {
		aspect, json string
		want         aspects.Aspect
	}{
		{"ownership", `{"owners":[]}`, &aspects.Ownership{Owners: []aspects.Owner{}, OwnerTypes: map[string][]string{}, LastModified: unknown}},
		{"datasetProperties", `{}`, &aspects.DatasetProperties{CustomProperties: map[string]string{}, Tags: []string{}}},
		{"mlModelProperties", `{}`, &aspects.MLModelProperties{CustomProperties: map[string]string{}, Tags: []string{}}},
		{"mlFeatureProperties", `{"version":{"metadataAttribution":{"time":1,"actor":"urn:li:corpuser:a"}}}`, &aspects.MLFeatureProperties{
			CustomProperties: map[string]string{},
			Version:          &aspects.VersionTag{MetadataAttribution: &aspects.MetadataAttribution{Time: 1, Actor: "urn:li:corpuser:a", SourceDetail: map[string]string{}}},
		}},
		{"editableDatasetProperties", `{"description":"d"}`, &aspects.EditableDatasetProperties{Created: unknown, LastModified: unknown, Description: aspects.Ptr("d")}},
		{"editableSchemaMetadata", `{"editableSchemaFieldInfo":[]}`, &aspects.EditableSchemaMetadata{Created: unknown, LastModified: unknown, EditableSchemaFieldInfo: []aspects.EditableSchemaFieldInfo{}}},
		{"status", `{}`, &aspects.Status{}},
		{"operation", `{"timestampMillis":5,"operationType":"INSERT","lastUpdatedTimestamp":5,"eventGranularity":{"unit":"DAY"}}`, &aspects.Operation{
			TimestampMillis: 5, OperationType: aspects.OperationTypeInsert, LastUpdatedTimestamp: 5,
			EventGranularity: &aspects.TimeWindowSize{Unit: aspects.CalendarIntervalDay, Multiple: 1}, PartitionSpec: fullTable,
		}},
		{"datasetProfile", `{"timestampMillis":5,"partitionSpec":{"partition":"ds=1"}}`, &aspects.DatasetProfile{
			TimestampMillis: 5, PartitionSpec: &aspects.PartitionSpec{Type: aspects.PartitionTypePartition, Partition: "ds=1"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.aspect, func(t *testing.T) {
			t.Parallel()
			got, err := aspects.Decode(tt.aspect, []byte(tt.json))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
