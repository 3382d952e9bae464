package mockserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// emitMCEBody is the body DataHub's Python emitter (DatahubRestEmitter.
// emit_mce) posts to /entities?action=ingest: the snapshot's to_obj() after
// pre_json_transform, its aspects keyed by their record names, and the
// systemMetadata ensure_has_system_metadata fills in.
const emitMCEBody = `{"entity": {"value": {"com.linkedin.metadata.snapshot.DatasetSnapshot": {` +
	`"urn": "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)", "aspects": [` +
	`{"com.linkedin.dataset.DatasetProperties": {"customProperties": {"team": "core"}, "description": "from an MCE", "tags": []}}, ` +
	`{"com.linkedin.common.Ownership": {"owners": [{"owner": "urn:li:corpuser:jdoe", "type": "DATAOWNER"}], ` +
	`"ownerTypes": {}, "lastModified": {"time": 0, "actor": "urn:li:corpuser:unknown"}}}, ` +
	`{"com.linkedin.common.Status": {"removed": false}}]}}}, ` +
	`"systemMetadata": {"lastObserved": 1700000000000, "runId": "mce-run", "properties": {"clientId": "acryl-datahub", "clientVersion": "1.3.0"}}}`

// aspectValue reads an aspect through GET /aspects and returns its value,
// or "" when there is none.
func aspectValue(t *testing.T, s http.Handler, urn, aspect string) string {
	t.Helper()
	r := serve(t, s, http.MethodGet, "/aspects/"+url.PathEscape(urn)+"?aspect="+aspect, "")
	if r.Status == http.StatusNotFound {
		return ""
	}
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s %s = %d %s", urn, aspect, r.Status, r.Body)
	}
	var va struct {
		Aspect map[string]json.RawMessage `json:"aspect"`
	}
	if err := json.Unmarshal([]byte(r.Body), &va); err != nil {
		t.Fatal(err)
	}
	for _, v := range va.Aspect {
		return string(v)
	}
	return ""
}

// TestEmitMCE sends an MCE exactly as DataHub's Python emit_mce does and
// reads the aspects back: one version each, with the MCE's systemMetadata.
func TestEmitMCE(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	r := serve(t, s, http.MethodPost, "/entities?action=ingest", emitMCEBody)
	if r.Status != http.StatusOK || r.Body != "" {
		t.Fatalf("ingest = %d %q, want 200 without a body", r.Status, r.Body)
	}
	if got := aspectValue(t, s, dsURN, "datasetProperties"); !strings.Contains(got, `"description":"from an MCE"`) {
		t.Errorf("datasetProperties = %s", got)
	}
	if got := aspectValue(t, s, dsURN, "ownership"); !strings.Contains(got, `"urn:li:corpuser:jdoe"`) {
		t.Errorf("ownership = %s", got)
	}
	a, err := s.core.LoadAspect(t.Context(), dsURN, "datasetProperties", 0)
	if err != nil {
		t.Fatal(err)
	}
	var sm struct {
		RunID        string            `json:"runId"`
		LastObserved int64             `json:"lastObserved"`
		Properties   map[string]string `json:"properties"`
	}
	if err := json.Unmarshal(a.SystemMetadata, &sm); err != nil {
		t.Fatal(err)
	}
	if sm.RunID != "mce-run" || sm.LastObserved != 1700000000000 || sm.Properties["clientId"] != "acryl-datahub" {
		t.Errorf("systemMetadata = %s", a.SystemMetadata)
	}
	// The entity reads back as its snapshot, the key aspect included.
	r = serve(t, s, http.MethodGet, "/entities/"+dsPath+"?aspects=List(datasetProperties)", "")
	want := `{"value":{"com.linkedin.metadata.snapshot.DatasetSnapshot":{"urn":"` + dsURN + `","aspects":[` +
		`{"com.linkedin.metadata.key.DatasetKey":{"platform":"urn:li:dataPlatform:hive","name":"db.t","origin":"PROD"}},` +
		`{"com.linkedin.dataset.DatasetProperties":{"customProperties":{"team":"core"},"description":"from an MCE","tags":[]}}]}}}`
	if r.Status != http.StatusOK || r.Body != want {
		t.Errorf("GET /entities = %d\n%s\nwant\n%s", r.Status, r.Body, want)
	}
}

