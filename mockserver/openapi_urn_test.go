package mockserver

import (
	"net/http"
	"testing"
	"time"
)

// TestOpenAPIURNChecks pins the answers to URNs that GMS refuses, or that
// only the core refuses, at every place the OpenAPI entity API takes one
// (testdata/openapi_urns.txt): which check answers first when an item
// also has other faults, in which order, and with which text.
func TestOpenAPIURNChecks(t *testing.T) {
	t.Parallel()
	e := "/openapi/v3/entity"
	const (
		upper   = "urn:li:DATASET:(urn:li:dataPlatform:hive,db.t,PROD)"
		unknown = "urn:li:noSuchEntity:x"
		badKey  = "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,NOPE)"
		parts   = "urn:li:dataset:(urn:li:dataPlatform:hive,db.t)"
		bad     = "urn:li:dataset:bad"
		chart   = "urn:li:chart:(looker,c1)"
	)
	status := func(u, value string) string { return `{"urn":"` + u + `","status":{"value":` + value + `}}` }
	steps := []v3Step{
		{method: "POST", path: e + "/dataset?async=false", body: "[" + status(upper, `{"removed":false}`) + "]"},
		{method: "POST", path: e + "/dataset?async=false", body: "[" + status(unknown, `{"removed":false}`) + "]"},
		{method: "POST", path: e + "/dataset?async=false", body: "[" + status(badKey, `{"removed":false}`) + "]"},
		{method: "POST", path: e + "/dataset?async=false", body: "[" + status(parts, `{"removed":false}`) + "]"},
		{method: "POST", path: e + "/dataset?async=false", body: "[" + status(v3DS, `{"removed":false}`) + "," + status(badKey, `{"removed":false}`) + "," + status(upper, `{"removed":"no"}`) + "]"},
		{method: "POST", path: e + "/dataset?async=false", body: "[" + status(v3DS, `"x"`) + "," + status(bad, `{"removed":false}`) + "]"},
		{method: "POST", path: e + "/dataset?async=false", body: "[" + status(bad, `"x"`) + "," + status(v3DS, `"x"`) + "]"},
		{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":"` + bad + `","notAnAspect":{"value":{}}}]`},
		{method: "POST", path: e + "/dataset?async=false", body: `[{"urn":" ` + v3DS + `","status":{"value":{"removed":false}}}]`},
		{method: "PATCH", path: e + "/dataset?async=false", body: `[{"urn":"` + bad + `","globalTags":{"value":{"add":[]}}}]`},
		{method: "POST", path: e + "/generic?async=false", body: `{"dataset":[` + status(v3DS2, `{"removed":false}`) + `],"chart":[` + status(bad, `{}`) + `]}`},
		{method: "POST", path: e + "/dataset/" + chart + "/status?createIfNotExists=false", body: `{"value":{"removed":false}}`},
		{method: "POST", path: e + "/dataset/" + upper + "/status?createIfNotExists=false", body: `{"value":{"removed":false}}`},
		{method: "POST", path: e + "/dataset/" + badKey + "/status", body: `{"value":{"removed":false}}`},
		{method: "POST", path: e + "/dataset/" + bad + "/status", body: `not json`},
		{method: "PATCH", path: e + "/dataset/" + unknown + "/globalTags", body: `{"patch":[]}`},
		{method: "DELETE", path: e + "/dataset/" + bad},
		{method: "DELETE", path: e + "/dataset/" + badKey + "?aspects=status"},
		{method: "DELETE", path: e + "/dataset/" + unknown + "/status"},
		{method: "GET", path: e + "/dataset/" + upper},
		{method: "GET", path: e + "/dataset/" + badKey + "/status"},
		{method: "HEAD", path: e + "/dataset/" + bad},
		{method: "POST", path: e + "/dataset/batchGet", body: `[{"urn":"` + v3DS + `","status":{}},{"urn":"` + unknown + `"}]`},
		{method: "POST", path: e + "/dataset/batchGet", body: `[{"urn":"` + v3DS + `","status":{"headers":{"If-Version-Match":"one"}}}]`},
	}
	clock := newFakeClock()
	s := newServer(t, WithClock(clock.Now), WithAsyncLag(time.Second))
	golden(t, "openapi_urns.txt", []byte(v3Transcript(t, s, "", steps)))
}

// TestOpenAPIBatchGetVersionHeaderSpelling checks that a batchGet item
// naming If-Version-Match in two spellings reads the same version every
// time: the first spelling in key order, as the core reads the condition
// headers of a write (it once took whichever a map's iteration gave first).
func TestOpenAPIBatchGetVersionHeaderSpelling(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	write := "/openapi/v3/entity/dataset?async=false"
	for _, name := range []string{"first", "second"} {
		if r := serve(t, s, "POST", write, `[{"urn":"`+v3DS+`","datasetProperties":{"value":{"name":"`+name+`"}}}]`); r.Status != http.StatusOK {
			t.Fatalf("write %s = %d %s", name, r.Status, r.Body)
		}
	}
	body := `[{"urn":"` + v3DS + `","datasetProperties":{"headers":{"if-version-match":"1","IF-VERSION-MATCH":"x"}}}]`
	const want = `{"error":"For input string: \"x\""}` // "IF-VERSION-MATCH" < "if-version-match"
	for range 40 {
		r := serve(t, s, "POST", "/openapi/v3/entity/dataset/batchGet", body)
		if r.Status != http.StatusBadRequest || r.Body != want {
			t.Fatalf("batchGet = %d %s, want 400 %s", r.Status, r.Body, want)
		}
	}
}
