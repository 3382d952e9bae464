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