// TestIngestMCERefusals checks the refusals of a snapshot: nothing is
// written when one aspect is not in the snapshot's union.
func TestIngestMCERefusals(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for _, tc := range []struct{ name, body, msg string }{
		{"unknown snapshot", `{"entity":{"value":{"com.linkedin.metadata.snapshot.NopeSnapshot":{"urn":"` + dsURN + `","aspects":[]}}}}`,
			"Unknown snapshot com.linkedin.metadata.snapshot.NopeSnapshot"},
		{"aspect outside the union", `{"entity":{"value":{"com.linkedin.metadata.snapshot.DatasetSnapshot":{"urn":"` + dsURN + `","aspects":[` +
			`{"com.linkedin.common.Status":{"removed":false}},{"com.linkedin.chart.ChartInfo":{"title":"x","description":"","lastModified":{}}}]}}}}`,
			"com.linkedin.chart.ChartInfo (aspects[1]) is not an aspect of com.linkedin.metadata.snapshot.DatasetSnapshot"},
		{"invalid aspect", `{"entity":{"value":{"com.linkedin.metadata.snapshot.DatasetSnapshot":{"urn":"` + dsURN + `","aspects":[` +
			`{"com.linkedin.common.Status":{"removed":"no"}}]}}}}`, "removed"},
		{"lengths differ", ``, "entities and systemMetadata length must match"},
	} {
		path, body := "/entities?action=ingest", tc.body
		if tc.body == "" {
			path, body = "/entities?action=batchIngest", `{"entities":[],"systemMetadata":[{}]}`
		}
		r := serve(t, s, http.MethodPost, path, body)
		if r.Status < 400 || !strings.Contains(r.Body, tc.msg) {
			t.Errorf("%s: %d %s, want a refusal with %q", tc.name, r.Status, r.Body, tc.msg)
		}
	}
	if got := aspectValue(t, s, dsURN, "status"); got != "" {
		t.Errorf("a refused snapshot wrote status %s", got)
	}
}

// ingestRun writes one aspect through ingestProposal with run id runID.
func ingestRun(t *testing.T, s http.Handler, urn, aspect, value, runID string) {
	t.Helper()
	p := mcp(strings.Split(strings.TrimPrefix(urn, "urn:li:"), ":")[0], urn, "UPSERT", aspect, value)
	p["systemMetadata"] = map[string]any{"runId": runID, "lastObserved": 1}
	if r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", ingestBody(t, p, "")); r.Status != http.StatusOK {
		t.Fatalf("ingest %s %s: %d %s", urn, aspect, r.Status, r.Body)
	}
}

// rollbackAnswer is the part of a RollbackResponse the tests read.
type rollbackAnswer struct {
	Value struct {
		EntitiesAffected, AspectsReverted, EntitiesDeleted, UnsafeEntitiesCount int64
		AspectRowSummaries                                                      []struct {
			URN, AspectName string
			KeyAspect       bool
		}
	}
}

