package mockserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// fidelityCase is one request and the answer DataHub gives it.
type fidelityCase struct {
	name, method, path, body string
	status                   int
	want                     string // the body, or a part of it when contains
	contains                 bool
}

// checkFidelity runs cases in order against s.
func checkFidelity(t *testing.T, s *Server, cases []fidelityCase) {
	t.Helper()
	for _, c := range cases {
		r := serve(t, s, c.method, c.path, c.body)
		ok := r.Body == c.want
		if c.contains {
			ok = strings.Contains(r.Body, c.want)
		}
		if r.Status != c.status || !ok {
			t.Errorf("%s: %s %s = %d %s, want %d %s", c.name, c.method, c.path, r.Status, r.Body, c.status, c.want)
		}
	}
}

// TestV3CountLimit checks that the OpenAPI v3 list and scroll limit their
// count as DataHub's search service does for every search: a negative
// count (or one above 10,000) is 5,000.
func TestV3CountLimit(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithDefaultAspects(false)) // the answers hold the aspects written only
	w := serve(t, s, "POST", "/openapi/v3/entity/dataset?async=false", `[{"urn":"`+v3DS+`","status":{"value":{"removed":false}}}]`)
	if w.Status != http.StatusOK {
		t.Fatalf("write = %d %s", w.Status, w.Body)
	}
	entity := `{"entities":[{"urn":"` + v3DS + `","datasetKey":{"value":{"platform":"urn:li:dataPlatform:hive","name":"db.t","origin":"PROD"}},` +
		`"status":{"value":{"removed":false}}}],"facets":[],"totalCount":1}`
	checkFidelity(t, s, []fidelityCase{
		{"list count -1", "GET", "/openapi/v3/entity/dataset?count=-1", "", 200, entity, false},
		{"list count 20000", "GET", "/openapi/v3/entity/dataset?count=20000", "", 200, entity, false},
		{"scroll count -1", "POST", "/openapi/v3/entity/scroll?count=-1", `{"entities":["dataset"],"aspects":[]}`, 200,
			strings.Replace(entity, `"facets":[]`, `"facets":[{"field":"entity","aggregations":{"dataset":1}}]`, 1), false},
		{"list count 0", "GET", "/openapi/v3/entity/dataset?count=0", "", 200, `{"entities":[],"facets":[],"totalCount":1}`, false},
	})
}

// TestV3ScrollIDRefused checks that a v3 scroll id the mock did not hand
// out fails as DataHub's decoding of it does, never as a page: not Base64
// is Java's IllegalArgumentException (400 with its message), Base64 that
// maps to no cursor is Jackson's failure ("Invalid JSON format", 400).
func TestV3ScrollIDRefused(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	w := serve(t, s, "POST", "/openapi/v3/entity/dataset?async=false", `[{"urn":"`+v3DS+`","status":{"value":{"removed":false}}}]`)
	if w.Status != http.StatusOK {
		t.Fatalf("write = %d %s", w.Status, w.Body)
	}
	invalidJSON := func(id string) string {
		return fmt.Sprintf(`{"error":"Invalid JSON format","message":"Invalid scroll Id cannot be mapped: %s (datahub-mock: Jackson's reason is not given)"}`, id)
	}
	// A GraphQL scroll id: Base64 JSON, but no cursor of this list.
	gqlID := "eyJzb3J0IjpbMSwidXJuOmxpOmRhdGFzZXQ6YSJdLCJwaXRJZCI6bnVsbCwiZXhwaXJhdGlvblRpbWUiOjB9"
	checkFidelity(t, s, []fidelityCase{
		{"garbage", "GET", "/openapi/v3/entity/dataset?scrollId=garbage", "", 400, invalidJSON("garbage"), false},
		{"zeros", "GET", "/openapi/v3/entity/dataset?scrollId=AAAA", "", 400, invalidJSON("AAAA"), false},
		{"graphql id", "GET", "/openapi/v3/entity/dataset?scrollId=" + gqlID, "", 400, invalidJSON(gqlID), false},
		{"scroll garbage", "POST", "/openapi/v3/entity/scroll?scrollId=garbage", `{}`, 400, invalidJSON("garbage"), false},
		{"not base64", "GET", "/openapi/v3/entity/dataset?scrollId=a!b", "", 400, `{"error":"Illegal base64 character 21"}`, false},
		{"short", "GET", "/openapi/v3/entity/dataset?scrollId=a", "", 400, `{"error":"Input byte[] should at least have 2 bytes for base64 bytes"}`, false},
		{"one symbol too many", "GET", "/openapi/v3/entity/dataset?scrollId=abcde", "", 400, `{"error":"Last unit does not have enough valid bits"}`, false},
	})
}

