package gms_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

const container = "urn:li:container:abc"

func ptr(s string) *string { return &s }

// TestUpdateDescription checks updateDescription's rules: which resources
// it accepts, the checks of the entity and the schema field, how the
// editable aspects are merged, and the UI's systemMetadata.
func TestUpdateDescription(t *testing.T) {
	t.Parallel()
	const ghost = "urn:li:dataset:(urn:li:dataPlatform:hive,ghost,PROD)"
	const noSchema = "urn:li:dataset:(urn:li:dataPlatform:hive,noschema,PROD)"
	field := func(u, fp, desc string) gms.DescriptionUpdate {
		return gms.DescriptionUpdate{ResourceURN: u, SubResourceType: ptr("DATASET_FIELD"), SubResource: ptr(fp), Description: desc}
	}
	tests := []struct {
		name string
		in   gms.DescriptionUpdate
		// kind and msg are the refusal; 0 for success.
		kind gms.Kind
		msg  string
		// aspect and want are the aspect written on success.
		aspect, want string
	}{
		{name: "field keeps other entries", in: field(ds, "id", "new"),
			aspect: "editableSchemaMetadata", want: `{"editableSchemaFieldInfo":[{"fieldPath":"other","description":"kept"},{"fieldPath":"id","description":"new"}]}`},
		{name: "field entry replaced", in: field(ds, "other", "changed"),
			aspect: "editableSchemaMetadata", want: `{"editableSchemaFieldInfo":[{"fieldPath":"other","description":"changed"}]}`},
		{name: "no such field", in: field(ds, "nope", "x"), kind: gms.BadArgument,
			msg: "Failed to update " + ds + " & field nope. Field nope does not exist in the datasets schema."},
		{name: "no sub-resource is the empty field path", in: gms.DescriptionUpdate{ResourceURN: ds, SubResourceType: ptr("DATASET_FIELD")}, kind: gms.BadArgument,
			msg: "Failed to update " + ds + " & field . Field  does not exist in the datasets schema."},
		{name: "no schema", in: field(noSchema, "id", "x"), kind: gms.BadArgument,
			msg: "Failed to update " + noSchema + " & field id. " + noSchema + " has no schema."},
		{name: "missing dataset", in: field(ghost, "id", "x"), kind: gms.BadArgument,
			msg: "Failed to update " + ghost + ". " + ghost + " does not exist."},
		{name: "whole dataset", in: gms.DescriptionUpdate{ResourceURN: ds, Description: "x"}, kind: gms.BadArgument, msg: gms.MsgDescriptionDataset},
		{name: "other entity type", in: gms.DescriptionUpdate{ResourceURN: "urn:li:corpuser:jdoe", Description: "x"}, kind: gms.Unsupported,
			msg: "Failed to update description. Unsupported resource type urn:li:corpuser:jdoe provided."},
		{name: "malformed urn", in: gms.DescriptionUpdate{ResourceURN: "urn:li:container", Description: "x"}, kind: gms.BadArgument},
		{name: "container", in: gms.DescriptionUpdate{ResourceURN: container, Description: "about"},
			aspect: "editableContainerProperties", want: `{"description":"about"}`},
		{name: "missing container", in: gms.DescriptionUpdate{ResourceURN: "urn:li:container:none", Description: "x"}, kind: gms.BadArgument,
			msg: "Failed to update urn:li:container:none. urn:li:container:none does not exist."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := newCore(t, gms.Options{})
			ctx := t.Context()
			for _, p := range []struct{ u, aspect, value string }{
				{ds, "schemaMetadata", `{"schemaName":"t","platform":"urn:li:dataPlatform:hive","version":0,"hash":"","platformSchema":{"com.linkedin.schema.MySqlDDL":{"tableSchema":""}},"fields":[{"fieldPath":"id","nativeDataType":"int","type":{"type":{"com.linkedin.schema.NumberType":{}}}},{"fieldPath":"other","nativeDataType":"int","type":{"type":{"com.linkedin.schema.NumberType":{}}}}]}`},
				{ds, "editableSchemaMetadata", `{"editableSchemaFieldInfo":[{"fieldPath":"other","description":"kept"}]}`},
				{noSchema, "status", `{"removed":false}`},
				{container, "containerProperties", `{"name":"abc"}`},
			} {
				if err := c.Put(ctx, p.u, p.aspect, json.RawMessage(p.value)); err != nil {
					t.Fatal(p.aspect, err)
				}
			}
			err := c.UpdateDescription(ctx, tt.in)
			if tt.kind != 0 {
				e := gms.AsError(err)
				if e == nil || e.Kind != tt.kind || (tt.msg != "" && e.Message != tt.msg) {
					t.Fatalf("UpdateDescription = %v, want %v %q", err, tt.kind, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			v, err := c.GetAspect(ctx, tt.in.ResourceURN, tt.aspect, 0)
			if err != nil {
				t.Fatal(err)
			}
			var got, want any
			if err := json.Unmarshal(v.Value, &got); err != nil {
				t.Fatal(err)
			}
			_ = json.Unmarshal([]byte(tt.want), &want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.aspect, diff)
			}
			if tt.aspect != "editableContainerProperties" { // the others were written before
				return
			}
			var sm struct {
				Properties map[string]string `json:"properties"`
			}
			if err := json.Unmarshal(v.SystemMetadata, &sm); err != nil || sm.Properties["appSource"] != "ui" {
				t.Errorf("systemMetadata = %s, want the UI's appSource", v.SystemMetadata)
			}
		})
	}
}

// TestUpdateDescriptionDeletedBeforeWrite deletes the entity after
// updateDescription checked that it exists and before its write is applied
// (at the write's own barrier, the last of the call): the write must refuse
// it, not bring the entity back with one aspect.
func TestUpdateDescriptionDeletedBeforeWrite(t *testing.T) {
	t.Parallel()
	st := store.OpenMemory(nil)
	calls, deleteAt := 0, -1
	c := gms.New(st, gms.Options{Follow: func() {
		calls++
		if calls == deleteAt {
			if _, _, err := st.DeleteEntity(container); err != nil {
				t.Error(err)
			}
		}
	}})
	t.Cleanup(func() { _ = c.Close(); _ = st.Close() })
	ctx := t.Context()
	if err := c.Put(ctx, container, "containerProperties", json.RawMessage(`{"name":"abc"}`)); err != nil {
		t.Fatal(err)
	}
	update := gms.DescriptionUpdate{ResourceURN: container, Description: "about"}
	calls = 0
	if err := c.UpdateDescription(ctx, update); err != nil { // counts the barriers of one update
		t.Fatal(err)
	}
	deleteAt, calls = calls, 0
	err := c.UpdateDescription(ctx, update)
	if e := gms.AsError(err); e == nil || e.Kind != gms.BadArgument || e.Message != "Failed to update "+container+". "+container+" does not exist." {
		t.Errorf("UpdateDescription of an entity deleted before the write = %v", err)
	}
	if ok, err := c.Exists(ctx, container); err != nil || ok {
		t.Errorf("Exists = %v, %v: the write brought the deleted entity back", ok, err)
	}
}
