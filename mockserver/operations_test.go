package mockserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// opsBase is the fixed start of the server clock in these tests.
var opsBase = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func fixedClock() Option { return WithClock(func() time.Time { return opsBase }) }

// post sends a POST with a JSON body to the listening server s.
func post(t testing.TB, s *Server, path, body string, header ...string) response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: string(b)}
}

// postOK posts and returns the body, failing the test unless the answer is 200.
func postOK(t testing.TB, s *Server, path, body string) string {
	t.Helper()
	r := post(t, s, path, body)
	if r.Status != http.StatusOK {
		t.Fatalf("POST %s %s = %d %s", path, body, r.Status, r.Body)
	}
	return r.Body
}

// stringValue decodes {"value":"..."}.
func stringValue(t testing.TB, body string) string {
	t.Helper()
	var v struct{ Value string }
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("answer %s: %v", body, err)
	}
	return v.Value
}

// ingestHTTP writes proposals over HTTP with ingestProposalBatch.
func ingestHTTP(t testing.TB, s *Server, ps ...map[string]any) {
	t.Helper()
	if got := postOK(t, s, "/aspects?action=ingestProposalBatch", mustJSON(t, map[string]any{"proposals": ps, "async": "false"})); got != `{"value":"success"}` {
		t.Fatalf("ingestProposalBatch = %s", got)
	}
}

func TestGetEsTaskStatusValidation(t *testing.T) {
	t.Parallel()
	s := Start(t)
	unknown := func(id string) string {
		b, _ := json.Marshal(map[string]string{"value": `{"error":"Could not get task status for ` + id + `"}`})
		return string(b)
	}
	for _, tc := range []struct {
		name, body string
		status     int
		want       string // the whole answer (200) or a part of the message
	}{
		{"empty", `{}`, 400, msgTaskNeither},
		{"node without id", `{"nodeId":"aB1cdEf2GHIJKLMnoPQr3S"}`, 400, msgTaskNeither},
		{"node with id 0", `{"nodeId":"aB1cdEf2GHIJKLMnoPQr3S","taskId":0}`, 400, msgTaskNeither},
		{"id without node", `{"taskId":5}`, 400, msgTaskNeither},
		{"both differ", `{"task":"a:1","nodeId":"b","taskId":1}`, 400, msgTaskBoth},
		{"both agree", `{"task":"aB1cdEf2GHIJKLMnoPQr3S:123456","nodeId":"aB1cdEf2GHIJKLMnoPQr3S","taskId":123456}`, 200, unknown("aB1cdEf2GHIJKLMnoPQr3S:123456")},
		{"hello", `{"task":"hello"}`, 400, "Task should be in the form nodeId:taskId e.g. aB1cdEf2GHIJKLMnoPQr3S:123456 (got hello)"},
		{"swapped", `{"task":"123456:aB1cdEf2GHIJKLMnoPQr3S"}`, 400, "(got 123456:aB1cdEf2GHIJKLMnoPQr3S)"},
		{"no node", `{"task":":123"}`, 400, "(got :123)"},
		{"id 0", `{"task":"abc:0"}`, 400, "(got abc:0)"},
		{"separate form bad node", `{"nodeId":"a b","taskId":3}`, 400, "(got a b:3)"},
		{"combined unknown", `{"task":"qhxGdzytQS-pQek8CwBCZg:54654"}`, 200, unknown("qhxGdzytQS-pQek8CwBCZg:54654")},
		{"underscore node", `{"task":"qhxGdzytQSpQek8CwBCZg_:54654"}`, 200, unknown("qhxGdzytQSpQek8CwBCZg_:54654")},
		{"separate unknown", `{"nodeId":"XIAMx5WySACgg9XxBgaKmw","taskId":12587}`, 200, unknown("XIAMx5WySACgg9XxBgaKmw:12587")},
		{"long node unknown", `{"task":"` + strings.Repeat("n", 5000) + `:7"}`, 200, unknown(strings.Repeat("n", 200) + "...")},
		{"our node unknown id", `{"task":"datahubMockNode-000001:99"}`, 200, unknown("datahubMockNode-000001:99")},
		{"taskId not a number", `{"nodeId":"a","taskId":"x"}`, 400, `ERROR :: /taskId :: "x" cannot be coerced to Long`},
		{"unknown member", `{"task":"a:1","id":1}`, 400, "ERROR :: /id :: unrecognized field found but not allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, prefix := range []string{"", "/api/gms"} {
				r := post(t, s, prefix+"/operations?action=getEsTaskStatus", tc.body)
				if tc.status == 200 {
					if r.Status != 200 || r.Body != tc.want {
						t.Errorf("%s: = %d %s, want 200 %s", prefix, r.Status, r.Body, tc.want)
					}
					continue
				}
				wantRestliError(t, r, tc.status, tc.want)
			}
		})
	}
}