// TestGraphQLScrollIDRefused checks scrollAcrossEntities and
// scrollAcrossLineage given a scroll id that decodes to no cursor: DataHub's
// IllegalStateException, answered with its own message as a server error;
// an id that is not Base64 is Java's IllegalArgumentException, a bad
// request.
func TestGraphQLScrollIDRefused(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	entities := `{"query":"query { scrollAcrossEntities(input: {query: \"*\", scrollId: \"%s\"}) { count } }"}`
	lineage := `{"query":"query { scrollAcrossLineage(input: {urn: \"` + strings.ReplaceAll(v3DS, `"`, `\"`) + `\", direction: DOWNSTREAM, scrollId: \"%s\"}) { count } }"}`
	for _, c := range []struct{ name, query, id, want string }{
		{"entities garbage", entities, "garbage", `"message":"Invalid scroll Id cannot be mapped: garbage","locations":[{"line":1,"column":9}],"path":["scrollAcrossEntities"],"extensions":{"classification":"DataFetchingException","code":500,"type":"SERVER_ERROR"}`},
		{"lineage garbage", lineage, "garbage", `"message":"Invalid scroll Id cannot be mapped: garbage","locations":[{"line":1,"column":9}],"path":["scrollAcrossLineage"],"extensions":{"classification":"DataFetchingException","code":500,"type":"SERVER_ERROR"}`},
		{"entities not base64", entities, "a!b", `"message":"Illegal base64 character 21","locations":[{"line":1,"column":9}],"path":["scrollAcrossEntities"],"extensions":{"classification":"DataFetchingException","code":400,"type":"BAD_REQUEST"}`},
	} {
		r := serve(t, s, "POST", "/api/graphql", fmt.Sprintf(c.query, c.id))
		if r.Status != http.StatusOK || !strings.Contains(r.Body, c.want) {
			t.Errorf("%s = %d %s, want %s", c.name, r.Status, r.Body, c.want)
		}
	}
}

// TestHealth checks GMS's health checks: 200 without a body, without a
// token, and not counted against faults of other operations.
func TestHealth(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithToken("secret"))
	for _, path := range []string{"/health", "/health/live", "/api/gms/health"} {
		if r := serve(t, s, "GET", path, ""); r.Status != http.StatusOK || r.Body != "" {
			t.Errorf("GET %s = %d %q, want 200 and no body", path, r.Status, r.Body)
		}
	}
	if r := serve(t, s, "POST", "/health", ""); r.Status != http.StatusMethodNotAllowed {
		t.Errorf("POST /health = %d %s, want 405", r.Status, r.Body)
	}
	if got := s.RequestCount(OpHealth); got != 4 {
		t.Errorf("RequestCount(OpHealth) = %d, want 4", got)
	}
}

// TestTimeseriesLimitRange checks that getTimeseriesAspectValues refuses a
// limit outside Java's int, which its restspec declares, as Rest.li refuses
// any int parameter it cannot coerce.
func TestTimeseriesLimitRange(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for _, limit := range []string{"2147483648", "-2147483649"} {
		body := `{"urn":"` + v3DS + `","entity":"dataset","aspect":"datasetProfile","limit":` + limit + `}`
		wantRestliError(t, serve(t, s, http.MethodPost, "/aspects?action=getTimeseriesAspectValues", body), 400,
			"Parameters of method 'getTimeseriesAspectValues' failed validation with error 'ERROR :: /limit :: "+limit+" cannot be coerced to Integer")
	}
	body := `{"urn":"` + v3DS + `","entity":"dataset","aspect":"datasetProfile","limit":2147483647}`
	if r := serve(t, s, http.MethodPost, "/aspects?action=getTimeseriesAspectValues", body); r.Status != http.StatusOK {
		t.Errorf("limit 2147483647 = %d %s", r.Status, r.Body)
	}
}

// TestURNRawParenthesesAccepted checks that a URN whose parts hold raw
// balanced parentheses is written and read back: DataHub only warns about
// them unless strict URN validation is on.
func TestURNRawParenthesesAccepted(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for _, u := range []string{
		"urn:li:dataset:(urn:li:dataPlatform:hive,x(y),PROD)",
		"urn:li:mlFeature:(ns,f(1))",
		"urn:li:corpuser:a(b)",
		"urn:li:tag:a,b",
	} {
		et := u[len("urn:li:") : strings.Index(u[len("urn:li:"):], ":")+len("urn:li:")]
		w := serve(t, s, "POST", "/openapi/v3/entity/"+et+"?async=false", `[{"urn":"`+u+`","status":{"value":{"removed":false}}}]`)
		if w.Status != http.StatusOK {
			t.Errorf("write %s = %d %s", u, w.Status, w.Body)
			continue
		}
		want := `{"urn":"` + u + `","status":{"value":{"removed":false}}}`
		if r := serve(t, s, "GET", "/openapi/v3/entity/"+et+"/"+u+"?aspects=status", ""); r.Status != http.StatusOK || r.Body != want {
			t.Errorf("read %s = %d %s, want %s", u, r.Status, r.Body, want)
		}
	}
	// The typed checks still apply to the rest of the URN.
	for _, u := range []string{"urn:li:dataset:(urn:li:dataPlatform:hive,x(y),NOPE)", "urn:li:dataset:(hive,x(y),PROD)"} {
		w := serve(t, s, "POST", "/openapi/v3/entity/dataset?async=false", `[{"urn":"`+u+`","status":{"value":{"removed":false}}}]`)
		if want := `{"error":"Invalid urn!: ` + u + `"}`; w.Status != http.StatusBadRequest || w.Body != want {
			t.Errorf("write %s = %d %s, want 400 %s", u, w.Status, w.Body, want)
		}
	}
}

