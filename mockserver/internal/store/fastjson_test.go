package store

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var fastJSONInputs = []string{
	`{}`, `{"version":"3"}`, `{"version":"3","version":"4"}`, `{"version":null}`, `{"version":3}`, `{"Version":"5"}`,
	`{"verſion":"6"}`, `{"versio\u006e":"7"}`, `{"version":"\u0038"}`, `{"a":1,"version":"2","b":[1, 2]}`, `null`, `[]`,
	`{"version":"1"} x`, `{"lastObserved": 5, "runId": "r", "properties": {"a": "<&>"}}`, `{"k\u2028":"v"}`,
	`{"lastObserved":1.0}`, `{"lastObserved":"5"}`, `{"lastObserved":-0}`, `{"a":{"b": 1}}`, `{"a":"\u2028"}`,
}

func TestVersionFieldMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range fastJSONInputs {
		var m struct {
			Version *string `json:"version"`
		}
		err := json.Unmarshal([]byte(in), &m)
		// On a failed Unmarshal the version is not used (sysVersion reports
		// none), so only the failure is compared.
		want := []any{err == nil, err == nil && m.Version != nil, ""}
		if err == nil && m.Version != nil {
			want[2] = *m.Version
		}
		v, found, ok := versionField([]byte(in))
		if !ok {
			found, v = false, ""
		}
		if diff := cmp.Diff(want, []any{ok, found, v}); diff != "" {
			t.Errorf("versionField(%s) (-want +got):\n%s", in, diff)
		}
	}
}

func TestRawObjectMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range fastJSONInputs {
		if in == "null" { // the store never decodes a null systemMetadata into an object
			continue
		}
		m := map[string]json.RawMessage{}
		wantErr := json.Unmarshal([]byte(in), &m)
		var o rawObject
		gotErr := unmarshalRawObject([]byte(in), &o)
		if (wantErr == nil) != (gotErr == nil) {
			t.Errorf("unmarshalRawObject(%s) = %v, json.Unmarshal %v", in, gotErr, wantErr)
			continue
		}
		if wantErr != nil {
			if wantErr.Error() != gotErr.Error() {
				t.Errorf("unmarshalRawObject(%s) = %v, want %v", in, gotErr, wantErr)
			}
			continue
		}
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := o.marshal()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("marshal of %s (-want +got):\n%s", in, diff)
		}
		var n, gn int64
		if raw, ok := m["lastObserved"]; ok {
			wantErr, gotErr := json.Unmarshal(raw, &n), unmarshalInt64(raw, &gn)
			if diff := cmp.Diff([]any{n, wantErr == nil}, []any{gn, gotErr == nil}); diff != "" {
				t.Errorf("unmarshalInt64(%s) (-want +got):\n%s", raw, diff)
			}
		}
	}
}

// FuzzFastJSON holds versionField and unmarshalRawObject + marshal to the
// encoding/json calls they stand for.
func FuzzFastJSON(f *testing.F) {
	for _, s := range fastJSONInputs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var m struct {
			Version *string `json:"version"`
		}
		err := json.Unmarshal([]byte(in), &m)
		v, found, ok := versionField([]byte(in))
		if ok != (err == nil) || ok && (found != (m.Version != nil) || found && v != *m.Version) {
			t.Fatalf("versionField(%q) = %q %v %v; %v %v", in, v, found, ok, m.Version, err)
		}
		if in == "null" {
			return
		}
		mm := map[string]json.RawMessage{}
		wantErr := json.Unmarshal([]byte(in), &mm)
		var o rawObject
		gotErr := unmarshalRawObject([]byte(in), &o)
		if (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("unmarshalRawObject(%q) = %v, want %v", in, gotErr, wantErr)
		}
		if wantErr != nil {
			return
		}
		want, err1 := json.Marshal(mm)
		got, err2 := o.marshal()
		if (err1 == nil) != (err2 == nil) || string(want) != string(got) {
			t.Fatalf("marshal(%q) = %s %v; want %s %v", in, got, err2, want, err1)
		}
	})
}