// TestRollbackRun checks datahub ingest rollback's semantics: the aspects
// a run wrote last go back to the version before it, aspects only it wrote
// go, and an entity it created is soft-deleted (safe) or deleted (nuke).
func TestRollbackRun(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithDefaultAspects(false)) // the aspects the run wrote only
	other := "urn:li:dataset:(urn:li:dataPlatform:hive,db.other,PROD)"
	ingestRun(t, s, dsURN, "datasetProperties", `{"description":"first"}`, "run-a")
	ingestRun(t, s, dsURN, "datasetProperties", `{"description":"second"}`, "run-b")
	ingestRun(t, s, dsURN, "globalTags", `{"tags":[{"tag":"urn:li:tag:t"}]}`, "run-b")
	ingestRun(t, s, other, "datasetProperties", `{"description":"made by b"}`, "run-b")

	r := serve(t, s, http.MethodPost, "/runs?action=list", `{}`)
	var runs struct {
		Value []struct {
			RunID string
			Rows  int64
		}
	}
	if err := json.Unmarshal([]byte(r.Body), &runs); err != nil || len(runs.Value) != 2 {
		t.Fatalf("runs list = %d %s", r.Status, r.Body)
	}
	r = serve(t, s, http.MethodPost, "/runs?action=describe", `{"runId":"run-b","start":0,"count":10,"includeAspect":true}`)
	if !strings.Contains(r.Body, `"aspectName":"globalTags"`) || !strings.Contains(r.Body, `"aspect":{"tags"`) {
		t.Errorf("describe run-b = %d %s", r.Status, r.Body)
	}

	// A dry run changes nothing.
	r = serve(t, s, http.MethodPost, "/runs?action=rollback", `{"runId":"run-b","dryRun":true,"safe":true}`)
	if r.Status != http.StatusOK {
		t.Fatalf("dry rollback = %d %s", r.Status, r.Body)
	}
	if got := aspectValue(t, s, dsURN, "datasetProperties"); !strings.Contains(got, "second") {
		t.Fatalf("a dry run changed datasetProperties to %s", got)
	}

	r = serve(t, s, http.MethodPost, "/runs?action=rollback", `{"runId":"run-b","dryRun":false,"safe":true}`)
	var ans rollbackAnswer
	if err := json.Unmarshal([]byte(r.Body), &ans); err != nil || r.Status != http.StatusOK {
		t.Fatalf("rollback = %d %s", r.Status, r.Body)
	}
	if got := aspectValue(t, s, dsURN, "datasetProperties"); !strings.Contains(got, `"first"`) {
		t.Errorf("after the rollback datasetProperties = %s, want the version before run-b", got)
	}
	if got := aspectValue(t, s, dsURN, "globalTags"); got != "" {
		t.Errorf("after the rollback globalTags = %s, want none", got)
	}
	// run-b created the other dataset: a safe rollback soft-deletes it.
	if got := aspectValue(t, s, other, "status"); got != `{"removed":true}` {
		t.Errorf("the entity run-b created has status %q, want removed", got)
	}
	if ans.Value.EntitiesDeleted != 1 || ans.Value.AspectsReverted != 3 {
		t.Errorf("rollback answer = %+v, want 1 entity deleted and 3 aspects reverted", ans.Value)
	}
	// Rolled back twice: nothing left to do.
	r = serve(t, s, http.MethodPost, "/runs?action=rollback", `{"runId":"run-b"}`)
	if err := json.Unmarshal([]byte(r.Body), &ans); err != nil || ans.Value.AspectsReverted != 0 {
		t.Errorf("second rollback = %d %s", r.Status, r.Body)
	}

	// A hard rollback of the run that created dsURN deletes it.
	r = serve(t, s, http.MethodPost, "/runs?action=rollback", `{"runId":"run-a","safe":false}`)
	if r.Status != http.StatusOK {
		t.Fatalf("hard rollback = %d %s", r.Status, r.Body)
	}
	if r := serve(t, s, http.MethodPost, "/entities?action=exists", `{"urn":"`+dsURN+`"}`); r.Body != `{"value":false}` {
		t.Errorf("after a hard rollback exists = %s", r.Body)
	}
	// The default run id cannot be rolled back.
	wantRestliError(t, serve(t, s, http.MethodPost, "/runs?action=rollback", `{"runId":"no-run-id-provided"}`), 400,
		"no-run-id-provided is a default run-id provided for non labeled ingestion runs")
}

// TestExistsAndCounts checks exists, filterExistingUrns, the entity counts
// and listUrns after writes and a soft delete.
func TestExistsAndCounts(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	second := "urn:li:dataset:(urn:li:dataPlatform:hive,db.two,PROD)"
	missing := "urn:li:dataset:(urn:li:dataPlatform:hive,db.none,PROD)"
	ingestRun(t, s, dsURN, "status", `{"removed":false}`, "r")
	ingestRun(t, s, second, "status", `{"removed":true}`, "r")
	for _, tc := range []struct{ body, want string }{
		{`{"urn":"` + dsURN + `"}`, `{"value":true}`},
		{`{"urn":"` + missing + `"}`, `{"value":false}`},
		{`{"urn":"` + second + `"}`, `{"value":true}`},
		{`{"urn":"` + second + `","includeSoftDelete":false}`, `{"value":false}`},
	} {
		if r := serve(t, s, http.MethodPost, "/entities?action=exists", tc.body); r.Body != tc.want {
			t.Errorf("exists %s = %d %s, want %s", tc.body, r.Status, r.Body, tc.want)
		}
	}
	r := serve(t, s, http.MethodPost, "/entities?action=filterExistingUrns",
		`{"request":{"urns":["`+missing+`","`+second+`","`+dsURN+`"],"includeSoftDelete":false}}`)
	if want := `{"value":["` + dsURN + `"]}`; r.Body != want {
		t.Errorf("filterExistingUrns = %s, want %s", r.Body, want)
	}
	r = serve(t, s, http.MethodPost, "/entities?action=batchGetTotalEntityCount", `{"entities":["dataset","chart"]}`)
	if want := `{"value":{"chart":0,"dataset":1}}`; r.Body != want {
		t.Errorf("batchGetTotalEntityCount = %s, want %s (the soft-deleted one left out)", r.Body, want)
	}
	r = serve(t, s, http.MethodPost, "/entities?action=listUrns", `{"entity":"dataset","start":0,"count":1}`)
	var page struct{ Value listAnswer }
	if err := json.Unmarshal([]byte(r.Body), &page); err != nil || page.Value.Total != 2 || len(page.Value.Entities) != 1 {
		t.Errorf("listUrns = %d %s, want 1 of 2", r.Status, r.Body)
	}
}

