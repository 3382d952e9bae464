package mockserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/openapi"
)

// The URNs of the controller tests.
const (
	ctlJob   = "urn:li:dataJob:(urn:li:dataFlow:(airflow,flow1,PROD),job1)"
	ctlUser  = "urn:li:corpuser:alice"
	ctlTag   = "urn:li:tag:pii"
	ctlSet   = "urn:li:versionSet:(set1,dataset)"
	ctlModel = "urn:li:dataset:(urn:li:dataPlatform:hive,db.m1,PROD)"
	ctlModl2 = "urn:li:dataset:(urn:li:dataPlatform:hive,db.m2,PROD)"
)

// esc is a URN escaped as a path segment, as clients send it.
func esc(u string) string { return url.PathEscape(u) }

// TestOpenAPIControllers pins the wire of DataHub's OpenAPI controllers
// besides the v3 entity API (testdata/openapi_controllers.txt): each
// write followed by the reads that show its effect.
func TestOpenAPIControllers(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	s := newServer(t, WithClock(clock.Now), WithDefaultAspects(false)) // the aspects written only
	tick := func() { clock.Advance(time.Second) }
	schema := func(fields string) string {
		return `{"schemaName":"t","platform":"urn:li:dataPlatform:hive","version":0,"hash":"","platformSchema":{"com.linkedin.schema.MySqlDDL":{"tableSchema":""}},"fields":[` + fields + `]}`
	}
	field := func(path, native string) string {
		return `{"fieldPath":"` + path + `","nativeDataType":"` + native + `","type":{"type":{"com.linkedin.schema.StringType":{}}}}`
	}
	steps := []v3Step{
		// v2 entity: write, read, list, batch, aspect, delete.
		{method: "POST", path: "/openapi/v2/entity/dataset?async=false", body: `[{"urn":"` + v3DS + `","aspects":{"status":{"value":{"removed":false}},"globalTags":{"value":{"tags":[{"tag":"` + ctlTag + `"}]}}}}]`},
		{method: "GET", path: "/openapi/v2/entity/dataset/" + esc(v3DS)},
		{method: "GET", path: "/openapi/v2/entity/dataset/" + esc(v3DS) + "/globalTags?systemMetadata=false"},
		{method: "HEAD", path: "/openapi/v2/entity/dataset/" + esc(v3DS)},
		{method: "POST", path: "/openapi/v2/entity/dataset/" + esc(v3DS2) + "/status?createIfNotExists=false", body: `{"removed":false}`},
		{method: "GET", path: "/openapi/v2/entity/dataset?count=1&aspects=status"},
		{method: "POST", path: "/openapi/v2/entity/batch/dataset", body: `{"urns":["` + v3DS + `","` + v3DS2 + `"],"aspectNames":["status"],"withSystemMetadata":false}`},
		{method: "DELETE", path: "/openapi/v2/entity/dataset/" + esc(v3DS2)},
		{method: "GET", path: "/openapi/v2/entity/dataset/" + esc(v3DS2)},
		// entities v1.
		{method: "POST", path: "/openapi/entities/v1/", body: `[{"entityType":"dataset","entityUrn":"` + v3DS2 + `","aspect":{"__type":"DatasetProperties","name":"u","customProperties":{}}}]`},
		{method: "GET", path: "/openapi/entities/v1/latest?urns=" + url.QueryEscape(v3DS2) + "&aspectNames=datasetProperties"},
		{method: "DELETE", path: "/openapi/entities/v1/?urns=" + url.QueryEscape(v3DS2)},
		{method: "GET", path: "/openapi/v3/entity/dataset/" + esc(v3DS2) + "/status"},
		// platform entities, then counts.
		{method: "POST", path: "/openapi/v2/platform/entities/v1/?async=false", body: `[{"entityType":"dataJob","entityUrn":"` + ctlJob + `","changeType":"UPSERT","aspectName":"ownership","aspect":{"value":{"__type":"Ownership","owners":[{"owner":"` + ctlUser + `","type":"DATAOWNER"}]},"contentType":"application/json"}}]`},
		{method: "GET", path: "/openapi/v1/entities/counts?types=dataset&types=dataJob&includeTotal=true"},
		{method: "GET", path: "/openapi/v1/entities/dataset/count"},
		// relationships.
		{method: "POST", path: "/openapi/v3/entity/dataset?async=false", body: `[{"urn":"` + v3DS2 + `","status":{"value":{"removed":false}},"upstreamLineage":{"value":{"upstreams":[{"dataset":"` + v3DS + `","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:unknown"}}]}}}]`},
		{method: "GET", path: "/openapi/relationships/v1/?urn=" + url.QueryEscape(v3DS) + "&relationshipTypes=DownstreamOf&direction=INCOMING"},
		{method: "GET", path: "/openapi/relationships/v1/?urn=" + url.QueryEscape(ctlJob) + "&relationshipTypes=OwnedBy&direction=OUTGOING"},
		{method: "GET", path: "/openapi/v3/relationship/DownstreamOf"},
		{method: "GET", path: "/openapi/v2/relationship/dataset/" + esc(v3DS) + "?direction=INCOMING"},
		{method: "POST", path: "/openapi/v3/relationship/scroll?relationshipTypes=TaggedWith", body: `{"sourceFilter":{"or":[{"and":[{"field":"urn","value":"` + v3DS + `"}]}]}}`},
		{method: "POST", path: "/openapi/v3/lineage/scroll?direction=UPSTREAM", body: `{"urns":["` + v3DS2 + `"]}`},
		{method: "POST", path: "/openapi/v3/lineage/scroll?direction=UPSTREAM", body: `{"urns":["` + v3DS + `"]}`},
		// timeline from stored versions.
		{method: "POST", path: "/openapi/v3/entity/dataset/" + esc(v3DS) + "/schemaMetadata?createIfNotExists=false", body: `{"value":` + schema(field("a", "int")+","+field("b", "string")) + `}`, before: tick},
		{method: "POST", path: "/openapi/v3/entity/dataset/" + esc(v3DS) + "/schemaMetadata?createIfNotExists=false", body: `{"value":` + schema(field("a", "bigint")+","+field("c", "string")) + `}`, before: tick},
		{method: "GET", path: "/openapi/timeline/v1/" + esc(v3DS) + "?categories=TECHNICAL_SCHEMA&categories=TAG"},
		{method: "GET", path: "/openapi/v2/timeline/v1/" + esc(v3DS) + "?categories=OWNER"},
		// timeseries.
		{method: "POST", path: "/openapi/v3/entity/dataset?async=false", body: `[{"urn":"` + v3DS + `","datasetProfile":{"value":{"timestampMillis":1000,"rowCount":1}}},{"urn":"` + v3DS2 + `","datasetProfile":{"value":{"timestampMillis":2000,"rowCount":2}}}]`},
		{method: "GET", path: "/openapi/v2/timeseries/dataset/datasetProfile?count=1"},
		{method: "GET", path: "/openapi/v2/timeseries/dataset/datasetProfile?count=1&scrollId=ZWRnZXM6MQ"},
		{method: "DELETE", path: "/openapi/v3/entity/dataset/" + esc(v3DS2) + "/datasetProfile"},
		{method: "GET", path: "/openapi/v2/timeseries/dataset/datasetProfile"},
		// the registry.
		{method: "GET", path: "/openapi/v1/registry/models/entity/specifications?start=0&count=1"},
		{method: "GET", path: "/openapi/v1/registry/models/aspect/specifications/status"},
		{method: "GET", path: "/openapi/v1/registry/models/entity/specifications/noSuchEntity"},
		{method: "GET", path: "/openapi/v1/registry/lineage/edges/dataJob/UPSTREAM"},
		{method: "GET", path: "/openapi/v1/registry/lineage/specifications/dataset"},
		// OpenLineage.
		{method: "POST", path: "/openapi/openlineage/api/v1/lineage", body: `{"eventType":"START","eventTime":"2020-12-28T19:52:00.001+10:00","run":{"runId":"d46e465b-d358-4d32-83d4-df660ff614dd"},"job":{"namespace":"workshop","name":"process_taxes"},"inputs":[{"namespace":"postgres://workshop-db:None","name":"workshop.public.taxes"}],"producer":"https://github.com/OpenLineage/OpenLineage/blob/v1-0-0/client"}`},
		{method: "GET", path: "/openapi/v3/entity/dataJob/" + esc("urn:li:dataJob:(urn:li:dataFlow:(client,process_taxes,workshop),process_taxes)")},
		// versioning is off by default.
		{method: "POST", path: "/openapi/v3/entity/versioning/" + esc(ctlSet) + "/relationship/versionOf/" + esc(ctlModel), body: `{"version":"1"}`},
		// escapes that are not UTF-8.
		{method: "GET", path: "/openapi/v3/entity/dataset/urn%3Ali%3Acorpuser%3A%FF"},
	}
	golden(t, "openapi_controllers.txt", []byte(v3Transcript(t, s, "", steps)))
}

