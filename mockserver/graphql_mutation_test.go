package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver"
)

const updateDescriptionDoc = `mutation updateDescription($input: DescriptionUpdateInput!) { updateDescription(input: $input) }`

// wantGraphQLError fails t unless got is DataHub's error answer for
// updateDescription with message msg, code and type.
func wantGraphQLError(t testing.TB, got gqlResponse, field, msg string, code int, typ string) {
	t.Helper()
	want := fmt.Sprintf(`{"errors":[{"message":%q,"locations":[{"line":1,"column":%d}],"path":[%q],
		"extensions":{"code":%d,"type":%q,"classification":"DataFetchingException"}}],"data":{%q:null},"extensions":{}}`,
		msg, 63, field, code, typ, field)
	wantJSON(t, got, want)
}

func TestGraphQLUpdateDescription(t *testing.T) {
	t.Parallel()
	const container = "urn:li:container:abc"
	const block = "# Title\n\n* a `code` list\n\"\"\" quoted \"\"\"\n\ttab ünïcode"
	tests := []struct {
		name  string
		input map[string]any
		// msg, code and typ are the error; "" for success.
		msg  string
		code int
		typ  string
		// aspect and want are the aspect written on success.
		aspect, want string
	}{
		{name: "dataset field keeps other entries", input: map[string]any{"resourceUrn": gqlDataset, "subResource": "id", "subResourceType": "DATASET_FIELD", "description": block},
			aspect: "editableSchemaMetadata", want: `{"editableSchemaFieldInfo":[{"fieldPath":"other","description":"kept"},{"fieldPath":"id","description":` + mustQuote(block) + `}]}`},
		{name: "v2 field path matched exactly", input: map[string]any{"resourceUrn": gqlDataset, "subResource": "[version=2.0].[type=struct].address", "subResourceType": "DATASET_FIELD", "description": "addr"},
			aspect: "editableSchemaMetadata", want: `{"editableSchemaFieldInfo":[{"fieldPath":"other","description":"kept"},{"fieldPath":"[version=2.0].[type=struct].address","description":"addr"}]}`},
		{name: "simple path of a v2 field is not matched", input: map[string]any{"resourceUrn": gqlDataset, "subResource": "address", "subResourceType": "DATASET_FIELD", "description": "x"},
			msg: "Failed to update " + gqlDataset + " & field address. Field address does not exist in the datasets schema.", code: 400, typ: "BAD_REQUEST"},
		{name: "no schema", input: map[string]any{"resourceUrn": "urn:li:dataset:(urn:li:dataPlatform:hive,noschema,PROD)", "subResource": "id", "subResourceType": "DATASET_FIELD", "description": "x"},
			msg: "Failed to update urn:li:dataset:(urn:li:dataPlatform:hive,noschema,PROD) & field id. urn:li:dataset:(urn:li:dataPlatform:hive,noschema,PROD) has no schema.", code: 400, typ: "BAD_REQUEST"},
		{name: "missing dataset", input: map[string]any{"resourceUrn": "urn:li:dataset:(urn:li:dataPlatform:hive,ghost,PROD)", "subResource": "id", "subResourceType": "DATASET_FIELD", "description": "x"},
			msg: "Failed to update urn:li:dataset:(urn:li:dataPlatform:hive,ghost,PROD). urn:li:dataset:(urn:li:dataPlatform:hive,ghost,PROD) does not exist.", code: 400, typ: "BAD_REQUEST"},
		{name: "whole dataset refused", input: map[string]any{"resourceUrn": gqlDataset, "description": "x"},
			msg: "Failed to update description. Setting the description of a whole dataset through GraphQL is not supported (datahub-mock follows the interface spec): write editableDatasetProperties by proposal, or pass subResourceType DATASET_FIELD and subResource", code: 400, typ: "BAD_REQUEST"},
		{name: "ML entity refused", input: map[string]any{"resourceUrn": gqlFeature, "description": "x"},
			msg: "Failed to update description. Unsupported resource type " + gqlFeature + " provided.", code: 500, typ: "SERVER_ERROR"},
		{name: "container", input: map[string]any{"resourceUrn": container, "description": block},
			aspect: "editableContainerProperties", want: `{"description":` + mustQuote(block) + `}`},
		{name: "missing container", input: map[string]any{"resourceUrn": "urn:li:container:none", "description": "x"},
			msg: "Failed to update urn:li:container:none. urn:li:container:none does not exist.", code: 400, typ: "BAD_REQUEST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			seedGraphQL(t, s)
			if err := s.PutAspectJSON("urn:li:dataset:(urn:li:dataPlatform:hive,noschema,PROD)", "status", json.RawMessage(`{"removed":false}`)); err != nil {
				t.Fatal(err)
			}
			if err := s.PutAspectJSON(container, "containerProperties", json.RawMessage(`{"name":"abc"}`)); err != nil {
				t.Fatal(err)
			}
			got := postGraphQL(t, s, "/api/graphql", gqlBody(t, updateDescriptionDoc, map[string]any{"input": tt.input}))
			if tt.msg != "" {
				wantGraphQLError(t, got, "updateDescription", tt.msg, tt.code, tt.typ)
				return
			}
			wantJSON(t, got, `{"data":{"updateDescription":true},"extensions":{}}`)
			raw, err := s.GetAspectJSON(tt.input["resourceUrn"].(string), tt.aspect, 0)
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			_ = json.Unmarshal(raw, &g)
			_ = json.Unmarshal([]byte(tt.want), &w)
			if d := cmp.Diff(w, g); d != "" {
				t.Errorf("%s (-want +got):\n%s", tt.aspect, d)
			}
		})
	}
}