type listAnswer struct {
	Entities            []string
	Start, Count, Total int
}

// TestRelationships checks the graph read from the aspects' relationship
// fields, both ways, and its removal by DELETE.
func TestRelationships(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	s := newServer(t, WithClock(clock.Now))
	up := "urn:li:dataset:(urn:li:dataPlatform:hive,db.up,PROD)"
	ingestRun(t, s, up, "status", `{"removed":false}`, "r")
	ingestRun(t, s, dsURN, "ownership", `{"owners":[{"owner":"urn:li:corpuser:jdoe","type":"DATAOWNER"}],"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`, "r")
	ingestRun(t, s, dsURN, "upstreamLineage", `{"upstreams":[{"dataset":"`+up+`","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}]}`, "r")
	get := func(urn, types, dir string) string {
		return serve(t, s, http.MethodGet, "/relationships?urn="+url.QueryEscape(urn)+"&types=List("+types+")&direction="+dir, "").Body
	}
	if got, want := get(dsURN, "OwnedBy", "OUTGOING"), `{"start":0,"count":1,"total":1,"relationships":[{"type":"OwnedBy","entity":"urn:li:corpuser:jdoe"}]}`; got != want {
		t.Errorf("outgoing OwnedBy = %s, want %s", got, want)
	}
	if got, want := get(up, "DownstreamOf", "INCOMING"), `{"start":0,"count":1,"total":1,"relationships":[{"type":"DownstreamOf","entity":"`+dsURN+`"}]}`; got != want {
		t.Errorf("incoming DownstreamOf = %s, want %s", got, want)
	}
	r := serve(t, s, http.MethodPost, "/relationships?action=getLineage", `{"urn":"`+dsURN+`","direction":"UPSTREAM"}`)
	if !strings.Contains(r.Body, `"entity":"`+up+`"`) || !strings.Contains(r.Body, `"type":"DownstreamOf"`) {
		t.Errorf("getLineage = %d %s", r.Status, r.Body)
	}
	clock.Advance(time.Second)
	if r := serve(t, s, http.MethodDelete, "/relationships?urn="+url.QueryEscape(dsURN), ""); r.Status != http.StatusOK {
		t.Fatalf("DELETE = %d %s", r.Status, r.Body)
	}
	if got := get(dsURN, "OwnedBy", "OUTGOING"); !strings.Contains(got, `"total":0`) {
		t.Errorf("after DELETE outgoing = %s, want none", got)
	}
	clock.Advance(time.Second)
	ingestRun(t, s, dsURN, "ownership", `{"owners":[{"owner":"urn:li:corpuser:jane","type":"DATAOWNER"}],"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`, "r")
	if got := get(dsURN, "OwnedBy", "OUTGOING"); !strings.Contains(got, "urn:li:corpuser:jane") {
		t.Errorf("a write after DELETE brings its edges back: %s", got)
	}
}