// storedMembersInputs are stored systemMetadata objects in marshal's form
// and texts that are not.
var storedMembersInputs = []string{
	`{}`, `{"lastObserved":1,"runId":"r","version":"3"}`,
	`{"a":{"b":[1,-2.5e+3,true,false,null,"x\"\\\/\b\f\n\r\t\u00e9"]},"b":[],"c":{}}`,
	`{"properties":{"clientId":"acryl-datahub","clientVersion":"1!0.0.0.dev0"},"runId":"no-run-id-provided"}`,
	`{"b":1,"a":2}`, `{"a":1,"a":2}`, `{"a":1, "b":2}`, `{ "a":1}`, `{"a":1} `, `{"a":01}`, `{"a":1.}`, `{"a":-}`,
	`{"a":tru}`, `{"a":nul}`, `{"a":"\x"}`, `{"a":"\u12"}`, "{\"a\":\"\x01\"}", `{"\u0061":1}`, `{"é":1}`, `{"a":[1,]}`,
	`{"a":{"b"}}`, `{"a":{1:2}}`, `{"a":[1 ]}`, `{"a":1,}`, `{"a"}`, `{"a":}`, `{`, `{"`, `{"a":"`, `[]`, `"a"`,
	`{"a":1}}`, `{"a":[[[]]]}`,
}

// TestStoredMembers: whenever storedMembers takes a text, it gives the
// members unmarshalRawObject gives; it takes marshal's output.
func TestStoredMembers(t *testing.T) {
	t.Parallel()
	for _, in := range storedMembersInputs {
		checkStoredMembers(t, in, false)
	}
	for _, in := range []string{storedMembersInputs[1], storedMembersInputs[2], storedMembersInputs[3]} {
		if _, ok := storedMembers(nil, []byte(in)); !ok {
			t.Errorf("storedMembers(%s) refused marshal's form", in)
		}
	}
}

// checkStoredMembers checks storedMembers(in) against unmarshalRawObject
// and, for in written by marshal, that marshal writes the members back as
// in.
func checkStoredMembers(t *testing.T, in string, marshalled bool) {
	t.Helper()
	got, ok := storedMembers(rawObject{}, []byte(in))
	if !ok {
		if len(got) != 0 {
			t.Errorf("storedMembers(%q) refused it but appended %v", in, got)
		}
		return
	}
	checkMembersOf(t, "storedMembers", in, got)
	if remarshal, err := got.marshal(); marshalled && (err != nil || string(remarshal) != in) {
		t.Fatalf("marshal(storedMembers(%q)) = %s, %v; want the text back", in, remarshal, err)
	}
}

// checkMembersOf fails t unless got, what the splitter fn took from in,
// are the members unmarshalRawObject finds in in.
func checkMembersOf(t *testing.T, fn, in string, got rawObject) {
	t.Helper()
	var want rawObject
	if err := unmarshalRawObject([]byte(in), &want); err != nil {
		t.Fatalf("%s took %q, which unmarshalRawObject refuses: %v", fn, in, err)
	}
	str := func(o rawObject) (out []string) {
		for _, m := range o {
			out = append(out, m.Key+"="+string(m.Value))
		}
		return out
	}
	if diff := cmp.Diff(str(want), str(got)); diff != "" {
		t.Fatalf("%s of %q (-unmarshalRawObject +%s):\n%s", fn, in, fn, diff)
	}
}

// remarshalled is the object in as unmarshalRawObject decodes it and
// marshal writes it; false when either refuses it.
func remarshalled(in string) (rawObject, []byte, bool) {
	var o rawObject
	if unmarshalRawObject([]byte(in), &o) != nil {
		return nil, nil, false
	}
	out, err := o.marshal()
	return o, out, err == nil
}

func FuzzStoredMembers(f *testing.F) {
	for _, in := range append(storedMembersInputs, fastJSONInputs...) {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkStoredMembers(t, in, false)
		// What marshal writes of any object is taken back as it is.
		o, out, ok := remarshalled(in)
		if !ok {
			return
		}
		checkStoredMembers(t, string(out), true)
		if _, ok := storedMembers(nil, out); !ok && plainKeys(o) {
			t.Fatalf("storedMembers(%s) refused marshal's output", out)
		}
	})
}

// plainKeys reports keys that marshal writes as they are and storedMembers
// takes as they are.
func plainKeys(o rawObject) bool {
	for _, m := range o {
		if !plainKey(m.Key) {
			return false
		}
	}
	return true
}

// TestAppendMarshal: appendMarshal with a length prefix is lpBytes of
// marshal's output.
func TestAppendMarshal(t *testing.T) {
	t.Parallel()
	for _, in := range append(fastJSONInputs, storedMembersInputs...) {
		var o rawObject
		if unmarshalRawObject([]byte(in), &o) != nil {
			continue
		}
		want, err := o.marshal()
		if err != nil {
			t.Fatal(err)
		}
		got, err := o.appendMarshal([]byte("x"), true)
		if err != nil || string(got) != string(lpBytes([]byte("x"), want)) {
			t.Errorf("appendMarshal(%s) = %q, %v; want %q", in, got, err, lpBytes([]byte("x"), want))
		}
	}
}
