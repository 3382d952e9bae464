package graphql

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

const execDataset = "urn:li:dataset:(urn:li:dataPlatform:hive,exec,PROD)"

// newTestCore returns a core over a new memory store, both closed when
// the test ends.
func newTestCore(t *testing.T) (*gms.Core, *store.Store) {
	t.Helper()
	st := store.OpenMemory(nil)
	core := gms.New(st, gms.Options{})
	t.Cleanup(func() { core.Close(); st.Close() })
	return core, st
}

// serveDoc answers one request on a fresh core holding execDataset with
// datasetProperties.
func serveDoc(t *testing.T, doc string, vars map[string]any, op string) string {
	t.Helper()
	core, st := newTestCore(t)
	if err := st.Put(store.Aspect{URN: execDataset, Name: "datasetProperties", Value: json.RawMessage(`{"name":"exec","description":"d"}`)}); err != nil {
		t.Fatal(err)
	}
	h, err := New(core)
	if err != nil {
		t.Fatal(err)
	}
	req := map[string]any{"query": doc}
	if vars != nil {
		req["variables"] = vars
	}
	if op != "" {
		req["operationName"] = op
	}
	body, _ := json.Marshal(req)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(string(body))))
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	return w.Body.String()
}

func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("answer is not JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want is not JSON: %v: %s", err, want)
	}
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("answer (-want +got):\n%s\ngot: %s", d, got)
	}
}

// TestExecutor runs the executor's features through the handler.
func TestExecutor(t *testing.T) {
	t.Parallel()
	ds := `"` + execDataset + `"`
	tests := []struct {
		name, doc string
		vars      map[string]any
		op, want  string
	}{
		{"aliases and __typename", `{ a: dataset(urn: ` + ds + `) { __typename n: name urn } b: dataset(urn: ` + ds + `) { description } }`, nil, "",
			`{"data":{"a":{"__typename":"Dataset","n":"exec","urn":"` + execDataset + `"},"b":{"description":"d"}},"extensions":{}}`},
		{"fragments on interface and object", `query { entity(urn: ` + ds + `) { ...E ... on Dataset { name } ... on MLModel { name } } } fragment E on Entity { urn type __typename }`, nil, "",
			`{"data":{"entity":{"urn":"` + execDataset + `","type":"DATASET","__typename":"Dataset","name":"exec"}},"extensions":{}}`},
		{"merged selections", `{ dataset(urn: ` + ds + `) { properties { name } properties { description } } }`, nil, "",
			`{"data":{"dataset":{"properties":{"name":"exec","description":"d"}}},"extensions":{}}`},
		{"skip and include", `query q($s: Boolean!) { dataset(urn: ` + ds + `) { name @skip(if: $s) urn @include(if: $s) } }`, map[string]any{"s": true}, "",
			`{"data":{"dataset":{"urn":"` + execDataset + `"}},"extensions":{}}`},
		{"operation by name", `query a { entityExists(urn: ` + ds + `) } query b { dataset(urn: ` + ds + `) { name } }`, nil, "b",
			`{"data":{"dataset":{"name":"exec"}},"extensions":{}}`},
		{"two operations, no name", `query a { entityExists(urn: ` + ds + `) } query b { entityExists(urn: ` + ds + `) }`, nil, "",
			`{"errors":[{"message":"Must provide operation name if query contains multiple operations.","extensions":{"classification":"ValidationError"}}],"extensions":{}}`},
		{"enum variable refused", `query q($t: EntityType!) { search(input: {type: $t, query: "*"}) { total } }`, map[string]any{"t": "NOPE"}, "",
			`{"errors":[{"message":"Variable 't' has an invalid value: NOPE is not a valid EntityType","locations":[{"line":1,"column":9}],"extensions":{"classification":"ValidationError"}}],"extensions":{}}`},
		{"syntax error", `{ dataset(urn: `, nil, "",
			`{"errors":[{"message":"Unexpected <EOF>","locations":[{"line":1,"column":16}],"extensions":{"classification":"InvalidSyntax"}}],"extensions":{}}`},
		// Container.platform is DataPlatform!: null for a container without
		// dataPlatformInstance, its error nulls the nearest nullable parent
		// (entity), as graphql-java answers it.
		{"non-null propagation", `{ entity(urn: "urn:li:container:c1") { urn ... on Container { platform { name } } } }`, nil, "",
			`{"errors":[{"message":"The field at path '/entity/platform' was declared as a non null type, but the code involved in retrieving data has wrongly returned a null value.",
			"locations":[{"line":1,"column":63}],"path":["entity","platform"],"extensions":{"classification":"NullValueInNonNullableField"}}],"data":{"entity":null},"extensions":{}}`},
		{"a field not served", `{ entity(urn: "urn:li:container:c1") { ... on Container { lastIngested } } }`, nil, "",
			`{"data":{"entity":{"lastIngested":null}},"extensions":{}}`},
		{"type of a never-written dataset", `{ __type(name: "Dataset") { kind name interfaces { name } fields { name type { kind ofType { kind name } } } } }`, nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := serveDoc(t, tt.doc, tt.vars, tt.op)
			if tt.want != "" {
				sameJSON(t, got, tt.want)
			}
		})
	}
}

