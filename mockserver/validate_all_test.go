package mockserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/internal/testshared"
)

// This file checks every aspect of DataHub's entity registry against the mock: a value built
// from the aspect's schema is accepted, and a wrong value of each kind is refused with the
// message GMS gives.

// entityURN builds a URN of entity e from its key aspect's fields.
func entityURN(t *testing.T, e pdl.Entity) string {
	t.Helper()
	u, ok := testshared.LookupSampleURN(e.Name)
	if !ok {
		t.Fatalf("%s: no schema for its key aspect %s", e.Name, e.KeyAspect)
	}
	return u
}

// wrongKinds holds, per kind, a value of the wrong JSON kind and the message Rest.li gives for it.
var wrongKinds = map[pdl.Kind]struct {
	value any
	msg   string
}{
	pdl.KindString:  {true, "true cannot be coerced to String"},
	pdl.KindInt:     {"seven", "seven cannot be coerced to Integer"},
	pdl.KindLong:    {"seven", "seven cannot be coerced to Long"},
	pdl.KindFloat:   {"seven", "seven cannot be coerced to Float"},
	pdl.KindDouble:  {"seven", "seven cannot be coerced to Double"},
	pdl.KindBoolean: {"yes", "yes cannot be coerced to Boolean"},
	pdl.KindBytes:   {7, "bytes type is not backed by a String or ByteString"},
	pdl.KindFixed:   {7, "fixed type is not backed by a String or ByteString"},
	pdl.KindEnum:    {7, "enum type is not backed by a String"},
	pdl.KindRecord:  {"text", "record type is not backed by a DataMap"},
	pdl.KindArray:   {"text", "array type is not backed by a DataList"},
	pdl.KindMap:     {"text", "map type is not backed by a DataMap"},
	pdl.KindUnion:   {"text", "union type is not backed by a DataMap or null"},
}

// enumPath finds the first enum reachable through record fields and array items from record
// name, and returns a valid value of the record holding a bad symbol there, and the path.
func enumPath(name string, depth int) (map[string]any, string, bool) {
	rec, ok := pdl.Record(name)
	if !ok || depth > 6 {
		return nil, "", false
	}
	for _, f := range rec.Fields {
		t, suffix := f.Type, ""
		if t.Kind == pdl.KindArray {
			t, suffix = *t.Items, "/0"
		}
		var bad any
		var path string
		switch t.Kind {
		case pdl.KindEnum:
			bad, path = "NOT_A_SYMBOL", ""
		case pdl.KindRecord:
			inner, p, ok := enumPath(t.Name, depth+1)
			if !ok {
				continue
			}
			bad, path = inner, p
		default:
			continue
		}
		if suffix != "" {
			bad = []any{bad}
		}
		v := testshared.RecordValue(name, depth)
		v[f.Name] = bad
		return v, "/" + f.Name + suffix + path, true
	}
	return nil, "", false
}

func TestEveryAspectValidated(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	seen := map[string]bool{}
	counts := map[string]int{}
	var noFields []string
	for _, e := range pdl.Entities() {
		u := entityURN(t, e)
		for _, a := range append([]string{e.KeyAspect}, e.Aspects...) {
			if seen[a] {
				continue
			}
			seen[a] = true
			info, _ := pdl.LookupAspect(a)
			rec, ok := pdl.Record(info.RecordName)
			if !ok {
				t.Errorf("%s: no schema for %s", a, info.RecordName)
				continue
			}
			valid := testshared.RecordValue(info.RecordName, 0)
			testshared.FixDestinations(e.Name, a, valid, testshared.LookupSampleURN) // URNs the entity's relationships point at
			if info.Timeseries {
				valid["timestampMillis"] = 1700000000000
			}
			ingest := func(v any) response {
				raw, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				return serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
					ingestBody(t, mcp(e.Name, u, "UPSERT", a, string(raw)), ""))
			}
			refused := func(kind string, v any, path, msg string) {
				t.Helper()
				r := ingest(v)
				want := fmt.Sprintf("Failed to validate record with class %s: [ERROR :: %s :: %s]", info.RecordName, path, msg)
				var body struct{ Message string }
				_ = json.Unmarshal([]byte(r.Body), &body)
				if r.Status != http.StatusUnprocessableEntity || body.Message != want {
					t.Errorf("%s %s (%s): got %d %q\nwant 422 %q", e.Name, a, kind, r.Status, body.Message, want)
				}
				counts[kind]++
			}
			if r := ingest(valid); r.Status != http.StatusOK {
				t.Errorf("%s %s: valid value %v refused: %d %s", e.Name, a, valid, r.Status, r.Body)
				continue
			}
			if raw, _ := json.Marshal(valid); !pdl.Conforms(info.RecordName, raw) {
				t.Errorf("%s: the fast path refuses the valid value %s", a, raw) // the mock then decodes and validates it: slower, not wrong
			}
			counts["valid"]++

			unknown := testshared.RecordValue(info.RecordName, 0)
			if info.Timeseries {
				unknown["timestampMillis"] = 1
			}
			unknown["zzNotAField"] = 1
			refused("unknown member", unknown, "/zzNotAField", "unrecognized field found but not allowed")

			for _, f := range rec.Fields {
				if f.Optional || f.Default != nil {
					continue
				}
				missing := testshared.RecordValue(info.RecordName, 0)
				delete(missing, f.Name)
				refused("missing field", missing, "/"+f.Name, "field is required but not found and has no default value")
				break
			}
			if len(rec.Fields) == 0 {
				noFields = append(noFields, a)
			} else {
				f := rec.Fields[0]
				wrong := testshared.RecordValue(info.RecordName, 0)
				if info.Timeseries && f.Name != "timestampMillis" {
					wrong["timestampMillis"] = 1
				}
				wk, ok := wrongKinds[f.Type.Kind]
				if !ok {
					t.Fatalf("%s: no wrong value for a %s", a, f.Type.Kind)
				}
				wrong[f.Name] = wk.value
				refused("wrong type", wrong, "/"+f.Name, wk.msg)
			}
			if v, path, ok := enumPath(info.RecordName, 0); ok {
				if info.Timeseries {
					v["timestampMillis"] = 1
				}
				refused("bad enum symbol", v, path, `"NOT_A_SYMBOL" is not an enum symbol`)
			}
		}
	}
	t.Logf("aspects checked: %v; without fields: %v", counts, noFields)
	if counts["valid"] != 255 || counts["unknown member"] != 255 || counts["wrong type"]+len(noFields) != 255 {
		t.Errorf("aspects checked: %v, want all 255 valid, refused with an unknown member and (if they have a field) with a wrong type", counts)
	}
}

