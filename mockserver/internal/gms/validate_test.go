package gms

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

func TestPegasusMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  *pdl.ValidationError
		want string
	}{
		{&pdl.ValidationError{Path: "", Reason: `unrecognized field "foo" (record com.linkedin.common.Status)`},
			"ERROR :: /foo :: unrecognized field found but not allowed"},
		{&pdl.ValidationError{Path: "fields[2]", Reason: `missing required field "type" (record x)`},
			"ERROR :: /fields/2/type :: field is required but not found and has no default value"},
		{&pdl.ValidationError{Path: `customProperties["a.b"]`, Reason: "expected string, got number"},
			"ERROR :: /customProperties/a.b :: expected string, got number"},
		{&pdl.ValidationError{Path: `fields[0].type.type["com.linkedin.schema.StringType"]`, Reason: "expected an object"},
			"ERROR :: /fields/0/type/type/com.linkedin.schema.StringType :: expected an object"},
		{&pdl.ValidationError{Path: `m["q\"uote"]`, Reason: "r"}, `ERROR :: /m/q"uote :: r`},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, pegasusMessage(tt.err)); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tt.err, diff)
		}
	}
}

func TestKeysAndURNs(t *testing.T) {
	t.Parallel()
	entity := func(name string) pdl.Entity {
		e, ok := pdl.LookupEntity(name)
		if !ok {
			t.Fatalf("no entity %s", name)
		}
		return e
	}
	tests := []struct {
		entity, key, urn string
	}{
		{"dataset", `{"platform":"urn:li:dataPlatform:hive","name":"db.t","origin":"PROD"}`, "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"},
		{"corpuser", `{"username":"jdoe"}`, "urn:li:corpuser:jdoe"},
		{"mlFeature", `{"featureNamespace":"ns","name":"f"}`, "urn:li:mlFeature:(ns,f)"},
		{"dataJob", `{"flow":"urn:li:dataFlow:(airflow,dag,PROD)","jobId":"t"}`, "urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),t)"},
	}
	for _, tt := range tests {
		e := entity(tt.entity)
		got, err := urnFromKey(e, []byte(tt.key))
		if err != nil || got != tt.urn {
			t.Errorf("urnFromKey(%s) = %q, %v; want %q", tt.key, got, err, tt.urn)
		}
		key, err := keyFromURN(e, tt.urn)
		if err != nil || string(key) != tt.key {
			t.Errorf("keyFromURN(%s) = %s, %v; want %s", tt.urn, key, err, tt.key)
		}
	}
	// Key fields in another order than the schema's still build the URN in
	// schema order.
	if got, _ := urnFromKey(entity("mlFeature"), []byte(`{"name":"f","featureNamespace":"ns"}`)); got != "urn:li:mlFeature:(ns,f)" {
		t.Errorf("reordered key = %s", got)
	}
	if _, err := keyFromURN(entity("dataJob"), "urn:li:dataJob:x"); err == nil {
		t.Error("keyFromURN accepted a URN with too few parts")
	}
}
