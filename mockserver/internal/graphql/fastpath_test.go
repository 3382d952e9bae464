package graphql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// The handler's shortcuts are checked against the general way each
// replaces: the answers must be the same.

// decodeVariablesGeneral is how the variables were decoded before
// decodeVariables read them in one pass: a Decoder with UseNumber, and the
// raw values by a second decode.
func decodeVariablesGeneral(raw json.RawMessage) (map[string]any, map[string]json.RawMessage, error) {
	if len(raw) == 0 {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out map[string]any
	if err := dec.Decode(&out); err != nil {
		return nil, nil, err
	}
	var rv map[string]json.RawMessage
	if err := json.Unmarshal(raw, &rv); err != nil {
		return nil, nil, err
	}
	return out, rv, nil
}

func FuzzDecodeVariables(f *testing.F) {
	for _, s := range []string{
		`null`, `{}`, `[]`, `5`, `"x"`, `true`,
		`{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)","n":12}`,
		`{"a":"\u00e9\n\"q\"","b":"é","c":"\ud800","d":-1.5e3,"e":[1,"x",null],"f":{"g":false},"h":null}`,
		`{"a":1,"a":"two"}`, `{ "s" : "x" , "t" : 0 }`, "{\"bad\":\"\xff\"}", `{"html":"<&>"}`,
		`{"big":123456789012345678901234567890,"neg":-0,"f":1E+2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) { // decodeVariables reads a value of a decoded body
			return
		}
		vars, rawVars, err := decodeVariables(raw)
		wantVars, wantRaw, wantErr := decodeVariablesGeneral(raw)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%s: error %v, generally %v", raw, err, wantErr)
		}
		if !reflect.DeepEqual(vars, wantVars) {
			t.Errorf("%s: variables %#v, generally %#v", raw, vars, wantVars)
		}
		if !reflect.DeepEqual(rawVars, wantRaw) {
			t.Errorf("%s: raw %q, generally %q", raw, rawVars, wantRaw)
		}
	})
}

// TestArgsDecodeURN: the entity roots' urn argument is what the JSON round
// trip of Args.Decode gives, invalid UTF-8 and HTML characters included.
func TestArgsDecodeURN(t *testing.T) {
	t.Parallel()
	for _, a := range []Args{
		{"urn": "urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)"},
		{"urn": "<a&b>\u2028é"},
		{"urn": "bad\xffutf8"},
		{"urn": ""},
		{"urn": nil},
		{"urn": "x", "other": 1},
		{"URN": "case"},
	} {
		var got urnArgs
		gotErr := a.Decode(&got)
		b, err := json.Marshal(map[string]any(a))
		if err != nil {
			t.Fatal(err)
		}
		var want urnArgs
		wantErr := json.Unmarshal(b, &want)
		if got != want || (gotErr != nil) != (wantErr != nil) {
			t.Errorf("Decode(%#v) = %#v, %v; by the round trip %#v, %v", a, got, gotErr, want, wantErr)
		}
	}
}

// TestPlainStringsAsResolved: every query answers the same with the plain
// strings' shortcut as through the resolvers (Handler.general).
func TestPlainStringsAsResolved(t *testing.T) {
	t.Parallel()
	core, st := newTestCore(t)
	const (
		ds    = "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
		table = "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,tbl)"
	)
	var features []string
	for i := range 3 {
		u := fmt.Sprintf("urn:li:mlFeature:(ns,f%d)", i)
		features = append(features, u)
		if err := st.Put(store.Aspect{URN: u, Name: "mlFeatureProperties", Value: json.RawMessage(`{"description":"f","dataType":"CONTINUOUS"}`)}); err != nil {
			t.Fatal(err)
		}
	}
	fs, _ := json.Marshal(append(features, "urn:li:mlFeature:(ns,never)"))
	for _, a := range []store.Aspect{
		{URN: ds, Name: "datasetProperties", Value: json.RawMessage(`{"name":"shown <&>","description":"d"}`)},
		{URN: table, Name: "mlFeatureTableProperties", Value: json.RawMessage(`{"description":"t","mlFeatures":` + string(fs) + `}`)},
	} {
		if err := st.Put(a); err != nil {
			t.Fatal(err)
		}
	}
	fast, err := New(core)
	if err != nil {
		t.Fatal(err)
	}
	general, err := New(core)
	if err != nil {
		t.Fatal(err)
	}
	general.general = true
	for _, q := range []string{
		`{ dataset(urn: "` + ds + `") { urn type name origin platform { urn type name } properties { name description } } }`,
		`{ mlFeatureTable(urn: "` + table + `") { urn type name t: type __typename platform { name } properties { description mlFeatures { urn type name featureNamespace description dataType } } } }`,
		`{ mlFeature(urn: "urn:li:mlFeature:(ns,f1)") { urn name featureNamespace ... on MLFeature { n2: name } } }`,
		`{ mlFeature(urn: "urn:li:mlFeature:(ns,absent)") { urn name featureNamespace } }`,
		`{ search(input: {type: DATASET, query: "*"}) { total searchResults { entity { urn type ... on Dataset { name origin } } matchedFields { name value } } } }`,
		`{ searchAcrossEntities(input: {query: "shown"}) { searchResults { entity { urn type } matchedFields { name value } } } }`,
		`{ entity(urn: "` + ds + `") { urn type ... on Dataset { name } } }`,
	} {
		body := `{"query":` + mustJSON(t, q) + `}`
		var answers [2]string
		for i, h := range []*Handler{fast, general} {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(body)))
			answers[i] = fmt.Sprint(w.Code, " ", w.Body)
		}
		if answers[0] != answers[1] {
			t.Errorf("%s:\n shortcut %s\n resolved %s", q, answers[0], answers[1])
		}
		if strings.Contains(answers[0], `"errors"`) && !strings.Contains(q, "absent") {
			t.Errorf("%s: %s", q, answers[0])
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadServesAsServeBody: a body read once (Read, ServeRead) is named and
// answered as OperationName and ServeBody name and answer it, whatever the
// body.
func TestReadServesAsServeBody(t *testing.T) {
	t.Parallel()
	core, _ := newTestCore(t)
	bodies := []string{
		`{"query":"query q($u: String!) { dataset(urn: $u) { urn } }","variables":{"u":"urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)"}}`,
		`{"query":"query q($u: String!) { dataset(urn: $u) { urn } }","variables":{"u":5}}`,
		`{"query":"query q($n: Int) { __typename }","variables":{"n":"x"}}`,
		`{"query":"query a { __typename } query b { __typename }","operationName":"b"}`,
		`{"query":"query a { __typename } query b { __typename }"}`,
		`{"query":"{ __typename }"} trailing`,
		`{"query":"{ __typename }"}{"query":"{ x }"}`,
		`{"Query":"{ __typename }","OPERATIONNAME":null}`,
		`{"query":"{ a }","query":"query last { __typename }"}`,
		`{"query":5}`, `{"query":""}`, `{"query":null}`, `{}`, `[]`, `null`, ``, `{`,
		`{"query":"{ __typename }","variables":null}`,
		`{"query":"{ __typename }","variables":[1]}`,
		`{"query":"{ __typename }","variables":"x"}`,
		`{"query":"query q($s: String) { __typename }","variables":{"s":"\u00e9\"\\\n"}}`,
		`{"query":"{ __typename }","operationName":7}`,
	}
	for _, b := range bodies {
		h1, err := New(core)
		if err != nil {
			t.Fatal(err)
		}
		h2, err := New(core)
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest(http.MethodPost, "/api/graphql", nil)
		want := httptest.NewRecorder()
		h1.ServeBody(want, r, []byte(b))
		body := []byte(b)
		read := h2.Read(body)
		if got, want := read.OperationName(), OperationName([]byte(b)); got != want {
			t.Errorf("%s: Read's name %q, OperationName %q", b, got, want)
		}
		got := httptest.NewRecorder()
		h2.ServeRead(got, r, &read)
		if got.Code != want.Code || got.Body.String() != want.Body.String() ||
			!reflect.DeepEqual(got.Header(), want.Header()) {
			t.Errorf("%s:\n read once %d %v %s\n ServeBody %d %v %s", b, got.Code, got.Header(), got.Body, want.Code, want.Header(), want.Body)
		}
	}
}

// TestRootFieldsKept: the root fields collected for one operation of a
// document are kept for it alone (each operation has its own root), so a
// document's operations run in turns answer as each run first does.
func TestRootFieldsKept(t *testing.T) {
	t.Parallel()
	core, _ := newTestCore(t)
	const ds = "urn:li:dataset:(urn:li:dataPlatform:hive,roots,PROD)"
	doc := `query a { dataset(urn: "` + ds + `") { urn } ...more } query b { b: dataset(urn: "` + ds + `") { type } __typename } ` +
		`mutation m { __typename } fragment more on Query { x: __typename }`
	kept, err := New(core)
	if err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		for _, op := range []string{"a", "b", "m"} {
			body := `{"query":` + mustJSON(t, doc) + `,"operationName":"` + op + `"}`
			fresh, err := New(core)
			if err != nil {
				t.Fatal(err)
			}
			var answers [2]string
			for i, h := range []*Handler{kept, fresh} {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(body)))
				answers[i] = w.Body.String()
			}
			if answers[0] != answers[1] || strings.Contains(answers[0], `"errors"`) {
				t.Errorf("round %d, %s: %s; first run %s", round, op, answers[0], answers[1])
			}
		}
	}
}
