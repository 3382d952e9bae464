package jsonx

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// jsonSeeds are the seed inputs of FuzzAgainstEncodingJSON (with those in
// testdata/fuzz/FuzzAgainstEncodingJSON): valid and invalid texts of every
// kind of value, white space, escapes, deep and repeated members.
var jsonSeeds = []string{
	`{}`, ` { } `, `[]`, `[1,"a",true,false,null]`, `{"a":1,"b":[1, 2],"c":{"d":"x y"}}`,
	`{"a":1,"a":2}`, `"\u00e9\ud83d\ude00\n\"\\"`, `-0.5e+3`, `0`, `01`, `1.`, `{"a":}`, `[1,]`, `{"a" 1}`,
	`"unterminated`, "\"ctl\x01\"", "\xff", `nul`, `{"owners": [{"owner": "urn:li:corpuser:fbar", "type": "DATAOWNER"}], "ownerTypes": {}}`,
	`[[[[[[[[[[]]]]]]]]]]`, "\t[ 1 ,\r\n 2 ]\n", `{"\u0061":1,"a":2}`,
}

// decodeStd is encoding/json's decoding of b with UseNumber, and whether b
// is one valid JSON value.
func decodeStd(b []byte) (any, bool) {
	if !json.Valid(b) {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil, false
	}
	return v, true
}

// FuzzAgainstEncodingJSON checks the package's scanners against
// encoding/json on any two texts: IsObject, Compact, Decode, Unquote,
// ObjectMembers, ValueEnd and CompactValueEnd give encoding/json's answers,
// and Equal is equality of the decoded data (numbers by their text).
func FuzzAgainstEncodingJSON(f *testing.F) {
	for i, s := range jsonSeeds {
		f.Add([]byte(s), []byte(jsonSeeds[(i+1)%len(jsonSeeds)]))
	}
	f.Add([]byte(`{"b":[1,2],"a":1}`), []byte(`{"a":1, "b":[1,2]}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		std, valid := decodeStd(a)

		if got, want := IsObject(a), valid && bytes.TrimLeft(a, Space)[0] == '{'; got != want {
			t.Errorf("IsObject(%q) = %v, want %v", a, got, want)
		}

		want := bytes.Clone(a)
		if valid {
			var buf bytes.Buffer
			if err := json.Compact(&buf, a); err != nil {
				t.Fatal(err)
			}
			want = buf.Bytes()
		}
		if got := Compact(a); !bytes.Equal(got, want) {
			t.Errorf("Compact(%q) = %q, want %q", a, got, want)
		}

		if got, ok := Decode(a); ok != valid || (ok && !reflect.DeepEqual(got, std)) {
			t.Errorf("Decode(%q) = %#v, %v; want %#v, %v", a, got, ok, std, valid)
		}

		var s string
		errS := json.Unmarshal(a, &s)
		if got, ok := Unquote(a); ok != (errS == nil && valid && bytes.HasPrefix(a, []byte(`"`)) && bytes.HasSuffix(a, []byte(`"`))) || (ok && got != s) {
			t.Errorf("Unquote(%q) = %q, %v; want %q, %v", a, got, ok, s, errS == nil)
		}

		if ms, ok := ObjectMembers(a); ok != (valid && bytes.TrimLeft(a, Space)[0] == '{') {
			t.Errorf("ObjectMembers(%q) ok = %v, want %v", a, ok, !ok)
		} else if ok {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(a, &m); err != nil {
				t.Fatal(err)
			}
			got := map[string]json.RawMessage{}
			for _, mb := range ms {
				got[mb.Key] = mb.Value
			}
			if !reflect.DeepEqual(got, m) {
				t.Errorf("ObjectMembers(%q) = %q, want %q (the last of a repeated key)", a, got, m)
			}
		}

		// ValueEnd from every position: the value it finds is valid, and
		// at position 0 of a valid text without white space around it is
		// the whole text.
		for i := range a {
			if e := ValueEnd(a, i); e >= 0 && (e <= i || !json.Valid(a[i:e]) || bytes.ContainsAny(a[i:i+1], Space)) {
				t.Fatalf("ValueEnd(%q, %d) = %d: %q is no JSON value", a, i, e, a[i:max(e, i)])
			}
		}
		if valid && len(bytes.Trim(a, Space)) == len(a) {
			if e := ValueEnd(a, 0); e != len(a) {
				t.Errorf("ValueEnd(%q, 0) = %d, want %d", a, e, len(a))
			}
		}
		// CompactValueEnd finds the first element of a compact array as
		// ValueEnd does.
		if valid && bytes.Equal(want, a) && len(a) > 2 && a[0] == '[' {
			if got, want := CompactValueEnd(a, 1), ValueEnd(a, 1); got != want {
				t.Errorf("CompactValueEnd(%q, 1) = %d, want %d", a, got, want)
			}
		}

		stdB, validB := decodeStd(b)
		if valid && validB {
			if got, want := Equal(a, b), reflect.DeepEqual(std, stdB); got != want {
				t.Errorf("Equal(%q, %q) = %v, want %v", a, b, got, want)
			}
		}
	})
}