// TestOpenAPIVersioning links two versions to a version set and unlinks
// the latest: the one before becomes the set's latest (the routes answer
// 500 without WithEntityVersioning, see TestOpenAPIControllers).
func TestOpenAPIVersioning(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithEntityVersioning(true))
	link := func(u, v string) response {
		return serve(t, s, "POST", "/openapi/v3/entity/versioning/"+esc(ctlSet)+"/relationship/versionOf/"+esc(u), `{"version":"`+v+`","comment":"c"}`)
	}
	for i, u := range []string{ctlModel, ctlModl2} {
		if r := link(u, itoa(i+1)); r.Status != http.StatusOK || !strings.Contains(r.Body, `"versionProperties"`) {
			t.Fatalf("link %s = %d %s", u, r.Status, r.Body)
		}
	}
	if r := link(ctlModl2, "2"); r.Status != http.StatusOK || r.Body != "[]" {
		t.Fatalf("link again = %d %s, want 200 []", r.Status, r.Body)
	}
	latest := func() string {
		r := serve(t, s, "GET", "/openapi/v3/entity/versionSet/"+esc(ctlSet)+"/versionSetProperties", "")
		var a struct {
			Value struct{ Latest string } `json:"value"`
		}
		_ = json.Unmarshal([]byte(r.Body), &a)
		return a.Value.Latest
	}
	if got := latest(); got != ctlModl2 {
		t.Fatalf("latest = %q, want %s", got, ctlModl2)
	}
	r := serve(t, s, "GET", "/openapi/v3/entity/dataset/"+esc(ctlModl2)+"/versionProperties", "")
	if !strings.Contains(r.Body, `"sortId":"AAAAAAAB"`) {
		t.Fatalf("second version's properties = %s, want sortId AAAAAAAB", r.Body)
	}
	r = serve(t, s, "DELETE", "/openapi/v3/entity/versioning/"+esc(ctlSet)+"/relationship/versionOf/"+esc(ctlModl2), "")
	if r.Status != http.StatusOK || r.Body != `["`+ctlModl2+`"]` {
		t.Fatalf("unlink = %d %s", r.Status, r.Body)
	}
	if got := latest(); got != ctlModel {
		t.Fatalf("latest after unlink = %q, want %s", got, ctlModel)
	}
	r = serve(t, s, "DELETE", "/openapi/v3/entity/versioning/"+esc(ctlSet)+"/relationship/versionOf/"+esc(ctlModel), "")
	if r.Status != http.StatusOK || !strings.Contains(r.Body, ctlSet) {
		t.Fatalf("unlink last = %d %s, want the set deleted too", r.Status, r.Body)
	}
}

