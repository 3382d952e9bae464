package gms

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
)

// ownerTypesCases are ownership values for the ownerTypes tests: the
// emitters' shapes, repeats, type URNs with dots, existing ownerTypes (the
// same, different, as sets), nulls, white space and characters
// encoding/json escapes.
var ownerTypesCases = []string{
	`{"owners":[{"owner":"urn:li:corpuser:fbar","type":"DATAOWNER"}],"ownerTypes":{},"lastModified":{"time":0,"actor":"urn:li:corpuser:fbar"}}`,
	`{"owners": [{"owner": "urn:li:corpuser:fbar", "type": "DATAOWNER"}], "ownerTypes": {}, "lastModified": {"time": 0, "actor": "urn:li:corpuser:fbar"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"TECHNICAL_OWNER"},{"owner":"urn:li:corpuser:b","type":"TECHNICAL_OWNER"},{"owner":"urn:li:corpuser:a","type":"TECHNICAL_OWNER"},` +
		`{"owner":"urn:li:corpuser:c","type":"CUSTOM","typeUrn":"urn:li:ownershipType:my.type"}],"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a"}],"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":null,"typeUrn":null}],"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__dataowner":["urn:li:corpuser:a"]},"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"},{"owner":"urn:li:corpuser:b","type":"DATAOWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__dataowner":["urn:li:corpuser:b","urn:li:corpuser:a"]},"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__dataowner":["urn:li:corpuser:z"]},"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"ownerTypes":{"x":[],"urn:li:ownershipType:__system__dataowner":["urn:li:corpuser:a"]},"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`,
	`{"owners":[],"ownerTypes":{"x":[]},"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`,
	`{"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:<a&b>","typeUrn":"urn:li:ownershipType:caf\u00e9.x"}],"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:\"q\"","type":"Technical_Owner"}],"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`,
	`{"lastModified":{"time":0,"actor":"urn:li:corpuser:x"},"owners":[{"type":"BUSINESS_OWNER","owner":"urn:li:corpGroup:g"}],"ownerTypes":{"urn:li:ownershipType:__system__business_owner":["urn:li:corpGroup:g"]}}`,
}

// TestOwnerTypesAsEncodingJSON: the scanner's ownerTypes are the bytes the
// encoding/json reading of the hook made (for values whose keys are
// written as the Ownership record names them: encoding/json also matched
// keys in other cases, which the record check refuses).
func TestOwnerTypesAsEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range ownerTypesCases {
		checkOwnerTypesAsEncodingJSON(t, []byte(in))
	}
}

// FuzzOwnerTypes compares ownerTypesOf with the encoding/json reading of
// the hook on conforming ownership values.
func FuzzOwnerTypes(f *testing.F) {
	for _, in := range ownerTypesCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !pdl.Conforms("com.linkedin.common.Ownership", in) {
			return
		}
		checkOwnerTypesAsEncodingJSON(t, in)
	})
}

func checkOwnerTypesAsEncodingJSON(t *testing.T, in []byte) {
	t.Helper()
	want, wantChanged := ownerTypesReference(in)
	got, changed := ownerTypesOf(slices.Clone(in))
	if changed != wantChanged || string(got) != string(want) {
		t.Errorf("ownerTypesOf(%s)\n= %s, %v\nwant %s, %v", in, got, changed, want, wantChanged)
	}
	// The kept answer, with its hash.
	for range 2 {
		v, h, ok := ownerTypesHashed(slices.Clone(in), 0, nil)
		if ok != wantChanged || string(v) != string(want) {
			t.Errorf("ownerTypesHashed(%s) = %s, %v", in, v, ok)
		}
		if ok && h != jsonx.Hash(v) {
			t.Errorf("ownerTypesHashed(%s): hash %x, want %x", in, h, jsonx.Hash(v))
		}
	}
}

// ownerTypesReference is the hook as it read values with encoding/json
// before it used the scanner: the reference of the tests above.
func ownerTypesReference(value json.RawMessage) (json.RawMessage, bool) {
	var v struct {
		Owners []struct {
			Owner   string  `json:"owner"`
			Type    *string `json:"type"`
			TypeURN *string `json:"typeUrn"`
		} `json:"owners"`
		OwnerTypes map[string][]string `json:"ownerTypes"`
	}
	if json.Unmarshal(value, &v) != nil || len(v.Owners) == 0 {
		return value, false
	}
	want := map[string][]string{}
	for _, o := range v.Owners {
		t := "urn:li:ownershipType:__system__none"
		switch {
		case o.TypeURN != nil:
			t = *o.TypeURN
		case o.Type != nil:
			t = "urn:li:ownershipType:__system__" + strings.ToLower(*o.Type)
		}
		t = strings.ReplaceAll(t, ".", "%2E")
		if !slices.Contains(want[t], o.Owner) {
			want[t] = append(want[t], o.Owner)
		}
	}
	same := len(v.OwnerTypes) == len(want)
	for k, l := range v.OwnerTypes {
		m, ok := want[k]
		if !ok || len(l) != len(m) {
			same = false
			break
		}
		for _, u := range l {
			if !slices.Contains(m, u) {
				same = false
			}
		}
	}
	if same {
		return value, false
	}
	b, err := json.Marshal(want)
	if err != nil {
		return value, false
	}
	if out, ok := setMember(value, "ownerTypes", b); ok {
		return out, true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(value, &obj) != nil {
		return value, false
	}
	obj["ownerTypes"] = b
	return marshalObject(obj), true
}

// BenchmarkOwnerTypesOf measures the hook's reading of an ownership value
// without the kept answers: the scanner's, and encoding/json's (the
// reference).
func BenchmarkOwnerTypesOf(b *testing.B) {
	in := []byte(ownerTypesCases[2])
	for _, bm := range []struct {
		name string
		fn   func(json.RawMessage) (json.RawMessage, bool)
	}{{"scanner", ownerTypesOf}, {"encoding-json", ownerTypesReference}} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := bm.fn(in); !ok {
					b.Fatal("unchanged")
				}
			}
		})
	}
}

// TestOwnerTypesKeptBySlot gives two ownership values one slot: each gets
// its own answer, not the other's kept one. (The hash given is each
// value's own, as ownerTypesHashed asks: the hash of a changed value is
// worked out from it; b's owner is picked so that the two hashes share a
// slot.)
func TestOwnerTypesKeptBySlot(t *testing.T) {
	a := []byte(`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"lastModified":{"time":0,"actor":"urn:li:corpuser:a"}}`)
	slots := uint64(len(ownerTypesSeen))
	var b []byte
	for i := 0; b == nil; i++ {
		c := fmt.Appendf(nil, `{"owners":[{"owner":"urn:li:corpuser:b%d","type":"TECHNICAL_OWNER"}],"lastModified":{"time":0,"actor":"urn:li:corpuser:b"}}`, i)
		if jsonx.Hash(c)%slots == jsonx.Hash(a)%slots {
			b = c
		}
	}
	for range 2 {
		for _, in := range [][]byte{a, b} {
			want, wantChanged := ownerTypesOf(slices.Clone(in))
			got, h, changed := ownerTypesHashed(slices.Clone(in), jsonx.Hash(in), nil)
			if changed != wantChanged || string(got) != string(want) || h != jsonx.Hash(want) {
				t.Errorf("ownerTypesHashed(%s) = %s, %x, %v; want %s, %v", in, got, h, changed, want, wantChanged)
			}
		}
	}
}