// TestV3ReadMalformedKey checks that a v3 read of a well-formed URN whose
// key no write accepts answers 404, as DataHub's reads check only the
// syntax; a URN that is not well formed is still refused.
func TestV3ReadMalformedKey(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	e := "/openapi/v3/entity/dataset/"
	for _, path := range []string{e + "urn:li:dataset:(a,b)", e + "urn:li:dataset:(a,b)/status", e + "urn:li:dataset:bad"} {
		r := serve(t, s, "GET", path, "")
		if r.Status != http.StatusNotFound || r.Header.Get("Not-Found-Reason") != "ENTITY" {
			t.Errorf("GET %s = %d %v %s, want 404 with Not-Found-Reason", path, r.Status, r.Header, r.Body)
		}
		if r := serve(t, s, "HEAD", path, ""); r.Status != http.StatusNotFound {
			t.Errorf("HEAD %s = %d, want 404", path, r.Status)
		}
	}
	if r := serve(t, s, "GET", e+"urn:li:dataset:(a,b", ""); r.Status != http.StatusBadRequest || r.Body != `{"error":"Invalid urn!: urn:li:dataset:(a,b"}` {
		t.Errorf("GET of an unbalanced URN = %d %s, want 400", r.Status, r.Body)
	}
}

// TestV3TimeseriesReads checks that OpenAPI v3 reads serve a timeseries
// aspect's latest document, as DataHub's do (with its system metadata when
// asked, never an audit stamp), and that a version selects the latest
// document at or before that time.
func TestV3TimeseriesReads(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	e := "/openapi/v3/entity/dataset"
	for _, ms := range []string{"1700000001000", "1700000000000"} {
		w := serve(t, s, "POST", e+"?async=false", `[{"urn":"`+v3DS+`","datasetProfile":{"value":{"timestampMillis":`+ms+`,"rowCount":6}}}]`)
		if w.Status != http.StatusOK {
			t.Fatalf("write = %d %s", w.Status, w.Body)
		}
	}
	latest := `{"value":{"timestampMillis":1700000001000,"rowCount":6}}`
	older := `{"value":{"timestampMillis":1700000000000,"rowCount":6}}`
	checkFidelity(t, s, []fidelityCase{
		{"aspect", "GET", e + "/" + v3DS + "/datasetProfile", "", 200, latest, false},
		{"aspect at a time", "GET", e + "/" + v3DS + "/datasetProfile?version=1700000000500", "", 200, older, false},
		{"aspect before any", "GET", e + "/" + v3DS + "/datasetProfile?version=1", "", 404, "", false},
		{"entity", "GET", e + "/" + v3DS + "?aspects=datasetProfile", "", 200, `{"urn":"` + v3DS + `","datasetProfile":` + latest + `}`, false},
		{"entity, all aspects", "GET", e + "/" + v3DS, "", 200, `,"datasetProfile":` + latest + `}`, true},
		{"batchGet", "POST", e + "/batchGet", `[{"urn":"` + v3DS + `","datasetProfile":{}}]`, 200, `[{"urn":"` + v3DS + `","datasetProfile":` + latest + `}]`, false},
		{"batchGet at a time", "POST", e + "/batchGet", `[{"urn":"` + v3DS + `","datasetProfile":{"headers":{"If-Version-Match":"1700000000500"}}}]`, 200,
			`[{"urn":"` + v3DS + `","datasetProfile":` + older + `}]`, false},
		{"system metadata", "GET", e + "/" + v3DS + "/datasetProfile?systemMetadata=true", "", 200, `{"value":{"timestampMillis":1700000001000,"rowCount":6},"systemMetadata":{`, true},
	})
	if r := serve(t, s, "GET", e+"/"+v3DS+"/datasetProfile?systemMetadata=true", ""); strings.Contains(r.Body, "auditStamp") {
		t.Errorf("a timeseries aspect has an audit stamp: %s", r.Body)
	}
}

