package pdl_test

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// decodeStd is what DecodeJSON must match: encoding/json's Decoder with
// UseNumber over exactly one value.
func decodeStd(data []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

var jsonSeeds = []string{
	`{}`, `[]`, ` {"a":1} `, `{"a":[1,2.5,-3e+2,true,false,null,"x"]}`, `"\u00e9\ud83d\ude00"`,
	`"\ud800"`, "\"\xff\"", `{"a":1,"a":2}`, `{"a":1}x`, `{"a":}`, `01`, `-`, `1.`, `1e`, `"\x"`,
	"\"a\tb\"", `{"k\"q":"v\\/"}`, `[1,]`, `{,}`, `nul`, `  `, ``, `{"a":{"b":{"c":[{}]}}}`,
	`{"owners":[{"owner":"urn:li:corpuser:fbar","type":"DATAOWNER"}],"ownerTypes":{}}`,
	"{\"a\":\"\u2028<&>\"}", `-0.0E-0`, `[1 2]`, `{"a" 1}`, `tru`, `"unterminated`,
}

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantOK := decodeStd(data)
		got, gotOK := pdl.DecodeJSON(data)
		if wantOK != gotOK {
			t.Fatalf("DecodeJSON(%q) ok = %v, encoding/json ok = %v", data, gotOK, wantOK)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("DecodeJSON(%q) (-want +got):\n%s", data, diff)
		}
		var m map[string]json.RawMessage
		stdErr := json.Unmarshal(data, &m)
		gm, ok := pdl.ObjectMap(data)
		if (stdErr == nil && m != nil) != ok {
			t.Fatalf("ObjectMap(%q) ok = %v, encoding/json err = %v", data, ok, stdErr)
		}
		if ok {
			if diff := cmp.Diff(m, gm); diff != "" {
				t.Fatalf("ObjectMap(%q) (-want +got):\n%s", data, diff)
			}
		}
		var raws []json.RawMessage
		stdErr = json.Unmarshal(data, &raws)
		ga, ok := pdl.ArrayElements(data)
		if (stdErr == nil && raws != nil) != ok {
			t.Fatalf("ArrayElements(%q) ok = %v, encoding/json err = %v", data, ok, stdErr)
		}
		for i := range ga {
			if !bytes.Equal(raws[i], ga[i]) {
				t.Fatalf("ArrayElements(%q)[%d] = %q, encoding/json %q", data, i, ga[i], raws[i])
			}
		}
		var s string
		stdErr = json.Unmarshal(data, &s)
		gs, ok := pdl.UnquoteJSON(data)
		if ok && (stdErr != nil || s != gs) {
			t.Fatalf("UnquoteJSON(%q) = %q, encoding/json %q, %v", data, gs, s, stdErr)
		}
	})
}

func TestDecodeJSON(t *testing.T) {
	t.Parallel()
	for _, s := range jsonSeeds {
		t.Run(s, func(t *testing.T) {
			t.Parallel()
			want, wantOK := decodeStd([]byte(s))
			got, gotOK := pdl.DecodeJSON([]byte(s))
			if diff := cmp.Diff([]any{want, wantOK}, []any{got, gotOK}); diff != "" {
				t.Errorf("DecodeJSON(%q) (-want +got):\n%s", s, diff)
			}
		})
	}
}
