package client

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/urn"
)

// opsFake records requests and answers each operation with a canned body
// in one of the shapes real DataHub or SPEC.md allow.
type opsFake struct {
	answers map[string]string // action → body
	mu      sync.Mutex
	reqs    []recorded
}

func (f *opsFake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec := recordOf(r, body)
	f.mu.Lock()
	f.reqs = append(f.reqs, rec)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	a, ok := f.answers[r.URL.Query().Get("action")]
	if !ok {
		http.Error(w, "unexpected request", http.StatusTeapot)
		return
	}
	io.WriteString(w, a)
}

// Real DataHub's answers (WIRE.md §3) and the other forms the client reads.
const (
	restoreAnswer = `{"value":"{args=RestoreIndicesArgs(start=0, batchSize=500, limit=0, numThreads=1, batchDelayMs=1000, gePitEpochMs=0, lePitEpochMs=1700000000000, createDefaultAspects=false, aspectName=null, aspectNames=[], urn=urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD), urnLike=null, urnBasedPagination=false, lastUrn=, lastAspect=), result=RestoreIndicesResult(ignored=1, rowsMigrated=3, timeSqlQueryMs=5, timeGetRowMs=0, timeUrnMs=0, timeEntityRegistryCheckMs=0, aspectCheckMs=0, createRecordMs=0, sendMessageMs=2, defaultAspectsCreated=0, lastUrn=urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD), lastAspect=status)\nRestoreIndicesResult(ignored=0, rowsMigrated=2, timeSqlQueryMs=5, timeGetRowMs=0, timeUrnMs=0, timeEntityRegistryCheckMs=0, aspectCheckMs=0, createRecordMs=0, sendMessageMs=2, defaultAspectsCreated=0, lastUrn=urn:li:dataset:(urn:li:dataPlatform:hive,db.users, with space,PROD), lastAspect=schemaMetadata)}"}`
	sizesObject   = `{"value":{"indexSizes":[{"indexName":"dataset_datasetusagestatisticsaspect_v1","entityName":"dataset","aspectName":"datasetusagestatistics","sizeInMb":0.208}]}}`
	sizesString   = `{"value":"{\"indexSizes\":[{\"aspectName\":\"datasetusagestatistics\",\"sizeMb\":0.5,\"indexName\":\"dataset_datasetusagestatisticsaspect_v1\",\"entityName\":\"dataset\"}]}"}`
	taskFound     = `{"value":"{\"completed\":true,\"taskId\":\"qhxGdzytQS-pQek8CwBCZg:54654\",\"runTimeNanos\":1179458,\"status\":{\"total\":4,\"updated\":0,\"created\":0,\"deleted\":4,\"batches\":1,\"version_conflicts\":0,\"noops\":0,\"retries\":{\"bulk\":1,\"search\":2},\"throttled_millis\":0,\"requests_per_second\":-1.0,\"throttled_until_millis\":0}}"}`
	taskDocsForm  = `{"value":{"completed":false,"taskId":"qhxGdzytQS-pQek8CwBCZg:54654","runTimeNanos":5,"status":"{\"total\":9,\"deleted\":2,\"batches\":1,\"requests_per_second\":-1.0}"}}`
	evalAnswer    = `{"value":{"passing":[{"test":"urn:li:test:x","type":"SUCCESS"}],"failing":[{"test":"urn:li:test:y","type":"FAILURE"}]}}`
)

