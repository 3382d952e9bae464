package entity_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/urn"
)

func TestNewDataset(t *testing.T) {
	t.Parallel()
	u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)").(urn.Dataset)
	ds := entity.NewDataset(u, "T.", entity.Column{Name: "id", Type: "BIGINT", Description: "Id"},
		entity.Column{Name: "tags", Type: "array<string>", Nullable: true},
		entity.Column{Name: "geo", Type: "geography", Logical: aspects.RecordType{}})
	got, err := json.Marshal(ds.Schema)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"schemaName":"db.t","platform":"urn:li:dataPlatform:hive","version":0,"created":{"time":0,"actor":"urn:li:corpuser:unknown"},"lastModified":{"time":0,"actor":"urn:li:corpuser:unknown"},"hash":"","fields":[` +
		`{"fieldPath":"id","nullable":false,"description":"Id","type":{"type":{"com.linkedin.schema.NumberType":{}}},"nativeDataType":"BIGINT","recursive":false,"isPartOfKey":false},` +
		`{"fieldPath":"tags","nullable":true,"type":{"type":{"com.linkedin.schema.ArrayType":{}}},"nativeDataType":"array\u003cstring\u003e","recursive":false,"isPartOfKey":false},` +
		`{"fieldPath":"geo","nullable":false,"type":{"type":{"com.linkedin.schema.RecordType":{}}},"nativeDataType":"geography","recursive":false,"isPartOfKey":false}],"platformSchema":{"com.linkedin.schema.OtherSchema":{"rawSchema":""}}}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
	if *ds.Properties.Description != "T." {
		t.Errorf("description %v", ds.Properties.Description)
	}
	if d := entity.NewDataset(u, ""); d.Properties != nil || d.Schema != nil || len(entity.Aspects(d)) != 0 {
		t.Errorf("NewDataset without description or columns holds %v", entity.Aspects(d))
	}
	key, _ := json.Marshal(ds.KeyAspect())
	if string(key) != `{"platform":"urn:li:dataPlatform:hive","name":"db.t","origin":"PROD"}` {
		t.Errorf("key %s", key)
	}
}

func TestLogicalType(t *testing.T) {
	t.Parallel()
	for native, want := range map[string]aspects.FieldType{
		"int": aspects.NumberType{}, "DECIMAL(10,2)": aspects.NumberType{}, "varchar(64)": aspects.StringType{},
		"boolean": aspects.BooleanType{}, "date": aspects.DateType{}, "timestamp with time zone": aspects.TimeType{},
		"bytea": aspects.BytesType{}, "map<string,int>": aspects.MapType{}, "struct<a:int>": aspects.RecordType{},
		"geography": aspects.NullType{}, "": aspects.NullType{},
	} {
		if got := entity.LogicalType(native); got != want {
			t.Errorf("LogicalType(%q) = %T, want %T", native, got, want)
		}
	}
}

func TestNewMLModel(t *testing.T) {
	t.Parallel()
	u := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)").(urn.MLModel)
	m := entity.NewMLModel(u, "", map[string]any{"lr": 0.01, "depth": 6, "opt": "adam"}, map[string]any{"auc": float32(0.5)})
	got, _ := json.Marshal(m.Properties)
	want := `{"customProperties":{},"hyperParams":[{"name":"depth","value":"6"},{"name":"lr","value":"0.01"},{"name":"opt","value":"adam"}],"trainingMetrics":[{"name":"auc","value":"0.5"}],"tags":[]}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("properties (-want +got):\n%s", diff)
	}
}

func TestSetAspectAndNew(t *testing.T) {
	t.Parallel()
	e, err := entity.New(urn.MustParse("urn:li:mlFeature:(users,age)"))
	if err != nil {
		t.Fatal(err)
	}
	f := e.(*entity.MLFeature)
	if !entity.SetAspect(f, aspects.Status{Removed: true}) || f.Status == nil || !f.Status.Removed {
		t.Errorf("SetAspect of a value: %v", f.Status)
	}
	if !entity.SetAspect(f, &aspects.GlobalTags{}) || f.GlobalTags == nil {
		t.Error("SetAspect of a pointer")
	}
	if entity.SetAspect(f, aspects.DatasetProperties{}) {
		t.Error("SetAspect of an aspect the type has no field for reported true")
	}
	if got := len(entity.Aspects(f)); got != 2 {
		t.Errorf("Aspects() has %d, want 2", got)
	}
	if f.Loaded() || f.Version("status") != "" || f.ReadAspects() != nil {
		t.Error("an entity built in the program says it was read")
	}
	if _, err := entity.New(urn.MustParse("urn:li:noSuchType:x")); err == nil {
		t.Error("New of an entity type without a type succeeded")
	}
	if _, err := entity.New(nil); err == nil {
		t.Error("New(nil) succeeded")
	}
}
