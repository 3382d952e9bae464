package client

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
)

// link is an institutionalMemory element as this SDK encodes it, with url
// u and description d (createStamp at time 0 by actor a).
func link(u string) string {
	return `"url":"` + u + `","description":"d","createStamp":{"time":0,"actor":"urn:li:corpuser:a"}`
}

func links(urls ...string) aspects.InstitutionalMemory {
	var m aspects.InstitutionalMemory
	for _, u := range urls {
		m.Elements = append(m.Elements, aspects.InstitutionalMemoryMetadata{
			URL: u, Description: "d", CreateStamp: aspects.AuditStamp{Actor: "urn:li:corpuser:a"},
		})
	}
	return m
}

func TestMergeUnknownListElements(t *testing.T) {
	t.Parallel()
	known := knownMembers(reflect.TypeFor[aspects.InstitutionalMemory]())
	for _, tc := range []struct {
		name   string
		value  aspects.InstitutionalMemory
		stored string
		want   string
	}{
		{"unchanged list", links("a", "b"),
			`{"elements":[{` + link("a") + `,"x":1},{` + link("b") + `,"x":2}],"top":true}`,
			`{"elements":[{` + link("a") + `,"x":1},{` + link("b") + `,"x":2}],"top":true}`},
		{"appended", links("a", "b", "c"),
			`{"elements":[{` + link("a") + `,"x":1},{` + link("b") + `,"x":2}]}`,
			`{"elements":[{` + link("a") + `,"x":1},{` + link("b") + `,"x":2},{` + link("c") + `}]}`},
		{"removed", links("b"),
			`{"elements":[{` + link("a") + `,"x":1},{` + link("b") + `,"x":2}]}`,
			`{"elements":[{` + link("b") + `,"x":2}]}`},
		{"reordered", links("b", "a"),
			`{"elements":[{` + link("a") + `,"x":1},{` + link("b") + `,"x":2}]}`,
			`{"elements":[{` + link("b") + `,"x":2},{` + link("a") + `,"x":1}]}`},
		{"duplicates matched in order", links("a", "a", "a"),
			`{"elements":[{` + link("a") + `,"x":1},{` + link("a") + `,"x":2}]}`,
			`{"elements":[{` + link("a") + `,"x":1},{` + link("a") + `,"x":2},{` + link("a") + `}]}`},
		{"one duplicate removed", links("a"),
			`{"elements":[{` + link("a") + `,"x":1},{` + link("a") + `,"x":2}]}`,
			`{"elements":[{` + link("a") + `,"x":1}]}`},
		{"changed element keeps nothing", links("a2"),
			`{"elements":[{` + link("a") + `,"x":1}]}`,
			`{"elements":[{` + link("a2") + `}]}`},
		{"nested object in an element", links("a"),
			`{"elements":[{"url":"a","description":"d","createStamp":{"time":0,"actor":"urn:li:corpuser:a","future":1}}]}`,
			`{"elements":[{"url":"a","description":"d","createStamp":{"time":0,"actor":"urn:li:corpuser:a","future":1}}]}`},
		{"nested object in an element (settings)", aspects.InstitutionalMemory{Elements: []aspects.InstitutionalMemoryMetadata{{
			URL: "a", Description: "d", CreateStamp: aspects.AuditStamp{Actor: "urn:li:corpuser:a"},
			Settings: &aspects.InstitutionalMemoryMetadataSettings{ShowInAssetPreview: true},
		}}},
			`{"elements":[{` + link("a") + `,"settings":{"showInAssetPreview":true,"colour":"red"},"settings2":{"k":1}}]}`,
			`{"elements":[{` + link("a") + `,"settings":{"showInAssetPreview":true,"colour":"red"},"settings2":{"k":1}}]}`},
		{"stored elements not objects", links("a"), `{"elements":[1,"x",null]}`,
			`{"elements":[{` + link("a") + `}]}`},
		{"stored list not a list", links("a"), `{"elements":{"a":1}}`,
			`{"elements":[{` + link("a") + `}]}`},
		{"emptied", links(), `{"elements":[{` + link("a") + `,"x":1}],"top":1}`,
			`{"elements":[],"top":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkMerge(t, tc.value, tc.stored, known, tc.want)
		})
	}
}

func TestMergeUnknownOwners(t *testing.T) {
	t.Parallel()
	known := knownMembers(reflect.TypeFor[aspects.Ownership]())
	value := aspects.Ownership{Owners: []aspects.Owner{
		{Owner: "urn:li:corpuser:new", Type: aspects.OwnershipTypeDataOwner},
		{Owner: "urn:li:corpuser:old", Type: aspects.OwnershipTypeDataOwner},
	}}
	stored := `{"owners":[{"owner":"urn:li:corpuser:old","type":"DATAOWNER","since":7}],"ownerTypes":{},"lastModified":{"time":0,"actor":"urn:li:corpuser:unknown"},"future":"f"}`
	want := `{"owners":[{"owner":"urn:li:corpuser:new","type":"DATAOWNER"},{"owner":"urn:li:corpuser:old","type":"DATAOWNER","since":7}],"ownerTypes":{},"lastModified":{"time":0,"actor":"urn:li:corpuser:unknown"},"future":"f"}`
	checkMerge(t, value, stored, known, want)
}

func TestKnownMembersLists(t *testing.T) {
	t.Parallel()
	s := knownMembers(reflect.TypeFor[aspects.InstitutionalMemory]())
	el := s.fields["elements"]
	if el == nil || el.elem == nil || el.elem.fields["settings"] == nil || el.elem.typ != reflect.TypeFor[aspects.InstitutionalMemoryMetadata]() {
		t.Fatalf("elements shape = %+v, want a list of InstitutionalMemoryMetadata objects", el)
	}
	if s := knownMembers(reflect.TypeFor[struct {
		B []byte   `json:"b"`
		S []string `json:"s"`
	}]()); s.fields["b"] != nil || s.fields["s"] != nil {
		t.Errorf("bytes or strings given a shape: %+v", s.fields)
	}
}

// A known struct member that encodes as null (a nil pointer without
// omitempty) stays null: nothing is merged into it (this panicked on a nil
// map before).
func TestMergeUnknownNullMember(t *testing.T) {
	t.Parallel()
	type inner struct {
		A int `json:"a"`
	}
	type outer struct {
		P  *inner  `json:"p"`
		Ps []inner `json:"ps"`
	}
	known := knownMembers(reflect.TypeFor[outer]())
	checkMerge(t, outer{}, `{"p":{"a":1,"b":2},"ps":[{"a":0,"b":3}],"c":4}`, known, `{"p":null,"ps":null,"c":4}`)
}

// checkMerge merges value over stored with known and compares the result
// with want as JSON.
func checkMerge(t *testing.T, value any, stored string, known *shape, want string) {
	t.Helper()
	got, err := mergeUnknown(value, json.RawMessage(stored), known)
	if err != nil {
		t.Fatal(err)
	}
	if !equalJSON(got, []byte(want)) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