// profile is a datasetProfile value at ms.
func profile(ms int64) string {
	return fmt.Sprintf(`{"timestampMillis":%d,"rowCount":%d,"columnCount":3}`, ms, ms%1000)
}

func profileProposal(urn string, ms int64) map[string]any {
	return mcp("dataset", urn, "UPSERT", "datasetProfile", profile(ms))
}

// indexSizesAnswer decodes getIndexSizes.
type indexSizesAnswer struct {
	Value struct {
		IndexSizes []indexSize `json:"indexSizes"`
	} `json:"value"`
}

func indexSizes(t testing.TB, s *Server) []indexSize {
	t.Helper()
	var a indexSizesAnswer
	if err := json.Unmarshal([]byte(postOK(t, s, "/operations?action=getIndexSizes", `{}`)), &a); err != nil {
		t.Fatal(err)
	}
	return a.Value.IndexSizes
}

// taskStatus is the decoded string of a known task's getEsTaskStatus.
type taskStatus struct {
	Completed    bool   `json:"completed"`
	TaskID       string `json:"taskId"`
	RunTimeNanos int64  `json:"runTimeNanos"`
	Status       struct {
		Total            int            `json:"total"`
		Updated          int            `json:"updated"`
		Created          int            `json:"created"`
		Deleted          int            `json:"deleted"`
		Batches          int            `json:"batches"`
		VersionConflicts int            `json:"version_conflicts"`
		Noops            int            `json:"noops"`
		Retries          map[string]int `json:"retries"`
		ThrottledMillis  int            `json:"throttled_millis"`
		RequestsPerSec   float64        `json:"requests_per_second"`
		ThrottledUntil   int            `json:"throttled_until_millis"`
	} `json:"status"`
}

func getTask(t testing.TB, s *Server, body string) taskStatus {
	t.Helper()
	v := stringValue(t, postOK(t, s, "/operations?action=getEsTaskStatus", body))
	var st taskStatus
	if err := json.Unmarshal([]byte(v), &st); err != nil {
		t.Fatalf("task status %s: %v", v, err)
	}
	if !strings.Contains(v, `"requests_per_second":-1.0`) {
		t.Errorf("status %s lacks requests_per_second -1.0", v)
	}
	return st
}