// TestEveryEntityExists writes an aspect of every entity type of the registry and checks that
// the entity then exists (GraphQL entityExists) and has its key aspect, built from the URN.
func TestEveryEntityExists(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	entityExists := func(u string) string {
		q, err := json.Marshal(map[string]any{"query": `query($u: String!) { entityExists(urn: $u) }`, "variables": map[string]any{"u": u}})
		if err != nil {
			t.Fatal(err)
		}
		body := serve(t, s, http.MethodPost, "/api/graphql", string(q)).Body
		var r struct {
			Data   json.RawMessage
			Errors json.RawMessage
		}
		if err := json.Unmarshal([]byte(body), &r); err != nil || r.Errors != nil {
			return body
		}
		return string(r.Data)
	}
	n := 0
	for _, e := range pdl.Entities() {
		u := entityURN(t, e)
		if got := entityExists(u); got != `{"entityExists":false}` {
			t.Errorf("%s before any write: %s", e.Name, got)
		}
		aspect := e.KeyAspect
		for _, a := range e.Aspects {
			if info, _ := pdl.LookupAspect(a); !info.Timeseries {
				aspect = a
				break
			}
		}
		keyInfo, _ := pdl.LookupAspect(e.KeyAspect)
		rec, _ := pdl.Record(keyInfo.RecordName)
		want := map[string]any{}
		for i, f := range rec.Fields {
			want[f.Name] = testshared.KeyPart(f, i)
		}
		info, _ := pdl.LookupAspect(aspect)
		value := any(testshared.RecordValue(info.RecordName, 0))
		if aspect == e.KeyAspect { // an entity with no other aspect but timeseries ones
			value = want
		}
		testshared.FixDestinations(e.Name, aspect, value, testshared.LookupSampleURN) // URNs the entity's relationships point at
		raw, err := json.Marshal(value)
		if err != nil {
			t.Fatal(err)
		}
		if r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
			ingestBody(t, mcp(e.Name, u, "UPSERT", aspect, string(raw)), "")); r.Status != http.StatusOK {
			t.Errorf("%s: writing %s: %d %s", e.Name, aspect, r.Status, r.Body)
			continue
		}
		if got := entityExists(u); got != `{"entityExists":true}` {
			t.Errorf("%s after writing %s: %s", e.Name, aspect, got)
		}
		got, status := aspectJSON(t, s, url.PathEscape(u), e.KeyAspect, 0)
		var key map[string]any
		if status != http.StatusOK || json.Unmarshal([]byte(got), &key) != nil {
			t.Errorf("%s: key aspect %s: %d %s", e.Name, e.KeyAspect, status, got)
			continue
		}
		if diff := cmp.Diff(want, key); diff != "" {
			t.Errorf("%s: key aspect %s (-want +got):\n%s", e.Name, e.KeyAspect, diff)
		}
		n++
	}
	if n != 71 {
		t.Errorf("%d entity types checked, want the registry's 71", n)
	}
}