// TestIntrospection reads the schema's types, roots and one type's fields
// through __schema and __type.
func TestIntrospection(t *testing.T) {
	t.Parallel()
	got := serveDoc(t, `{ __schema { queryType { name } mutationType { name } subscriptionType { name } types { name kind } directives { name locations } }
	  __type(name: "Dataset") { kind name interfaces { name } fields(includeDeprecated: true) { name isDeprecated type { kind name ofType { kind name } } } }
	  none: __type(name: "Nope") { name } }`, nil, "")
	var answer struct {
		Data struct {
			Schema struct {
				QueryType, MutationType struct{ Name string }
				SubscriptionType        *struct{ Name string }
				Types                   []struct{ Name, Kind string }
				Directives              []struct{ Name string }
			} `json:"__schema"`
			Type struct {
				Kind, Name string
				Interfaces []struct{ Name string }
				Fields     []struct {
					Name         string
					IsDeprecated bool
					Type         struct {
						Kind   string
						Name   *string
						OfType *struct{ Kind, Name string }
					}
				}
			} `json:"__type"`
			None *struct{} `json:"none"`
		}
		Errors []any
	}
	if err := json.Unmarshal([]byte(got), &answer); err != nil || len(answer.Errors) > 0 {
		t.Fatalf("%v: %.500s", err, got)
	}
	s := answer.Data.Schema
	if s.QueryType.Name != "Query" || s.MutationType.Name != "Mutation" || s.SubscriptionType != nil {
		t.Errorf("roots %+v %+v %+v", s.QueryType, s.MutationType, s.SubscriptionType)
	}
	if len(s.Types) < 900 {
		t.Errorf("%d types, want DataHub's whole schema", len(s.Types))
	}
	kinds := map[string]string{}
	for _, ty := range s.Types {
		kinds[ty.Name] = ty.Kind
	}
	for name, kind := range map[string]string{"Dataset": "OBJECT", "Entity": "INTERFACE", "EntityType": "ENUM", "Long": "SCALAR",
		"SearchInput": "INPUT_OBJECT", "OwnerType": "UNION", "__Type": "OBJECT", "String": "SCALAR"} {
		if kinds[name] != kind {
			t.Errorf("type %s: kind %q, want %s", name, kinds[name], kind)
		}
	}
	if len(s.Directives) < 3 {
		t.Errorf("directives %+v", s.Directives)
	}
	ty := answer.Data.Type
	if ty.Kind != "OBJECT" || ty.Name != "Dataset" || len(ty.Interfaces) == 0 {
		t.Errorf("Dataset: %+v", ty)
	}
	var urnField, deprecatedOne bool
	for _, f := range ty.Fields {
		if f.Name == "urn" {
			urnField = f.Type.Kind == "NON_NULL" && f.Type.Name == nil && f.Type.OfType != nil && f.Type.OfType.Name == "String"
		}
		if strings.HasPrefix(f.Name, "__") {
			t.Errorf("introspection field %s listed", f.Name)
		}
		deprecatedOne = deprecatedOne || f.IsDeprecated
	}
	if !urnField || !deprecatedOne {
		t.Errorf("Dataset.urn as String! %v, a deprecated field listed %v: %+v", urnField, deprecatedOne, ty.Fields)
	}
	if answer.Data.None != nil {
		t.Errorf("__type of an unknown name: %+v", answer.Data.None)
	}
}

// TestCollectedFieldsKept runs a document whose merged fields start alike
// and differ after, twice (the second run takes the kept collections): each
// answer has its own fields.
func TestCollectedFieldsKept(t *testing.T) {
	t.Parallel()
	ds := `"` + execDataset + `"`
	doc := `{ a: dataset(urn: ` + ds + `) { ...F ...G } b: dataset(urn: ` + ds + `) { ...F ...H } }
	fragment F on Dataset { properties { name } }
	fragment G on Dataset { properties { description } }
	fragment H on Dataset { properties { qualifiedName } }`
	want := `{"data":{"a":{"properties":{"name":"exec","description":"d"}},"b":{"properties":{"name":"exec","qualifiedName":null}}},"extensions":{}}`
	core, st := newTestCore(t)
	if err := st.Put(store.Aspect{URN: execDataset, Name: "datasetProperties", Value: json.RawMessage(`{"name":"exec","description":"d"}`)}); err != nil {
		t.Fatal(err)
	}
	h, err := New(core)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"query": doc})
	for range 2 {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(string(body))))
		sameJSON(t, w.Body.String(), want)
	}
}