// TestTruncateFlow writes 1,000 datasetProfile documents across a time
// range, sees the index in getIndexSizes, checks a dry run's counts, runs
// the truncation, polls the task to completion over the injected clock and
// sees the index shrink.
func TestTruncateFlow(t *testing.T) {
	t.Parallel()
	s := Start(t, fixedClock())
	const perDataset, datasets = 250, 4
	start := opsBase.Add(-30 * 24 * time.Hour).UnixMilli()
	for d := range datasets {
		urn := fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.t%d,PROD)", d)
		var ps []map[string]any
		for i := range perDataset {
			ps = append(ps, profileProposal(urn, start+int64(i)*60_000))
		}
		ingestHTTP(t, s, ps...)
	}
	sizes := indexSizes(t, s)
	if len(sizes) != 1 {
		t.Fatalf("getIndexSizes = %+v, want the one profile index", sizes)
	}
	before := sizes[0]
	if before.IndexName != "dataset_datasetprofileaspect_v1" || before.EntityName != "dataset" || before.AspectName != "datasetprofile" ||
		before.SizeInMb <= 0 || before.SizeMb != before.SizeInMb {
		t.Fatalf("getIndexSizes = %+v", before)
	}
	// 1,000 documents of 114 bytes (URN and value).
	if before.SizeInMb < 0.08 || before.SizeInMb > 0.15 {
		t.Errorf("sizeInMb = %v, want about 0.114", before.SizeInMb)
	}

	truncate := func(body string) string {
		return stringValue(t, postOK(t, s, "/operations?action=truncateTimeseriesAspect", body))
	}
	end := start + 99*60_000 // 100 documents per dataset are <= end
	dry := fmt.Sprintf(`{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":%d}`, end)
	if got, want := truncate(dry), "Delete 400 out of 1000 rows (40.00%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute."; got != want {
		t.Errorf("dry run = %q, want %q", got, want)
	}
	lateEnd := start + 199*60_000
	if got, want := truncate(fmt.Sprintf(`{"entityType":"dataset","aspect":"datasetprofile","endTimeMillis":%d,"dryRun":true}`, lateEnd)),
		"Delete 800 out of 1000 rows (80.00%). Reindexing the aspect without the deleted records. This was a dry run. Run with dryRun = false to execute."; got != want {
		t.Errorf("dry run (lower-case aspect, most rows) = %q, want %q", got, want)
	}

	id := truncate(fmt.Sprintf(`{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":%d,"dryRun":false,"batchSize":150,"timeoutSeconds":3600}`, end))
	if !regexp.MustCompile(`^[a-zA-Z0-9-_]+:[0-9]+$`).MatchString(id) {
		t.Fatalf("task id = %q", id)
	}
	node, num, _ := strings.Cut(id, ":")
	var polls []int
	for range 10 {
		st := getTask(t, s, fmt.Sprintf(`{"task":%q}`, id))
		sep := getTask(t, s, fmt.Sprintf(`{"nodeId":%q,"taskId":%s}`, node, num))
		if diff := cmp.Diff(st, sep); diff != "" {
			t.Errorf("the two forms differ (-task +nodeId/taskId):\n%s", diff)
		}
		if st.TaskID != id || st.Status.Total != 400 {
			t.Errorf("status = %+v", st)
		}
		polls = append(polls, st.Status.Deleted)
		if st.Completed {
			if st.Status.Batches != 3 || st.RunTimeNanos != int64(3*time.Second) {
				t.Errorf("completed status = %+v, want 3 batches in 3 s", st)
			}
			break
		}
		s.FastForward(time.Second)
	}
	if diff := cmp.Diff([]int{0, 150, 300, 400}, polls); diff != "" {
		t.Errorf("deleted per poll (-want +got):\n%s", diff)
	}
	after := indexSizes(t, s)[0]
	if after.SizeInMb >= before.SizeInMb*0.7 || after.SizeInMb <= before.SizeInMb*0.5 {
		t.Errorf("size after deleting 40%% = %v, before %v", after.SizeInMb, before.SizeInMb)
	}
	if n := s.IndexedTimeseries("dataset", "datasetProfile"); n != 600 {
		t.Errorf("indexed documents = %d, want 600", n)
	}
	// The store lost them too: the timeseries read sees 150 per dataset.
	var vals struct {
		Value struct{ Values []json.RawMessage } `json:"value"`
	}
	body := postOK(t, s, "/aspects?action=getTimeseriesAspectValues",
		`{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.t0,PROD)","entity":"dataset","aspect":"datasetProfile"}`)
	if err := json.Unmarshal([]byte(body), &vals); err != nil || len(vals.Value.Values) != 150 {
		t.Errorf("getTimeseriesAspectValues after truncation: %d documents (%v), want 150", len(vals.Value.Values), err)
	}
	if got := truncate(dry); !strings.HasPrefix(got, "Delete 0 out of 600 rows (0.00%). ") {
		t.Errorf("dry run after truncation = %q", got)
	}
}

