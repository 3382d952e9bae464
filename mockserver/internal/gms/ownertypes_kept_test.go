package gms

import (
	"encoding/json"
	"testing"
)

// TestOwnerTypesKeptAnswers checks that an answer ownerTypes keeps for a
// value is the one it computes, and that a caller changing the bytes it
// was given changes no later answer.
func TestOwnerTypesKeptAnswers(t *testing.T) {
	in := json.RawMessage(`{"owners":[{"owner":"urn:li:corpuser:kept","type":"DATAOWNER"}]}`)
	want, changed := ownerTypesOf(in)
	if !changed {
		t.Fatal("no ownerTypes added")
	}
	for i := range 3 {
		got, ok := ownerTypes(in)
		if !ok || string(got) != string(want) {
			t.Fatalf("call %d: %s, %v; want %s", i, got, ok, want)
		}
		for j := range got {
			got[j] = 'x'
		}
	}
	same := json.RawMessage(`{"owners":[],"lastModified":{"actor":"urn:li:corpuser:x","time":0}}`)
	for range 2 {
		if got, ok := ownerTypes(same); ok || string(got) != string(same) {
			t.Fatalf("an ownership without owners changed: %s", got)
		}
	}
}