// TestUsageStats writes usage buckets and queries them back.
func TestUsageStats(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	day := int64(1700006400000) // 2023-11-15T00:00:00Z
	body := `{"buckets":[` +
		`{"bucket":` + itoa(int(day)) + `,"duration":"DAY","resource":"` + dsURN + `","metrics":{"uniqueUserCount":2,"totalSqlQueries":5,` +
		`"users":[{"user":"urn:li:corpuser:a","count":3},{"user":"urn:li:corpuser:b","count":2}],"fields":[{"fieldName":"id","count":4}]}},` +
		`{"bucket":` + itoa(int(day+86400000)) + `,"duration":"DAY","resource":"` + dsURN + `","metrics":{"uniqueUserCount":1,"totalSqlQueries":1,` +
		`"users":[{"user":"urn:li:corpuser:a","count":1}]}}]}`
	if r := serve(t, s, http.MethodPost, "/usageStats?action=batchIngest", body); r.Status != http.StatusOK {
		t.Fatalf("batchIngest = %d %s", r.Status, r.Body)
	}
	r := serve(t, s, http.MethodPost, "/usageStats?action=query", `{"resource":"`+dsURN+`","duration":"DAY"}`)
	var got struct {
		Value struct {
			Buckets []struct {
				Bucket  int64
				Metrics struct {
					TotalSQLQueries int64 `json:"totalSqlQueries"`
				}
			}
			Aggregations struct {
				UniqueUserCount int64
				TotalSQLQueries int64 `json:"totalSqlQueries"`
				Users           []struct {
					User  string
					Count int64
				}
				Fields []struct {
					FieldName string
					Count     int64
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(r.Body), &got); err != nil {
		t.Fatalf("query = %d %s", r.Status, r.Body)
	}
	v := got.Value
	if len(v.Buckets) != 2 || v.Buckets[0].Bucket != day || v.Aggregations.TotalSQLQueries != 6 || v.Aggregations.UniqueUserCount != 2 ||
		len(v.Aggregations.Users) != 2 || v.Aggregations.Users[0].User != "urn:li:corpuser:a" || v.Aggregations.Users[0].Count != 4 ||
		len(v.Aggregations.Fields) != 1 || v.Aggregations.Fields[0].Count != 4 {
		t.Errorf("query = %s", r.Body)
	}
	wantRestliError(t, serve(t, s, http.MethodPost, "/usageStats?action=query", `{"resource":"`+dsURN+`","duration":"DECADE"}`), 400,
		"No enum constant com.linkedin.common.WindowDuration.DECADE")
}

// TestPlatformEvents checks that produced platform events are kept in
// order and a malformed one is refused.
func TestPlatformEvents(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	ev := `{"header":{"timestampMillis":5},"name":"entityChangeEvent","payload":{"value":"{}","contentType":"application/json"}}`
	if r := serve(t, s, http.MethodPost, "/platform?action=producePlatformEvent", `{"name":"entityChangeEvent","key":"k","event":`+ev+`}`); r.Status != http.StatusOK {
		t.Fatalf("produce = %d %s", r.Status, r.Body)
	}
	r := serve(t, s, http.MethodPost, "/platform?action=producePlatformEvent", `{"name":"x","event":{"name":"x"}}`)
	if r.Status != http.StatusUnprocessableEntity {
		t.Errorf("a malformed event = %d %s, want 422", r.Status, r.Body)
	}
	got := s.PlatformEvents()
	want := []PlatformEvent{{Name: "entityChangeEvent", Key: "k", Event: json.RawMessage(ev)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PlatformEvents (-want +got):\n%s", diff)
	}
}

// TestSetWritable checks that writes are dropped while the server is read
// only, as GMS's are, and kept again after.
func TestSetWritable(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	if r := serve(t, s, http.MethodPost, "/entities?action=setWritable", `{"value":false}`); r.Status != http.StatusOK {
		t.Fatalf("setWritable = %d %s", r.Status, r.Body)
	}
	ingestRun(t, s, dsURN, "status", `{"removed":false}`, "r")
	if got := aspectValue(t, s, dsURN, "status"); got != "" {
		t.Errorf("a write while read only stored %s", got)
	}
	serve(t, s, http.MethodPost, "/entities?action=setWritable", `{}`)
	ingestRun(t, s, dsURN, "status", `{"removed":false}`, "r")
	if got := aspectValue(t, s, dsURN, "status"); got != `{"removed":false}` {
		t.Errorf("after setWritable true the write stored %q", got)
	}
}

// TestMCEProposalsRecorded checks that the proposals an MCE becomes are
// listed by Proposals, as the proposals of ingestProposal are.
func TestMCEProposalsRecorded(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	serve(t, s, http.MethodPost, "/entities?action=ingest", emitMCEBody)
	var names []string
	for _, p := range s.Proposals() {
		names = append(names, p.AspectName)
	}
	if want := []string{"datasetProperties", "ownership", "status"}; !cmp.Equal(names, want) {
		t.Errorf("Proposals = %v, want %v", names, want)
	}
}