func TestTruncateParams(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		status     int
		want       string // the answer's string (200) or a part of the message
	}{
		{"missing all", `{}`, 400, "ERROR :: /entityType :: field is required but not found and has no default value\nERROR :: /aspect :: field is required but not found and has no default value\nERROR :: /endTimeMillis :: field is required"},
		{"endTime not a number", `{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":"soon"}`, 400, `ERROR :: /endTimeMillis :: "soon" cannot be coerced to Long`},
		{"not timeseries", `{"entityType":"dataset","aspect":"status","endTimeMillis":5}`, 400, "Aspect status is not a timeseries aspect of entity dataset"},
		{"unknown entity", `{"entityType":"nope","aspect":"datasetProfile","endTimeMillis":5}`, 400, "Aspect datasetProfile is not a timeseries aspect of entity nope"},
		{"batchSize 0", `{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":5,"batchSize":0}`, 400, msgBatchSize},
		{"empty index", `{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":5}`, 200, "Delete 0 out of 0 rows (NaN%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute."},
		{"force reindex", `{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":5,"forceReindex":true}`, 200, "Delete 0 out of 0 rows (NaN%). Reindexing the aspect without the deleted records. This was a dry run. Run with dryRun = false to execute."},
		{"force delete by query", `{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":5,"forceDeleteByQuery":true,"forceReindex":null}`, 200, "Delete 0 out of 0 rows (NaN%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute."},
		{"both flags true", `{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":5,"forceDeleteByQuery":true,"forceReindex":true}`, 200, msgTruncateFlags},
		{"both flags false", `{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":5,"forceDeleteByQuery":false,"forceReindex":false}`, 200, msgTruncateFlags},
		{"reindex flag false only", `{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":5,"forceReindex":false}`, 200, "Delete 0 out of 0 rows (NaN%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute."},
		{"usage statistics", `{"entityType":"dataset","aspect":"datasetusagestatistics","endTimeMillis":5,"timeoutSeconds":10,"batchSize":5}`, 200, "Delete 0 out of 0 rows (NaN%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := Start(t)
			r := post(t, s, "/api/gms/operations?action=truncateTimeseriesAspect", tc.body)
			if tc.status != 200 {
				wantRestliError(t, r, tc.status, tc.want)
				return
			}
			if r.Status != 200 || stringValue(t, r.Body) != tc.want {
				t.Errorf("= %d %s, want %q", r.Status, r.Body, tc.want)
			}
		})
	}
}

// TestTruncateReindexTask: a reindex task (most rows deleted) copies the
// documents to keep and drops the old ones when it completes; an empty
// truncation completes at once.
func TestTruncateReindexTask(t *testing.T) {
	t.Parallel()
	s := Start(t, fixedClock())
	var ps []map[string]any
	for i := range 10 {
		ps = append(ps, profileProposal(dsURN, int64(1000+i)))
	}
	ingestHTTP(t, s, ps...)
	id := stringValue(t, postOK(t, s, "/operations?action=truncateTimeseriesAspect",
		`{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":1007,"dryRun":false,"batchSize":1}`))
	st := getTask(t, s, fmt.Sprintf(`{"task":%q}`, id))
	if st.Completed || st.Status.Total != 2 || st.Status.Created != 0 || s.IndexedTimeseries("dataset", "datasetProfile") != 10 {
		t.Errorf("reindex task at start = %+v", st)
	}
	s.FastForward(time.Second)
	if st = getTask(t, s, fmt.Sprintf(`{"task":%q}`, id)); st.Completed || st.Status.Created != 1 || s.IndexedTimeseries("dataset", "datasetProfile") != 10 {
		t.Errorf("reindex task after 1 s = %+v", st)
	}
	s.FastForward(time.Second)
	if st = getTask(t, s, fmt.Sprintf(`{"task":%q}`, id)); !st.Completed || st.Status.Created != 2 || st.Status.Deleted != 0 {
		t.Errorf("reindex task after 2 s = %+v", st)
	}
	if n := s.IndexedTimeseries("dataset", "datasetProfile"); n != 2 {
		t.Errorf("documents after reindex = %d, want 2", n)
	}
	id2 := stringValue(t, postOK(t, s, "/operations?action=truncateTimeseriesAspect",
		`{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":5,"dryRun":false}`))
	if id2 == id {
		t.Errorf("second task has the first one's id %s", id)
	}
	if st = getTask(t, s, fmt.Sprintf(`{"task":%q}`, id2)); !st.Completed || st.Status.Total != 0 || st.RunTimeNanos != 0 {
		t.Errorf("empty truncation = %+v", st)
	}
}