func TestOperationsRequestShapes(t *testing.T) {
	t.Parallel()
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)")
	task := Task{NodeID: "qhxGdzytQS-pQek8CwBCZg", ID: 54654}
	for _, tc := range []struct {
		name    string
		answers map[string]string
		call    func(ctx context.Context, c *Client) (any, error)
		want    any
	}{
		{"RestoreIndices", map[string]string{"restoreIndices": restoreAnswer}, func(ctx context.Context, c *Client) (any, error) {
			r, err := c.RestoreIndices(ctx, RestoreIndicesRequest{URN: ds.String(), Aspect: "status", URNLike: "urn:li:dataset:%", Start: 2, BatchSize: 50,
				Limit: 100, CreatedAfter: time.UnixMilli(1000), CreatedBefore: time.UnixMilli(2000), CreateDefaultAspects: true})
			if r != nil {
				r.Raw = ""
			}
			return r, err
		}, &RestoreIndicesResult{RowsMigrated: 5, Ignored: 1, LastURN: "urn:li:dataset:(urn:li:dataPlatform:hive,db.users, with space,PROD)", LastAspect: "schemaMetadata",
			Batches: []RestoreBatch{{3, 1, ds.String(), "status"}, {2, 0, "urn:li:dataset:(urn:li:dataPlatform:hive,db.users, with space,PROD)", "schemaMetadata"}}}},
		{"RestoreIndices defaults", map[string]string{"restoreIndices": restoreAnswer}, func(ctx context.Context, c *Client) (any, error) {
			r, err := c.RestoreIndices(ctx, RestoreIndicesRequest{})
			if err != nil {
				return nil, err
			}
			return r.RowsMigrated, nil
		}, 5},
		{"GetIndexSizes", map[string]string{"getIndexSizes": sizesObject}, func(ctx context.Context, c *Client) (any, error) {
			return c.GetIndexSizes(ctx)
		}, []IndexSize{{"dataset_datasetusagestatisticsaspect_v1", "dataset", "datasetusagestatistics", 0.208}}},
		{"GetIndexSizes string form", map[string]string{"getIndexSizes": sizesString}, func(ctx context.Context, c *Client) (any, error) {
			return c.GetIndexSizes(ctx)
		}, []IndexSize{{"dataset_datasetusagestatisticsaspect_v1", "dataset", "datasetusagestatistics", 0.5}}},
		{"TruncateTimeseriesAspect dry run", map[string]string{"truncateTimeseriesAspect": `{"value":"Delete 0 out of 201 rows (0.00%). Reindexing the aspect without the deleted records. This was a dry run. Run with dryRun = false to execute."}`},
			func(ctx context.Context, c *Client) (any, error) {
				r, err := c.TruncateTimeseriesAspect(ctx, TruncateRequest{EntityType: "dataset", Aspect: "datasetusagestatistics", End: time.UnixMilli(1_000_000_000_000), ForceReindex: true})
				if r != nil {
					r.Message = ""
				}
				return r, err
			}, &TruncateResult{Total: 201, Reindex: true}},
		{"TruncateTimeseriesAspect", map[string]string{"truncateTimeseriesAspect": `{"value":"qhxGdzytQS-pQek8CwBCZg:54654"}`},
			func(ctx context.Context, c *Client) (any, error) {
				r, err := c.TruncateTimeseriesAspect(ctx, TruncateRequest{EntityType: "dataset", Aspect: "datasetusagestatistics", End: time.UnixMilli(1_000_000_000_000),
					Execute: true, BatchSize: 100, Timeout: 3599500 * time.Millisecond, ForceDeleteByQuery: true})
				if err != nil {
					return nil, err
				}
				return r.Task, nil
			}, &task},
		{"GetEsTaskStatus", map[string]string{"getEsTaskStatus": taskFound}, func(ctx context.Context, c *Client) (any, error) {
			return c.GetEsTaskStatus(ctx, task)
		}, &TaskStatus{Task: task, Completed: true, RunTime: 1179458, Status: ESTaskStatus{Total: 4, Deleted: 4, Batches: 1, Retries: Retries{1, 2}, RequestsPerSecond: -1}}},
		{"GetEsTaskStatus docs form", map[string]string{"getEsTaskStatus": taskDocsForm}, func(ctx context.Context, c *Client) (any, error) {
			return c.GetEsTaskStatus(ctx, task)
		}, &TaskStatus{Task: task, RunTime: 5, Status: ESTaskStatus{Total: 9, Deleted: 2, Batches: 1, RequestsPerSecond: -1}}},
		{"EvaluateTests", map[string]string{"evaluate": evalAnswer}, func(ctx context.Context, c *Client) (any, error) {
			return c.EvaluateTests(ctx, ds, EvaluateOptions{Tests: []string{"urn:li:test:x", "urn:li:test:y"}, Push: true})
		}, &TestEvaluation{Passing: []TestOutcome{{"urn:li:test:x", "SUCCESS"}}, Failing: []TestOutcome{{"urn:li:test:y", "FAILURE"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := &opsFake{answers: tc.answers}
			srv := httptest.NewServer(f)
			t.Cleanup(srv.Close)
			c, err := New(srv.URL+"/api/gms", datahub.WithToken("secret-token"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := tc.call(t.Context(), c)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(f.reqs); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join("testdata", "golden", "ops_"+strings.ReplaceAll(tc.name, " ", "_")+".json")
			if *update {
				if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), buf.String()); diff != "" {
				t.Errorf("requests differ from %s (-want +got):\n%s", file, diff)
			}
		})
	}
}

func TestOperationsOddAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, action, answer string
		call                 func(ctx context.Context, c *Client) error
	}{
		{"flags message", "truncateTimeseriesAspect", `{"value":"please only set forceReindex OR forceDeleteByQuery flags"}`, func(ctx context.Context, c *Client) error {
			_, err := c.TruncateTimeseriesAspect(ctx, TruncateRequest{EntityType: "dataset", Aspect: "x", End: time.UnixMilli(1), ForceReindex: true})
			return err
		}},
		{"dry run answered to an execute", "truncateTimeseriesAspect", `{"value":"Delete 0 out of 0 rows (NaN%). Issuing a delete by query request. "}`, func(ctx context.Context, c *Client) error {
			_, err := c.TruncateTimeseriesAspect(ctx, TruncateRequest{EntityType: "dataset", Aspect: "x", End: time.UnixMilli(1), Execute: true})
			return err
		}},
		{"restore without results", "restoreIndices", `{"value":"{args=RestoreIndicesArgs()}"}`, func(ctx context.Context, c *Client) error {
			_, err := c.RestoreIndices(ctx, RestoreIndicesRequest{})
			return err
		}},
		{"sizes not an object", "getIndexSizes", `{"value":[1]}`, func(ctx context.Context, c *Client) error {
			_, err := c.GetIndexSizes(ctx)
			return err
		}},
		{"no value", "evaluate", `{}`, func(ctx context.Context, c *Client) error {
			_, err := c.EvaluateTests(ctx, urn.MustParse("urn:li:corpuser:x"), EvaluateOptions{})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(&opsFake{answers: map[string]string{tc.action: tc.answer}})
			t.Cleanup(srv.Close)
			c, err := New(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.call(t.Context(), c); err == nil {
				t.Errorf("no error for %s", tc.answer)
			}
		})
	}
}