// TestGraphQLUpdateDescriptionVersions checks that the mutation writes a new
// version through the core, marked as from the UI.
func TestGraphQLUpdateDescriptionVersions(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	seedGraphQL(t, s)
	for _, d := range []string{"one", "two"} {
		got := postGraphQL(t, s, "/api/graphql", gqlBody(t, updateDescriptionDoc, map[string]any{"input": map[string]any{
			"resourceUrn": gqlDataset, "subResource": "id", "subResourceType": "DATASET_FIELD", "description": d}}))
		wantJSON(t, got, `{"data":{"updateDescription":true},"extensions":{}}`)
	}
	for v, want := range map[int64]string{0: "two", 1: "kept-only", 2: "one"} {
		raw, err := s.GetAspectJSON(gqlDataset, "editableSchemaMetadata", v)
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		var a struct {
			EditableSchemaFieldInfo []struct{ FieldPath, Description string }
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatal(err)
		}
		got := "kept-only"
		for _, f := range a.EditableSchemaFieldInfo {
			if f.FieldPath == "id" {
				got = f.Description
			}
		}
		if got != want {
			t.Errorf("version %d: description of id %q, want %q", v, got, want)
		}
	}
	q := `{ dataset(urn: "` + gqlDataset + `") { editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } } } }`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, nil)),
		`{"data":{"dataset":{"editableSchemaMetadata":{"editableSchemaFieldInfo":[{"fieldPath":"other","description":"kept"},{"fieldPath":"id","description":"two"}]}}},"extensions":{}}`)
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestGraphQLEnvelope(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithToken("secret"))
	auth := []string{"Authorization", "Bearer secret"}
	ok := gqlBody(t, `{ entityExists(urn: "`+gqlTable+`") }`, nil)
	tests := []struct {
		name, path, body string
		header           []string
		status           int
		want             string // the JSON answer of a 200
	}{
		{"api/graphql", "/api/graphql", ok, auth, 200, `{"data":{"entityExists":false},"extensions":{}}`},
		{"front prefix", "/api/gms/api/graphql", ok, auth, 200, `{"data":{"entityExists":false},"extensions":{}}`},
		{"front v2", "/api/v2/graphql", ok, auth, 200, `{"data":{"entityExists":false},"extensions":{}}`},
		{"no token", "/api/graphql", ok, nil, 401, ""},
		{"wrong token", "/api/graphql", ok, []string{"Authorization", "Bearer nope"}, 401, ""},
		{"not JSON", "/api/graphql", `{"query":`, auth, 400, ""},
		{"no query", "/api/graphql", `{"variables":{}}`, auth, 400, ""},
		{"query not a string", "/api/graphql", `{"query":1}`, auth, 400, ""},
		// graphql-js's text (gqlparser's), suggestions included: graphql-java's
		// own wording is not in DataHub's source.
		{"validation error", "/api/graphql", gqlBody(t, `{ mlFeature(urn: "x") { nope } }`, nil), auth, 200,
			`{"errors":[{"message":"Cannot query field \"nope\" on type \"MLFeature\". Did you mean \"type\" or \"name\"?","locations":[{"line":1,"column":25}],"extensions":{"classification":"ValidationError"}}],"extensions":{}}`},
		{"wrong entity type", "/api/graphql", gqlBody(t, `{ mlFeature(urn: "`+gqlTable+`") { name } }`, nil), auth, 200,
			`{"errors":[{"message":"Failed to load MLFeature: ` + gqlTable + ` is not a mlFeature urn (datahub-mock)","locations":[{"line":1,"column":3}],"path":["mlFeature"],
			"extensions":{"code":400,"type":"BAD_REQUEST","classification":"DataFetchingException"}}],"data":{"mlFeature":null},"extensions":{}}`},
		{"bad urn", "/api/graphql", gqlBody(t, `{ dataset(urn: " x") { name } }`, nil), auth, 200,
			`{"errors":[{"message":"Error: cannot provide an URN with leading or trailing whitespace","locations":[{"line":1,"column":3}],"path":["dataset"],
			"extensions":{"code":400,"type":"BAD_REQUEST","classification":"DataFetchingException"}}],"data":{"dataset":null},"extensions":{}}`},
	}
	t.Run("cases", func(t *testing.T) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				got := postGraphQL(t, s, tt.path, tt.body, tt.header...)
				if tt.status != http.StatusOK {
					if got.status != tt.status {
						t.Fatalf("status %d, want %d: %s", got.status, tt.status, got.body)
					}
					if tt.status == http.StatusBadRequest && len(got.body) != 0 {
						t.Errorf("400 body %q, want empty (GraphQLController)", got.body)
					}
					return
				}
				wantJSON(t, got, tt.want)
			})
		}
	})
	t.Run("GET", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, s.URL()+"/api/graphql?query=%7Bx%7D", nil)
		req.Header.Set("Authorization", "Bearer secret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("GET status %d, want 405", resp.StatusCode)
		}
	})
	authorized := 0 // requests refused 401 are not counted
	for _, tt := range tests {
		if tt.status != http.StatusUnauthorized {
			authorized++
		}
	}
	if n := s.RequestCount(mockserver.OpGraphQL); n < authorized {
		t.Errorf("RequestCount(OpGraphQL) = %d, want at least %d", n, authorized)
	}
}

