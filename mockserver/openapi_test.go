package mockserver

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// v3Step is one request of an OpenAPI transcript; before, when set, runs
// first (a clock move).
type v3Step struct {
	method, path, body string
	header             []string
	before             func()
	keep               bool // the transcript's trace id stays the one before
}

var (
	traceParentRE = regexp.MustCompile(`^00-([0-9a-f]{32})-[0-9a-f]{16}-01$`)
	traceIDRE     = regexp.MustCompile(`[0-9a-f]{32}`)
)

// v3Transcript runs steps against s under prefix ("" or "/api/gms") and
// returns the transcript: each request, its status, the headers that
// matter and its body, trace ids masked. "{trace}" in a path stands for the
// trace id of the latest answer before it that carried a body.
func v3Transcript(t *testing.T, s *Server, prefix string, steps []v3Step) string {
	t.Helper()
	var b strings.Builder
	trace := ""
	for _, st := range steps {
		if st.before != nil {
			st.before()
		}
		path := strings.ReplaceAll(st.path, "{trace}", trace)
		r := serve(t, s, st.method, prefix+path, st.body, st.header...)
		fmt.Fprintf(&b, "### %s %s\n", st.method, strings.ReplaceAll(st.path, "{trace}", "<trace>"))
		if st.body != "" {
			fmt.Fprintf(&b, "%s\n", st.body)
		}
		fmt.Fprintf(&b, "--> %d\n", r.Status)
		for _, h := range []string{"Content-Type", "Not-Found-Reason", "Retry-After", "X-RestLi-Error-Response"} {
			if v := r.Header.Get(h); v != "" {
				fmt.Fprintf(&b, "%s: %s\n", h, v)
			}
		}
		if tp := r.Header.Get("traceparent"); tp != "" {
			m := traceParentRE.FindStringSubmatch(tp)
			if m == nil {
				t.Errorf("%s %s: traceparent %q is not 00-<32 hex>-<16 hex>-01", st.method, st.path, tp)
			} else {
				fmt.Fprintf(&b, "traceparent: 00-<trace>-<span>-01\n")
				if r.Status < 300 && r.Body != "" && st.method != http.MethodGet && strings.HasPrefix(st.path, "/openapi/v3/entity/") && !st.keep {
					trace = m[1]
				}
			}
		}
		if r.Body != "" {
			fmt.Fprintf(&b, "%s\n", traceIDRE.ReplaceAllString(r.Body, "<trace>"))
		}
		b.WriteString("\n")
	}
	return b.String()
}

const (
	v3DS  = "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
	v3DS2 = "urn:li:dataset:(urn:li:dataPlatform:hive,db.u,PROD)"
)

