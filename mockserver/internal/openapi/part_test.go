package openapi

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// partSeeds are aspect members of OpenAPI v3 write bodies, valid and not.
var partSeeds = []string{
	`{"value":{"description":"d","customProperties":{"k":"v"}}}`,
	`{"value":{"a":1},"systemMetadata":{"runId":"r","properties":{"x":"y"}},"headers":{"If-Version-Match":"3"}}`,
	`{"value":null,"systemMetadata":null,"headers":null}`,
	`{"headers":{"a":"1"},"headers":{"b":"2"},"value":1,"value":2}`,
	`{"Value":{"a":1}}`,
	`{"VALUE":{"a":1},"value":{"b":2}}`,
	`{"headers":"x"}`,
	`{"headers":{"a":1}}`,
	`{"value":{"a":}}`,
	`[1,2]`,
	`"s"`,
	`null`,
	`{}`,
	` { "value" : [ 1 , 2 ] , "other" : true } `,
	`{"value":"\u00e9\ud83d\ude00","systemMetadata":{}}`,
}

// TestDecodePartMatchesEncodingJSON checks the reflection-free decoding of an
// aspect member against encoding/json: the same part, or the same error.
func TestDecodePartMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, raw := range partSeeds {
		checkDecodePart(t, []byte(raw))
	}
}

// FuzzDecodePart is TestDecodePartMatchesEncodingJSON on arbitrary input.
func FuzzDecodePart(f *testing.F) {
	for _, raw := range partSeeds {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkDecodePart(t, raw) })
}

func checkDecodePart(t *testing.T, raw []byte) {
	t.Helper()
	var want aspectPart
	werr := json.Unmarshal(raw, &want)
	if wire.IsNull(want.Value) {
		want.Value = nil
	}
	if wire.IsNull(want.SystemMetadata) {
		want.SystemMetadata = nil
	}
	got, gerr := decodePart(raw)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("decodePart(%q): error %v, encoding/json: %v", raw, gerr, werr)
	}
	if werr != nil {
		return
	}
	norm := func(m json.RawMessage) string { return string(m) }
	if d := cmp.Diff(norm(want.Value), norm(got.Value)); d != "" {
		t.Errorf("decodePart(%q) value (-encoding/json +got):\n%s", raw, d)
	}
	if d := cmp.Diff(norm(want.SystemMetadata), norm(got.SystemMetadata)); d != "" {
		t.Errorf("decodePart(%q) systemMetadata (-encoding/json +got):\n%s", raw, d)
	}
	if d := cmp.Diff(want.Headers, got.Headers); d != "" {
		t.Errorf("decodePart(%q) headers (-encoding/json +got):\n%s", raw, d)
	}
}

// FuzzV3Items checks that decoding a batch body through its outline (one
// pass splits the array, its elements and their members) gives the items,
// their decoded aspect members and the error that splitting each level
// afresh gives.
func FuzzV3Items(f *testing.F) {
	for _, raw := range partSeeds {
		f.Add(`[{"urn":"u","status":` + raw + `}]`)
	}
	f.Add(`[{"urn":"u1","status":{"value":{"removed":false}},"urn":"u2"},{"urn":"x","a":1,"b":{"value":{}}},{"b":{}}]`)
	f.Add(`[{"urn":"u"},null]`)
	f.Add(`[{"urn":1}]`)
	f.Add(` [ { "urn" : "u" , "ownership" : { "value" : { "owners" : [ ] } } } ] `)
	f.Add(`{"urn":"u"}`)
	f.Add(`[{"urn":"u","a":{"value":1}}`)
	f.Fuzz(func(t *testing.T, body string) {
		var o pdl.Outline
		b := []byte(body)
		for range 2 { // again into the same outline
			got, gotErr := decodeItems(&o, b)
			want, wantErr := decodeItems(nil, b)
			if diff := cmp.Diff(wantErr, gotErr, cmp.AllowUnexported(openAPIError{})); diff != "" {
				t.Fatalf("decodeItems(%q) error through its outline (-afresh +outline):\n%s", body, diff)
			}
			if len(got) != len(want) {
				t.Fatalf("decodeItems(%q) = %d items through its outline, %d afresh", body, len(got), len(want))
			}
			for i := range want {
				if got[i].urn != want[i].urn || !cmp.Equal(want[i].members, got[i].members) {
					t.Fatalf("decodeItems(%q) item %d = %q %q through its outline, %q %q afresh",
						body, i, got[i].urn, got[i].members, want[i].urn, want[i].members)
				}
				for j, mb := range want[i].members {
					wp, we := decodePartIn(want[i].doc, mb.Value)
					gp, ge := decodePartIn(got[i].doc, got[i].members[j].Value)
					if diff := cmp.Diff([]any{wp, we}, []any{gp, ge}, cmp.AllowUnexported(openAPIError{})); diff != "" {
						t.Fatalf("decodePart of %q in %q through its outline (-afresh +outline):\n%s", mb.Value, body, diff)
					}
				}
			}
		}
	})
}