// TestOpenAPIEventsPoll polls the MetadataChangeLog topic: the first poll
// starts at the topic's end, a write after it shows in the next poll from
// the offset it gave, and the offset after that page is empty.
func TestOpenAPIEventsPoll(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	poll := func(offset string) (string, []string) {
		t.Helper()
		q := "/openapi/v1/events/poll?topic=MetadataChangeLog_Versioned_v1"
		if offset != "" {
			q += "&offsetId=" + url.QueryEscape(offset)
		}
		r := serve(t, s, "GET", q, "")
		if r.Status != http.StatusOK {
			t.Fatalf("poll = %d %s", r.Status, r.Body)
		}
		var page struct {
			OffsetID string `json:"offsetId"`
			Count    int    `json:"count"`
			Events   []struct{ Value string }
		}
		if err := json.Unmarshal([]byte(r.Body), &page); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range page.Events {
			out = append(out, e.Value)
		}
		return page.OffsetID, out
	}
	serve(t, s, "POST", "/openapi/v3/entity/dataset?async=false", `[{"urn":"`+v3DS+`","status":{"value":{"removed":false}}}]`)
	off, evs := poll("")
	if len(evs) != 0 {
		t.Fatalf("first poll = %v, want none (it starts at the end)", evs)
	}
	serve(t, s, "POST", "/openapi/v3/entity/dataset?async=false", `[{"urn":"`+v3DS+`","status":{"value":{"removed":true}}}]`)
	off, evs = poll(off)
	if len(evs) != 1 || !strings.Contains(evs[0], `"aspectName":"status"`) || !strings.Contains(evs[0], `{\"removed\":true}`) {
		t.Fatalf("poll after a write = %v", evs)
	}
	if _, evs = poll(off); len(evs) != 0 {
		t.Fatalf("poll after the page = %v, want none", evs)
	}
	r := serve(t, s, "GET", "/openapi/v1/events/poll?topic=NoSuchTopic", "")
	if r.Status != http.StatusInternalServerError || !strings.Contains(r.Body, "errorMessage") {
		t.Fatalf("unknown topic = %d %s", r.Status, r.Body)
	}
}