// TestV3InvalidUTF8 checks bodies that are not valid UTF-8 on the OpenAPI
// v3 routes: those DataHub reads as a String (batch and single-aspect
// writes, batchGet) get U+FFFD for each bad byte, as Spring's string
// converter decodes them; those it binds with Jackson (a single-aspect
// PATCH, the scroll body, the trace request) are 400 "Malformed request
// body".
func TestV3InvalidUTF8(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithDefaultAspects(false)) // the answers hold the aspects written only
	e := "/openapi/v3/entity/dataset"
	bad := "urn:li:dataset:(urn:li:dataPlatform:hive,\xff\xfe,PROD)"
	stored := "urn:li:dataset:(urn:li:dataPlatform:hive,\uFFFD\uFFFD,PROD)"
	malformed := `{"error":"Malformed request body"}`
	checkFidelity(t, s, []fidelityCase{
		{"batch write", "POST", e + "?async=false", `[{"urn":"` + bad + `","status":{"value":{"removed":false}}}]`, 200,
			`[{"urn":"` + stored + `","status":{"value":{"removed":false}}}]`, false},
		{"aspect write", "POST", e + "/" + v3DS + "/datasetProperties?async=false", "{\"value\":{\"name\":\"a\xffb\"}}", 200,
			`{"urn":"` + v3DS + `","datasetProperties":{"value":{"name":"a` + "\uFFFD" + `b"}}}`, false},
		{"batchGet", "POST", e + "/batchGet", `[{"urn":"` + bad + `","status":{}}]`, 200,
			`[{"urn":"` + stored + `","status":{"value":{"removed":false}}}]`, false},
		{"aspect patch", "PATCH", e + "/" + v3DS + "/globalTags", "{\"patch\":[{\"op\":\"add\",\"path\":\"/tags/urn:li:tag:\xff\",\"value\":{\"tag\":\"urn:li:tag:\xff\"}}]}", 400, malformed, false},
		{"scroll", "POST", "/openapi/v3/entity/scroll", "{\"entities\":[\"dataset\xff\"]}", 400, malformed, false},
		{"trace", "POST", "/openapi/v1/trace/write/0000000000000000000000000000abcd", "{\"" + bad + "\":[\"status\"]}", 400, malformed, false},
	})
	if r := serve(t, s, "GET", e+"/"+v3DS+"/datasetProperties", ""); r.Body != `{"value":{"name":"a`+"\uFFFD"+`b"}}` {
		t.Errorf("stored value = %d %s", r.Status, r.Body)
	}
}

// TestGraphQLVariableCoercion checks a variable value of the wrong type for
// a built-in scalar: graphql-java refuses it before executing anything, so
// the answer has one ValidationError at the variable's definition and no
// data.
func TestGraphQLVariableCoercion(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const search = `"query q($c: Int) { searchAcrossEntities(input: {query: \"*\", count: $c}) { total } }"`
	fail := func(msg string) string {
		return `{"errors":[{"message":"Variable 'c' has an invalid value: ` + msg +
			`","locations":[{"line":1,"column":9}],"extensions":{"classification":"ValidationError"}}],"extensions":{}}`
	}
	checkFidelity(t, s, []fidelityCase{
		{"string for Int", "POST", "/api/graphql", `{"query":` + search + `,"variables":{"c":"ten"}}`, 200,
			fail("Expected a value that can be converted to type 'Int' but it was a 'String'"), false},
		{"fraction for Int", "POST", "/api/graphql", `{"query":` + search + `,"variables":{"c":1.5}}`, 200,
			fail("Expected a value that can be converted to type 'Int' but it was a 'Double'"), false},
		{"Int out of range", "POST", "/api/graphql", `{"query":` + search + `,"variables":{"c":2147483648}}`, 200,
			fail("Expected value to be in the integer range, but it was a '2147483648'"), false},
		{"boolean for Int", "POST", "/api/graphql", `{"query":` + search + `,"variables":{"c":true}}`, 200,
			fail("Expected a value that can be converted to type 'Int' but it was a 'Boolean'"), false},
		{"Int", "POST", "/api/graphql", `{"query":` + search + `,"variables":{"c":2}}`, 200,
			`{"data":{"searchAcrossEntities":{"total":0}},"extensions":{}}`, false},
		{"named operation, String", "POST", "/api/graphql",
			`{"query":"query a { searchAcrossEntities(input: {query: \"*\"}) { total } }\nquery b($q: String!) { searchAcrossEntities(input: {query: $q}) { total } }","operationName":"b","variables":{"q":5}}`, 200,
			`{"errors":[{"message":"Variable 'q' has an invalid value: Expected a String input, but it was a 'Integer'","locations":[{"line":2,"column":9}],"extensions":{"classification":"ValidationError"}}],"extensions":{}}`, false},
	})
}
