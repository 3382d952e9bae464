package gms

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDiffSchema checks the TECHNICAL_SCHEMA events of schema changes as
// DataHub's SchemaMetadataChangeEventGenerator makes them: a field of the
// same type, parent and description under a new name is a rename, a new
// native type a MAJOR change, v2 paths are named in their v1 form.
func TestDiffSchema(t *testing.T) {
	t.Parallel()
	schema := func(fields ...string) json.RawMessage {
		var fs []string
		for _, f := range fields {
			path, native, _ := strings.Cut(f, ":")
			fs = append(fs, `{"fieldPath":"`+path+`","nativeDataType":"`+native+`","nullable":true}`)
		}
		return json.RawMessage(`{"fields":[` + strings.Join(fs, ",") + `]}`)
	}
	const v2 = "[version=2.0].[type=struct].s."
	cases := []struct {
		name       string
		prev, cur  json.RawMessage
		want       []string
		highestSem string
	}{
		{"added", nil, schema("a:int", v2+"[type=int].b:int"), []string{"ADD s.b MINOR", "ADD a MINOR"}, "MINOR"},
		{"removed and retyped", schema("a:int", "b:string"), schema("a:bigint"), []string{"MODIFY a MAJOR TYPE_CHANGE", "REMOVE b MAJOR"}, "MAJOR"},
		{"renamed", schema("p.id:int", "p.name:string"), schema("p.id2:int", "p.name:string"), []string{"MODIFY p.id MINOR RENAME 'p.id to p.id2'"}, "MINOR"},
		{"other parent is no rename", schema("p.id:int"), schema("q.id2:int"), []string{"REMOVE p.id MAJOR", "ADD q.id2 MINOR"}, "MAJOR"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			highest := "NONE"
			for _, e := range diffSchema("urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)", c.prev, c.cur) {
				s := e.Operation + " " + downgradePath(e.Parameters["fieldPath"].(string)) + " " + e.SemVerChange
				if cat := e.Parameters["modificationCategory"]; cat != "OTHER" {
					s += " " + cat.(string)
				}
				if e.Parameters["modificationCategory"] == "RENAME" {
					s += " '" + strings.TrimSuffix(strings.SplitN(e.Description, "field '", 2)[1], ".")
				}
				got = append(got, s)
				if semRank[e.SemVerChange] > semRank[highest] {
					highest = e.SemVerChange
				}
			}
			if strings.Join(got, "; ") != strings.Join(c.want, "; ") || highest != c.highestSem {
				t.Errorf("events = %q (highest %s), want %q (%s)", got, highest, c.want, c.highestSem)
			}
		})
	}
}

// TestDiffDocumentationAndDomain checks the DOCUMENTATION and DOMAIN
// events of description and domain changes.
func TestDiffDocumentationAndDomain(t *testing.T) {
	t.Parallel()
	const u = "urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)"
	cases := []struct {
		cat       string
		prev, cur string
		want      string
	}{
		{"DOCUMENTATION", ``, `{"description":"d1"}`, "ADD Documentation for '" + u + "' has been added: 'd1'."},
		{"DOCUMENTATION", `{"description":"d1"}`, `{"description":"d2"}`, "MODIFY Documentation of '" + u + "' has been changed from 'd1' to 'd2'."},
		{"DOCUMENTATION", `{"description":"d2"}`, `{}`, "REMOVE Documentation for '" + u + "' has been removed: 'd2'."},
		{"DOCUMENTATION", `{"description":"d2"}`, `{"description":"d2","name":"n"}`, ""},
		{"DOMAIN", `{"domains":[]}`, `{"domains":["urn:li:domain:sales"]}`, "ADD Domain 'sales' added to entity '" + u + "'."},
		{"DOMAIN", `{"domains":["urn:li:domain:sales"]}`, `{"domains":["urn:li:domain:ops"]}`, "REMOVE Domain 'sales' removed from entity '" + u + "'.; ADD Domain 'ops' added to entity '" + u + "'."},
	}
	for _, c := range cases {
		var got []string
		for _, e := range diffAspect(c.cat, u, json.RawMessage(c.prev), json.RawMessage(c.cur)) {
			got = append(got, e.Operation+" "+e.Description)
		}
		if strings.Join(got, "; ") != c.want {
			t.Errorf("%s %s → %s = %q, want %q", c.cat, c.prev, c.cur, got, c.want)
		}
	}
}