func TestIndexFollowsStoreWithLag(t *testing.T) {
	t.Parallel()
	s := Start(t, fixedClock(), WithAsyncLag(5*time.Second))
	ingestHTTP(t, s, mcp("dataset", dsURN, "UPSERT", "status", `{"removed":false}`), profileProposal(dsURN, 1))
	if got := s.IndexedAspects(dsURN); got != nil {
		t.Errorf("indexed before the lag: %s", got)
	}
	if len(indexSizes(t, s)) != 0 {
		t.Errorf("timeseries index before the lag")
	}
	s.FastForward(5 * time.Second)
	if got := s.IndexedAspects(dsURN); string(got["status"]) != `{"removed":false}` || got["datasetKey"] == nil {
		t.Errorf("indexed after the lag: %s", got)
	}
	if len(indexSizes(t, s)) != 1 {
		t.Errorf("no timeseries index after the lag")
	}
	postOK(t, s, "/entities?action=delete", `{"urn":"`+dsURN+`"}`)
	s.FastForward(5 * time.Second)
	if got := s.IndexedAspects(dsURN); got != nil {
		t.Errorf("indexed after delete: %s", got)
	}
	if n := s.IndexedTimeseries("dataset", "datasetProfile"); n != 0 {
		t.Errorf("timeseries documents after delete: %d", n)
	}
}

