package mockserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestGraphQLFaultValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fault Fault
		msg   string // "" when valid
	}{
		{"status", FailGraphQL("getDataset", FailSpec{Status: 503, Times: 1, RetryAfter: time.Second}), ""},
		{"in errors", FailGraphQL("getDataset", FailSpec{Status: 403, Times: 1, GraphQLError: "no"}), ""},
		{"every operation", FailGraphQL("", FailSpec{Status: 500, Times: Forever, GraphQLError: "no"}), ""},
		{"delay", Fault{Op: OpGraphQL, Times: 1, Delay: time.Millisecond, GraphQLOperation: "q"}, ""},
		{"operation on another op", Fault{Op: OpGetAspect, Times: 1, Status: 503, GraphQLOperation: "q"}, `GraphQLOperation needs Op "graphql", not "getAspect"`},
		{"operation on any op", Fault{Op: OpAny, Times: 1, Status: 503, GraphQLOperation: "q"}, `GraphQLOperation needs Op "graphql"`},
		{"error on another op", Fail(OpGetAspect, FailSpec{Status: 400, Times: 1, GraphQLError: "x"}), `GraphQLError needs Op "graphql"`},
		{"error with an HTTP-only code", FailGraphQL("q", FailSpec{Status: 503, Times: 1, GraphQLError: "x"}), "GraphQLError needs a Status that is one of DataHub's GraphQL codes [400 403 404 409 500], not 503"},
		{"error without status", Fault{Op: OpGraphQL, Times: 1, GraphQLError: "x"}, "not 0"},
		{"error with retry-after", FailGraphQL("q", FailSpec{Status: 500, Times: 1, GraphQLError: "x", RetryAfter: time.Second}), "GraphQLError excludes RetryAfter"},
		{"error with drop", Fault{Op: OpGraphQL, Times: 1, Status: 400, GraphQLError: "x", Drop: true}, "Status excludes Drop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.fault.Validate()
			if tt.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Validate = %v, want an error containing %q", err, tt.msg)
			}
		})
	}
}

func TestGraphQLFaults(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithControl(true), WithToken("tok"))
	auth := []string{"Authorization", "Bearer tok"}
	query := func(doc, operationName string) response {
		t.Helper()
		m := map[string]any{"query": doc}
		if operationName != "" {
			m["operationName"] = operationName
		}
		b, _ := json.Marshal(m)
		return serve(t, s, http.MethodPost, "/api/graphql", string(b), auth...)
	}
	const getDataset = `query getDataset { entityExists(urn: "urn:li:corpuser:x") }`
	const other = `query other { entityExists(urn: "urn:li:corpuser:x") }`
	const answer = `{"data":{"entityExists":false},"extensions":{}}`

	// Installed through the control API: 200 with DataHub's error shape.
	if r := serve(t, s, http.MethodPost, ControlPrefix+"/faults",
		`{"op":"graphql","times":1,"status":403,"graphQLOperation":"getDataset","graphQLError":"Unauthorized to perform this action."}`, auth...); r.Status != 200 {
		t.Fatalf("control = %d %s", r.Status, r.Body)
	}
	if r := query(other, ""); r.Status != 200 || r.Body != answer {
		t.Errorf("another operation = %d %s", r.Status, r.Body)
	}
	r := query(getDataset, "")
	var got any
	if err := json.Unmarshal([]byte(r.Body), &got); r.Status != 200 || err != nil {
		t.Fatalf("faulted = %d %s", r.Status, r.Body)
	}
	want := map[string]any{"data": nil, "extensions": map[string]any{}, "errors": []any{map[string]any{
		"message":    "Unauthorized to perform this action.",
		"extensions": map[string]any{"code": 403.0, "type": "UNAUTHORIZED", "classification": "DataFetchingException"},
	}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("faulted answer (-want +got):\n%s", diff)
	}
	if r := query(getDataset, ""); r.Body != answer {
		t.Errorf("after the fault = %d %s", r.Status, r.Body)
	}

	// An HTTP status with Retry-After, matched by the body's operationName.
	s.FailGraphQL("getDataset", FailSpec{Status: 503, Times: 2, RetryAfter: 1500 * time.Millisecond})
	if r := query(getDataset+" "+other, "getDataset"); r.Status != 503 || r.Header.Get("Retry-After") != "2" {
		t.Errorf("503 fault = %d Retry-After %q %s", r.Status, r.Header.Get("Retry-After"), r.Body)
	}
	if r := query(getDataset+" "+other, "other"); r.Status != 200 {
		t.Errorf("operationName other = %d %s", r.Status, r.Body)
	}
	// An anonymous query has no name: only unnamed GraphQL faults apply.
	if r := query(`{ entityExists(urn: "urn:li:corpuser:x") }`, ""); r.Status != 200 {
		t.Errorf("anonymous = %d %s", r.Status, r.Body)
	}
	if r := query(getDataset, ""); r.Status != 503 {
		t.Errorf("second 503 = %d %s", r.Status, r.Body)
	}
	// Control API refusals name the member.
	for body, msg := range map[string]string{
		`{"op":"graphql","times":1,"status":503,"graphQLError":"x"}`:    `Invalid fault member "graphQLError": graphQLError needs a status that is one of`,
		`{"op":"config","times":1,"status":503,"graphQLOperation":"q"}`: `Invalid fault member "graphQLOperation": graphQLOperation needs op "graphql"`,
		`{"op":"graphql","times":1,"status":503,"graphQLOperation":1}`:  `Fault member "graphQLOperation" must be a string`,
	} {
		r := serve(t, s, http.MethodPost, ControlPrefix+"/faults", body, auth...)
		var e struct{ Message string }
		if err := json.Unmarshal([]byte(r.Body), &e); err != nil || r.Status != 400 || !strings.HasPrefix(e.Message, msg) {
			t.Errorf("control %s = %d %s, want 400 with %q", body, r.Status, r.Body, msg)
		}
	}
}