// TestOpenAPIV3ReadsByURNType reads and deletes through an {entityName}
// that is not the URN's type, as DataHub does (the mock answered 400
// "Failed to find entity with name" before).
func TestOpenAPIV3ReadsByURNType(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	serve(t, s, "POST", "/openapi/v3/entity/dataset?async=false", `[{"urn":"`+v3DS+`","status":{"value":{"removed":false}}}]`)
	for _, p := range []string{"/openapi/v3/entity/anything/" + esc(v3DS), "/openapi/v3/entity/chart/" + esc(v3DS) + "/status"} {
		if r := serve(t, s, "GET", p, ""); r.Status != http.StatusOK || !strings.Contains(r.Body, `"removed":false`) {
			t.Errorf("GET %s = %d %s", p, r.Status, r.Body)
		}
	}
	if r := serve(t, s, "DELETE", "/openapi/v3/entity/whatever/"+esc(v3DS), ""); r.Status != http.StatusOK {
		t.Fatalf("DELETE = %d %s", r.Status, r.Body)
	}
	if r := serve(t, s, "GET", "/openapi/v3/entity/dataset/"+esc(v3DS), ""); r.Status != http.StatusNotFound {
		t.Fatalf("GET after DELETE = %d %s, want 404", r.Status, r.Body)
	}
}

// TestOpenAPIBadPathEncoding sends paths whose escapes are not UTF-8 to
// OpenAPI routes: 400 (before, the v3 routes took them as URNs).
func TestOpenAPIBadPathEncoding(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for _, p := range []string{"/openapi/v3/entity/dataset/urn%3Ali%3Acorpuser%3A%C3%28", "/openapi/v2/entity/dataset/urn:li:corpuser:%FF", "/openapi/timeline/v1/urn:li:corpuser:%FE?categories=TAG"} {
		if r := serve(t, s, "GET", p, ""); r.Status != http.StatusBadRequest {
			t.Errorf("GET %s = %d %s, want 400", p, r.Status, r.Body)
		}
	}
}

// TestOpenAPIDeleteTimeseriesAspect deletes a timeseries aspect: the
// entity's latest document goes, with every document of the type at the
// same time (DataHub's filter names the time only); older ones stay.
func TestOpenAPIDeleteTimeseriesAspect(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	doc := func(u string, ts int) string {
		return `{"urn":"` + u + `","datasetProfile":{"value":{"timestampMillis":` + itoa(ts) + `,"rowCount":` + itoa(ts) + `}}}`
	}
	serve(t, s, "POST", "/openapi/v3/entity/dataset?async=false", "["+doc(v3DS, 1000)+","+doc(v3DS, 2000)+","+doc(v3DS2, 2000)+","+doc(v3DS2, 3000)+"]")
	if r := serve(t, s, "DELETE", "/openapi/v3/entity/dataset/"+esc(v3DS)+"/datasetProfile", ""); r.Status != http.StatusOK {
		t.Fatalf("DELETE = %d %s", r.Status, r.Body)
	}
	for u, want := range map[string]string{v3DS: `"timestampMillis":1000`, v3DS2: `"timestampMillis":3000`} {
		r := serve(t, s, "GET", "/openapi/v3/entity/dataset/"+esc(u)+"/datasetProfile", "")
		if r.Status != http.StatusOK || !strings.Contains(r.Body, want) {
			t.Errorf("latest datasetProfile of %s = %d %s, want %s", u, r.Status, r.Body, want)
		}
	}
	r := serve(t, s, "GET", "/openapi/v3/entity/dataset/"+esc(v3DS2)+"/datasetProfile?version=2000", "")
	if r.Status != http.StatusNotFound {
		t.Errorf("%s's document at 2000 = %d %s, want it deleted (404)", v3DS2, r.Status, r.Body)
	}
}