// v3Scenarios are the transcripts pinned by golden files, each on a fresh
// server with a fake clock and the async lag of one second.
func v3Scenarios(clock *fakeClock) map[string][]v3Step {
	tick := func() { clock.Advance(time.Second) }
	e := "/openapi/v3/entity"
	return map[string][]v3Step{
		"writes": {
			{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":"` + v3DS + `","datasetProperties":{"value":{"name":"t","customProperties":{}}},"status":{"value":{"removed":false}},"notAnAspect":{"value":{}}},{"urn":"` + v3DS2 + `","status":{"value":{"removed":false}}}]`},
			{method: "POST", path: e + "/dataset?async=false&systemMetadata=true", body: `[{"urn":"` + v3DS + `","status":{"value":{"removed":false},"systemMetadata":{"runId":"r1","lastObserved":5}}}]`},
			{method: "POST", path: e + "/dataset/" + v3DS + "/datasetProperties", body: `{"value":{"name":"again"}}`},
			{method: "POST", path: e + "/dataset/" + v3DS + "/datasetProperties", body: `{"value":{"name":"again"},"headers":{"If-None-Match":"*"}}`},
			{method: "POST", path: e + "/dataset/" + v3DS + "/editableDatasetProperties", body: `{"value":{"description":"created"}}`},
			{method: "POST", path: e + "/dataset/" + v3DS + "/datasetProperties?createIfNotExists=false", body: `{"value":{"name":"t2"},"headers":{"If-Version-Match":"7"}}`},
			{method: "POST", path: e + "/dataset/" + v3DS + "/datasetProperties?createIfNotExists=false", body: `{"value":{"name":"t2"},"headers":{"If-Version-Match":"1"}}`},
			{method: "POST", path: e + "/dataset/" + v3DS + "/status?createIfEntityNotExists=true", body: `{"value":{"removed":false}}`},
			{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":"` + v3DS + `","datasetProperties":{"value":{"name":"t3"},"headers":{"If-Version-Match":"1"}}}]`},
			{method: "PATCH", path: e + "/dataset/" + v3DS + "/globalTags", body: `{"patch":[{"op":"add","path":"/tags/urn:li:tag:a","value":{"tag":"urn:li:tag:a"}}]}`},
			{method: "PATCH", path: e + "/dataset?async=false", body: `[{"urn":"` + v3DS + `","globalTags":{"value":{"patch":[{"op":"add","path":"/tags/urn:li:tag:b","value":{"tag":"urn:li:tag:b"}}]}}}]`},
			{method: "PATCH", path: e + "/dataset", body: `[{"urn":"` + v3DS + `","globalTags":{"value":{"patch":[{"op":"add","path":"/tags/urn:li:tag:c","value":{"tag":"urn:li:tag:c"}}]}}}]`},
			{method: "POST", path: e + "/generic?async=false", body: `{"DATASET":[{"urn":"` + v3DS2 + `","datasetProperties":{"value":{"name":"u"}}}]}`},
			{method: "PATCH", path: e + "/generic", body: `{"dataset":[{"urn":"` + v3DS2 + `","globalTags":{"value":{"patch":[]}}}]}`},
			{method: "POST", path: e + "/dataset", body: `[{"urn":"` + v3DS2 + `","status":{"value":{"removed":true}}}]`},
			{method: "GET", path: e + "/dataset/" + v3DS + "?aspects=globalTags,datasetProperties", before: tick},
		},
		"errors": {
			{method: "POST", path: e + "/dataset", body: `{"urn":"` + v3DS + `"}`},
			{method: "POST", path: e + "/dataset", body: `[{"status":{"value":{"removed":false}}}]`},
			{method: "POST", path: e + "/dataset", body: `[{"urn":"` + v3DS + `","status":{"value":{"removed":false}`},
			{method: "PATCH", path: e + "/dataset", body: `[{"urn":"` + v3DS + `","globalTags":{"value":{"add":[]}}}]`},
			{method: "POST", path: e + "/generic", body: `{"dataset":{"urn":"` + v3DS + `"}}`},
			{method: "POST", path: e + "/datasets", body: `[]`},
			{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":"urn:li:dataset:bad","status":{"value":{"removed":false}}}]`},
			{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":"` + v3DS + `","status":{"value":{"removed":"no"}}}]`},
			{method: "POST", path: e + "/dataset?async=maybe", body: `[]`},
			{method: "POST", path: e + "/dataset/" + v3DS + "/datasetProfile", body: `{"value":{"timestampMillis":1}}`},
			{method: "POST", path: e + "/dataset/" + v3DS + "/datasetProfile?createIfNotExists=false", body: `{"value":{"timestampMillis":1}}`},
			{method: "POST", path: e + "/dataset/" + v3DS + "/noSuchAspect", body: `{"value":{}}`},
			{method: "POST", path: e + "/dataset/" + v3DS + "/status", body: `{"headers":{}}`},
			{method: "PATCH", path: e + "/dataset/" + v3DS + "/globalTags", body: `[]`},
			{method: "GET", path: e + "/dataset/urn:li:dataset:(x"},
			{method: "GET", path: "/openapi/v3/entity"},
			{method: "PUT", path: e + "/dataset"},
			{method: "POST", path: e + "/versioning/urn:li:versionSet:(a,b)/relationship/versionOf/" + v3DS},
			{method: "POST", path: "/openapi/v1/trace/write/not-a-trace", body: `{}`},
		},
		"reads": {
			{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":"` + v3DS + `","datasetProperties":{"value":{"name":"t"}},"status":{"value":{"removed":false}}},{"urn":"` + v3DS2 + `","status":{"value":{"removed":true}}}]`},
			{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":"` + v3DS + `","datasetProperties":{"value":{"name":"t v2"}}}]`, before: tick},
			{method: "GET", path: e + "/dataset/" + v3DS},
			{method: "GET", path: e + "/Dataset/" + v3DS + "?aspectNames=datasetproperties&systemMetadata=true"},
			{method: "GET", path: e + "/dataset/" + v3DS + "/datasetProperties?systemMetadata=true"},
			{method: "GET", path: e + "/dataset/" + v3DS + "/datasetProperties?version=1"},
			{method: "GET", path: e + "/dataset/" + v3DS + "/datasetProperties?version=5"},
			{method: "GET", path: e + "/dataset/" + v3DS + "/ownership"},
			{method: "GET", path: e + "/dataset/urn:li:dataset:(urn:li:dataPlatform:hive,nothing,PROD)"},
			{method: "HEAD", path: e + "/dataset/" + v3DS},
			{method: "HEAD", path: e + "/dataset/" + v3DS2},
			{method: "HEAD", path: e + "/dataset/urn:li:dataset:(urn:li:dataPlatform:hive,nothing,PROD)"},
			{method: "HEAD", path: e + "/dataset/" + v3DS + "/datasetProperties"},
			{method: "HEAD", path: e + "/dataset/" + v3DS + "/ownership"},
			{method: "POST", path: e + "/dataset/batchGet", body: `[{"urn":"` + v3DS + `","datasetProperties":{"headers":{"If-Version-Match":"1"}},"status":{}},{"urn":"` + v3DS2 + `"},{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,nothing,PROD)"}]`},
			{method: "POST", path: e + "/generic/batchGet?systemMetadata=true", body: `{"DataSet":[{"urn":"` + v3DS2 + `","status":{}}]}`},
			{method: "GET", path: e + "/dataset?count=1", before: tick},
			{method: "GET", path: e + "/dataset?count=1&includeSoftDelete=true&aspects=status"},
			{method: "GET", path: e + "/dataset?count=1&includeSoftDelete=true&aspects=status&scrollId=ZGF0YXNldGluZGV4X3YyAHVybjpsaTpkYXRhc2V0Oih1cm46bGk6ZGF0YVBsYXRmb3JtOmhpdmUsZGIudCxQUk9EKQ"},
			{method: "POST", path: e + "/scroll", body: `{"entities":["dataset"]}`},
			{method: "POST", path: e + "/scroll?count=5", body: `{"entities":["dataset"],"aspects":["status"]}`},
			{method: "POST", path: e + "/scroll", body: `{"filter":{"and":[]}}`},
		},
		"deletes": {
			{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":"` + v3DS + `","datasetProperties":{"value":{"name":"t"}},"status":{"value":{"removed":false}},"globalTags":{"value":{"tags":[]}}}]`},
			{method: "DELETE", path: e + "/dataset/" + v3DS + "/globalTags"},
			{method: "DELETE", path: e + "/dataset/" + v3DS + "/noSuchAspect"},
			{method: "DELETE", path: e + "/dataset/" + v3DS + "?aspects=status"},
			{method: "GET", path: e + "/dataset/" + v3DS},
			{method: "DELETE", path: e + "/dataset/" + v3DS + "?clear=true"},
			{method: "GET", path: e + "/dataset/" + v3DS},
			{method: "DELETE", path: e + "/dataset/" + v3DS + "?aspects=bogus"},
			{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":"` + v3DS + `","status":{"value":{"removed":false}}}]`},
			{method: "DELETE", path: e + "/dataset/" + v3DS},
			{method: "HEAD", path: e + "/dataset/" + v3DS},
		},
		"trace": {
			{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":"` + v3DS + `","status":{"value":{"removed":false}}}]`},
			{method: "POST", path: "/openapi/v1/trace/write/{trace}?onlyIncludeErrors=false", body: `{"` + v3DS + `":["status"]}`},
			{method: "POST", path: "/openapi/v1/trace/write/{trace}?onlyIncludeErrors=false", body: `{"` + v3DS + `":["status"]}`, before: tick},
			{method: "POST", path: e + "/dataset", body: `[{"urn":"` + v3DS + `","datasetProperties":{"value":{"name":"async"}}}]`},
			{method: "POST", path: "/openapi/v1/trace/write/{trace}?onlyIncludeErrors=false", body: `{"` + v3DS + `":["datasetProperties"]}`},
			{method: "POST", path: "/openapi/v1/trace/write/{trace}?onlyIncludeErrors=false", body: `{"` + v3DS + `":["datasetProperties"]}`, before: tick},
			{method: "POST", path: "/openapi/v1/trace/write/{trace}?onlyIncludeErrors=false", body: `{"` + v3DS + `":["datasetproperties"]}`, before: tick},
			{method: "POST", path: "/openapi/v1/trace/write/{trace}", body: `{"` + v3DS + `":[]}`},
			{method: "POST", path: e + "/dataset", body: `[{"urn":"` + v3DS + `","datasetProperties":{"value":{"name":"late"},"headers":{"If-Version-Match":"-10000"}}}]`},
			{method: "POST", path: "/openapi/v1/trace/write/{trace}?detailed=true", body: `{"` + v3DS + `":["datasetProperties"]}`, before: tick},
			{method: "POST", path: "/openapi/v1/trace/write/{trace}", body: `{"` + v3DS + `":["datasetProperties"]}`},
			{method: "POST", path: "/openapi/v1/trace/write/00-{trace}-0000000000000001-01?onlyIncludeErrors=false", body: `{"` + v3DS + `":["datasetProperties","status"]}`},
			{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":"` + v3DS + `","datasetProperties":{"value":{"name":"newer"}}}]`, before: tick},
			{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":"` + v3DS + `","datasetProperties":{"value":{"name":"newest"}}}]`, keep: true},
			{method: "POST", path: "/openapi/v1/trace/write/{trace}?onlyIncludeErrors=false", body: `{"` + v3DS + `":["datasetProperties"]}`},
			{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":"` + v3DS2 + `","status":{"value":{"removed":false},"headers":{"X-DataHub-Sync-Index-Update":"true"}}}]`},
			{method: "POST", path: "/openapi/v1/trace/write/{trace}?onlyIncludeErrors=false", body: `{"` + v3DS2 + `":["status"]}`},
			{method: "POST", path: "/openapi/v1/trace/write/0000000000000000000000000000abcd?onlyIncludeErrors=false", body: `{"` + v3DS + `":["datasetProperties","datasetProfile"]}`},
		},
	}
}

// TestOpenAPIGolden pins every OpenAPI answer shape: the transcripts of
// testdata/openapi_*.txt, the same at the GMS address and under /api/gms.
func TestOpenAPIGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"writes", "errors", "reads", "deletes", "trace"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var got [2]string
			for i, prefix := range []string{"", frontPrefix} {
				clock := newFakeClock()
				// The goldens pin GMS's code defaults: no default aspects in the
				// answers, alternateMCPValidation off (an unknown member left out).
				s := newServer(t, WithClock(clock.Now), WithAsyncLag(time.Second), WithDefaultAspects(false), WithAlternateMCPValidation(false))
				got[i] = v3Transcript(t, s, prefix, v3Scenarios(clock)[name])
			}
			if got[0] != got[1] {
				t.Errorf("the front address answers differently from the GMS address")
			}
			golden(t, "openapi_"+name+".txt", []byte(got[0]))
		})
	}
}

// TestOpenAPIAuthFaultsConfig checks that the OpenAPI routes take the same
// token and faults as the Rest.li routes (a fault answers in the OpenAPI
// servlet's shape and changes nothing), and that GET /config reports the
// configured version with noCode the string "true".
func TestOpenAPIAuthFaultsConfig(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithToken("secret"), WithServerVersion("v1.2.0"))
	write := "/openapi/v3/entity/dataset?async=false"
	body := `[{"urn":"` + v3DS + `","status":{"value":{"removed":false}}}]`
	for _, prefix := range []string{"", frontPrefix} {
		if r := serve(t, s, "POST", prefix+write, body); r.Status != http.StatusUnauthorized {
			t.Errorf("%s without a token = %d %s", prefix, r.Status, r.Body)
		}
	}
	if err := s.Inject(Fault{Op: OpV3Write, Times: 1, Status: 503, RetryAfter: 2 * time.Second}); err != nil {
		t.Fatal(err)
	}
	r := serve(t, s, "POST", write, body, "Authorization", "Bearer secret")
	want := `{"error":"Injected fault (datahub-mock): 503 Service Unavailable"}`
	if r.Status != 503 || r.Body != want || r.Header.Get("Retry-After") != "2" || r.Header.Get("X-RestLi-Error-Response") != "" {
		t.Errorf("injected fault = %d %v %s, want 503 with Retry-After 2 and %s", r.Status, r.Header, r.Body, want)
	}
	if r := serve(t, s, "HEAD", "/openapi/v3/entity/dataset/"+v3DS, "", "Authorization", "Bearer secret"); r.Status != http.StatusNotFound {
		t.Errorf("HEAD after the failed write = %d, want 404", r.Status)
	}
	if r := serve(t, s, "POST", write, body, "Authorization", "Bearer secret"); r.Status != http.StatusOK {
		t.Errorf("write after the fault = %d %s", r.Status, r.Body)
	}
	if got := s.RequestCount(OpV3Write); got != 2 { // the two refused 401 are not counted
		t.Errorf("RequestCount(OpV3Write) = %d, want 2", got)
	}
	r = serve(t, s, "GET", "/config", "")
	if r.Status != 200 || !strings.Contains(r.Body, `"noCode":"true"`) || !strings.Contains(r.Body, `"acryldata/datahub":{"commit":"datahub-mock-`) ||
		!strings.Contains(r.Body, `"version":"v1.2.0"`) {
		t.Errorf("/config = %d %s", r.Status, r.Body)
	}
}