func TestOperationsAuthFaultsControl(t *testing.T) {
	t.Parallel()
	s := Start(t, WithToken("secret"), WithControl(true))
	if r := post(t, s, "/api/gms/operations?action=getIndexSizes", `{}`); r.Status != http.StatusUnauthorized {
		t.Errorf("without token = %d", r.Status)
	}
	auth := []string{"Authorization", "Bearer secret"}
	for _, op := range []Op{OpRestoreIndices, OpGetIndexSizes, OpTruncateTimeseries, OpGetEsTaskStatus, OpEvaluateTests} {
		s.Fail(op, FailSpec{Status: 503, Times: 1})
	}
	for _, path := range []string{"/operations?action=restoreIndices", "/operations?action=getIndexSizes",
		"/operations?action=truncateTimeseriesAspect", "/operations?action=getEsTaskStatus", "/test?action=evaluate"} {
		if r := post(t, s, path, `{}`, auth...); r.Status != 503 {
			t.Errorf("%s with a fault = %d %s", path, r.Status, r.Body)
		}
	}
	if r := post(t, s, "/operations?action=getIndexSizes", `{}`, auth...); r.Status != 200 || r.Body != `{"value":{"indexSizes":[]}}` {
		t.Errorf("getIndexSizes = %d %s", r.Status, r.Body)
	}
	if r := post(t, s, "/operations?action=getIndexSizes", ``, auth...); r.Status != 200 || r.Body != `{"value":{"indexSizes":[]}}` {
		t.Errorf("getIndexSizes without a body (as DataHub's curl example) = %d %s", r.Status, r.Body)
	}
	if r := post(t, s, "/operations?action=getIndexSizes", `{"x":1}`, auth...); r.Status != 400 {
		t.Errorf("getIndexSizes with a parameter = %d %s", r.Status, r.Body)
	}
	if r := post(t, s, ControlPrefix+"/index", `{"paused":true}`, auth...); r.Status != 200 || r.Body != `{"value":{"paused":true}}` {
		t.Errorf("pause = %d %s", r.Status, r.Body)
	}
	if r := post(t, s, ControlPrefix+"/index", `{"pause":true}`, auth...); r.Status != 400 {
		t.Errorf("bad pause body = %d %s", r.Status, r.Body)
	}
	ingestHTTPAuth := post(t, s, "/aspects?action=ingestProposal", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed":true}`), "false"), auth...)
	if ingestHTTPAuth.Status != 200 {
		t.Fatalf("ingest = %d %s", ingestHTTPAuth.Status, ingestHTTPAuth.Body)
	}
	if got := s.IndexedAspects(dsURN); got != nil {
		t.Errorf("indexed while paused: %s", got)
	}
	if r := post(t, s, ControlPrefix+"/index", `{"paused":false}`, auth...); r.Status != 200 || r.Body != `{"value":{"paused":false}}` {
		t.Errorf("resume = %d %s", r.Status, r.Body)
	}
	req, _ := http.NewRequest(http.MethodGet, s.URL()+ControlPrefix+"/index", nil)
	req.Header.Set("Authorization", "Bearer secret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != `{"value":{"paused":false}}` {
		t.Errorf("GET index = %d %s", resp.StatusCode, b)
	}
}

// TestTruncateCamelCaseEntity: getIndexSizes reports lower-cased names,
// which truncateTimeseriesAspect takes for an entity type written in
// camel case.
func TestTruncateCamelCaseEntity(t *testing.T) {
	t.Parallel()
	s := Start(t, fixedClock())
	const dpi = "urn:li:dataProcessInstance:run1"
	var ps []map[string]any
	for i := range 4 {
		ps = append(ps, mcp("dataProcessInstance", dpi, "UPSERT", "dataProcessInstanceRunEvent",
			fmt.Sprintf(`{"timestampMillis":%d,"status":"COMPLETE"}`, 1000+i)))
	}
	ingestHTTP(t, s, ps...)
	sizes := indexSizes(t, s)
	if len(sizes) != 1 || sizes[0].IndexName != "dataprocessinstance_dataprocessinstanceruneventaspect_v1" ||
		sizes[0].EntityName != "dataprocessinstance" || sizes[0].AspectName != "dataprocessinstancerunevent" {
		t.Fatalf("sizes = %+v", sizes)
	}
	id := stringValue(t, postOK(t, s, "/operations?action=truncateTimeseriesAspect",
		`{"entityType":"dataprocessinstance","aspect":"dataprocessinstancerunevent","endTimeMillis":1000,"dryRun":false}`))
	s.FastForward(time.Second)
	if st := getTask(t, s, fmt.Sprintf(`{"task":%q}`, id)); !st.Completed || st.Status.Deleted != 1 {
		t.Errorf("task = %+v", st)
	}
	body := postOK(t, s, "/aspects?action=getTimeseriesAspectValues", `{"urn":"`+dpi+`","entity":"dataProcessInstance","aspect":"dataProcessInstanceRunEvent"}`)
	if n := strings.Count(body, "timestampMillis"); n != 3 {
		t.Errorf("store keeps %d documents, want 3: %s", n, body)
	}
}

// TestIndexAfterRestart: a server opened again on a data directory indexes
// what the store holds.
func TestIndexAfterRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s1, err := Open(WithDataDir(dir), fixedClock())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := s1.PutAspectJSON(dsURN, "datasetProfile", []byte(profile(int64(i)))); err != nil {
			t.Fatal(err)
		}
	}
	if err := s1.PutAspectJSON(dsURN, "status", []byte(`{"removed":false}`)); err != nil {
		t.Fatal(err)
	}
	if err := s1.Close(); err != nil {
		t.Fatal(err)
	}
	s := Start(t, WithDataDir(dir), fixedClock())
	if got := s.IndexedAspects(dsURN); string(got["status"]) != `{"removed":false}` {
		t.Errorf("indexed after restart: %s", got)
	}
	if n := s.IndexedTimeseries("dataset", "datasetProfile"); n != 3 {
		t.Errorf("timeseries documents after restart = %d, want 3", n)
	}
	if got := truncateDry(t, s, `{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":0}`); !strings.HasPrefix(got, "Delete 1 out of 3 rows (33.33%). ") {
		t.Errorf("dry run after restart = %q", got)
	}
}

func truncateDry(t *testing.T, s *Server, body string) string {
	t.Helper()
	return stringValue(t, postOK(t, s, "/operations?action=truncateTimeseriesAspect", body))
}