// TestOpenAPIRouteWalk sends a request to every route of DataHub's
// OpenAPI controllers the mock serves (the v3 entity routes and
// openapi.Routes, with their @RequestMapping paths) and checks that none
// answers 404 "No endpoint" or 501.
func TestOpenAPIRouteWalk(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithEntityVersioning(true))
	fill := strings.NewReplacer(
		"{entityName}", "dataset", "{urn}", esc(v3DS), "{aspectName}", "status", "{relationshipType}", "DownstreamOf",
		"{entityType}", "dataset", "{direction}", "UPSTREAM", "{versionSetUrn}", esc(ctlSet), "{entityUrn}", esc(ctlModel),
		"{traceId}", "00000000000000000000000000000000",
	)
	bodies := map[string]string{
		"/openapi/v2/entity/batch/{entityName}":              `{"urns":[],"aspectNames":[],"withSystemMetadata":false}`,
		"/openapi/v2/entity/{entityName}":                    `[]`,
		"/openapi/entities/v1/":                              `[]`,
		"/openapi/v2/platform/entities/v1/":                  `[]`,
		"/openapi/openlineage/api/v1/lineage":                `{"eventType":"START","run":{"runId":"r1"},"job":{"namespace":"n","name":"j"},"producer":"https://github.com/apache/airflow/x"}`,
		"/openapi/v3/lineage/scroll":                         `{"urns":[]}`,
		"/openapi/v2/relationship/scroll":                    `{}`,
		"/openapi/v3/relationship/scroll":                    `{}`,
		"/openapi/v2/entity/{entityName}/{urn}/{aspectName}": `{"removed":false}`,
	}
	query := map[string]string{
		"/openapi/relationships/v1/":    "?urn=" + url.QueryEscape(v3DS) + "&relationshipTypes=DownstreamOf&direction=INCOMING",
		"/openapi/relationships/v1":     "?urn=" + url.QueryEscape(v3DS) + "&relationshipTypes=DownstreamOf&direction=INCOMING",
		"/openapi/entities/v1/latest":   "?urns=" + url.QueryEscape(v3DS),
		"/openapi/timeline/v1/{urn}":    "?categories=TAG",
		"/openapi/v2/timeline/v1/{urn}": "?categories=TAG",
		"/openapi/v1/events/poll":       "?topic=PlatformEvent_v1",
	}
	type route struct{ method, pattern string }
	var routes []route
	for _, r := range v3Routes {
		routes = append(routes, route{r.method, shapePaths[r.shape]})
	}
	for _, r := range openapi.Routes {
		routes = append(routes, route{r.Method, r.Pattern})
	}
	for _, rt := range routes {
		body := bodies[rt.pattern]
		if body == "" && (rt.method == "POST" || rt.method == "PATCH") {
			body = `{}`
		}
		if rt.pattern == shapePaths[openapi.ShapeEntityType] && rt.method != "GET" {
			body = `[]`
		}
		path := fill.Replace(rt.pattern) + query[rt.pattern]
		r := serve(t, s, rt.method, path, body)
		if r.Status == http.StatusNotImplemented || r.Status == http.StatusNotFound && strings.Contains(r.Body, "No endpoint") || r.Status == http.StatusMethodNotAllowed {
			t.Errorf("%s %s = %d %s", rt.method, path, r.Status, r.Body)
		}
	}
}