// TestGraphQLFault checks that a fault can name OpGraphQL: the request is
// failed with the fault's status and changes nothing.
func TestGraphQLFault(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithFault(mockserver.Fault{Op: mockserver.OpGraphQL, Times: 1, Status: http.StatusServiceUnavailable}))
	seedGraphQL(t, s)
	body := gqlBody(t, updateDescriptionDoc, map[string]any{"input": map[string]any{
		"resourceUrn": gqlDataset, "subResource": "id", "subResourceType": "DATASET_FIELD", "description": "new"}})
	if got := postGraphQL(t, s, "/api/graphql", body); got.status != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503: %s", got.status, got.body)
	}
	if _, err := s.GetAspectJSON(gqlDataset, "editableSchemaMetadata", 2); err == nil {
		t.Error("the failed mutation wrote a version")
	}
	wantJSON(t, postGraphQL(t, s, "/api/graphql", body), `{"data":{"updateDescription":true},"extensions":{}}`)
}

// TestGraphQLUpdateDescriptionBlockString writes a description given as a
// block string in the document itself: the GraphQL spec's block string
// value (common indentation and blank first and last lines removed) is
// stored exactly, markdown and backslashes included. (graph-gophers v1.11.0
// does not accept the escaped triple quote \""" inside a block string,
// which graphql-java does; a description with three quotes in a row has to
// come as a variable or an ordinary string.)
func TestGraphQLUpdateDescriptionBlockString(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	seedGraphQL(t, s)
	doc := "mutation {\n  updateDescription(input: {resourceUrn: \"" + strings.ReplaceAll(gqlDataset, `"`, `\"`) + "\", subResourceType: DATASET_FIELD, subResource: \"id\",\n" +
		"    description: \"\"\"\n    # Key\n\n    * unique\n      * never \\\"reused\\\"\n    \"\"\"})\n}"
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, doc, nil)), `{"data":{"updateDescription":true},"extensions":{}}`)
	raw, err := s.GetAspectJSON(gqlDataset, "editableSchemaMetadata", 0)
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		EditableSchemaFieldInfo []struct{ FieldPath, Description string }
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatal(err)
	}
	want := "# Key\n\n* unique\n  * never \\\"reused\\\""
	if got := a.EditableSchemaFieldInfo[len(a.EditableSchemaFieldInfo)-1].Description; got != want {
		t.Errorf("description %q, want %q", got, want)
	}
}