// TestOpenAPIListQuerySort lists with a query, a filter and sort criteria,
// a page at a time (the mock ignored sortCriteria and refused query with
// 501 before, and its scroll refused filters and sort criteria).
func TestOpenAPIListQuerySort(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	var items []string
	for i, name := range []string{"gamma", "alpha", "beta"} {
		u := "urn:li:dataset:(urn:li:dataPlatform:hive,db.q" + itoa(i) + ",PROD)"
		items = append(items, `{"urn":"`+u+`","datasetProperties":{"value":{"name":"`+name+`","description":"rows `+itoa(10*(i+1))+`"}}}`)
	}
	items = append(items, `{"urn":"urn:li:dataset:(urn:li:dataPlatform:kafka,topic.q,PROD)","datasetProperties":{"value":{"name":"delta"}}}`)
	if r := serve(t, s, "POST", "/openapi/v3/entity/dataset?async=false", "["+strings.Join(items, ",")+"]"); r.Status != http.StatusOK {
		t.Fatalf("write = %d %s", r.Status, r.Body)
	}
	names := func(body string) []string {
		t.Helper()
		var page struct {
			ScrollID string `json:"scrollId"`
			Entities []struct {
				Props *struct {
					Value struct{ Name string } `json:"value"`
				} `json:"datasetProperties"`
			} `json:"entities"`
		}
		if err := json.Unmarshal([]byte(body), &page); err != nil {
			t.Fatal(err, body)
		}
		var out []string
		for _, e := range page.Entities {
			out = append(out, e.Props.Value.Name)
		}
		if page.ScrollID != "" {
			out = append(out, "→"+page.ScrollID)
		}
		return out
	}
	list := "/openapi/v3/entity/dataset?aspects=datasetProperties"
	cases := []struct {
		method, path, body string
		want               string
	}{
		{"GET", list + "&sortCriteria=name", "", "alpha beta delta gamma"},
		{"GET", list + "&sortCriteria=name&sortOrder=DESCENDING", "", "gamma delta beta alpha"},
		{"GET", list + "&query=beta", "", "beta"},
		{"POST", "/openapi/v3/entity/scroll?count=10", `{"entities":["dataset"],"aspects":["datasetProperties"],"filter":{"or":[{"and":[{"field":"platform","values":["urn:li:dataPlatform:hive"]}]}]},"sortCriteria":[{"field":"name","order":"DESCENDING"}]}`, "gamma beta alpha"},
		{"POST", "/openapi/v3/entity/scroll", `{"entities":["dataset"],"aspects":["datasetProperties"],"filter":{"or":[{"and":[{"field":"platform","values":["urn:li:dataPlatform:hive"],"negated":true}]}]}}`, "delta"},
	}
	for _, c := range cases {
		r := serve(t, s, c.method, c.path, c.body)
		if got := strings.Join(names(r.Body), " "); r.Status != http.StatusOK || got != c.want {
			t.Errorf("%s %s %s = %d %s, want %s", c.method, c.path, c.body, r.Status, got, c.want)
		}
	}
	// Pages of one, sorted by name: each page continues the last.
	var got []string
	next := ""
	for range 5 {
		p := list + "&sortCriteria=name&count=1"
		if next != "" {
			p += "&scrollId=" + url.QueryEscape(next)
		}
		r := serve(t, s, "GET", p, "")
		page := names(r.Body)
		next = ""
		if n := len(page); n > 0 && strings.HasPrefix(page[n-1], "→") {
			next = strings.TrimPrefix(page[n-1], "→")
			page = page[:n-1]
		}
		got = append(got, page...)
		if next == "" {
			break
		}
	}
	if strings.Join(got, " ") != "alpha beta delta gamma" {
		t.Fatalf("pages = %v", got)
	}
}

// TestOpenAPIV2AsyncWrite checks the answer of an async v2 batch write:
// 202 naming the entities only, as DataHub's fixtures show it.
func TestOpenAPIV2AsyncWrite(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	r := serve(t, s, "POST", "/openapi/v2/entity/dataset", `[{"urn":"`+v3DS+`","aspects":{"status":{"value":{"removed":false}}}}]`)
	if want := `[{"urn":"` + v3DS + `"}]`; r.Status != http.StatusAccepted || r.Body != want {
		t.Fatalf("async v2 write = %d %s, want 202 %s", r.Status, r.Body, want)
	}
}
