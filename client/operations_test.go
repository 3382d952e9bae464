package client

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

var opsStart = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

func opsMock(t *testing.T, opts ...mockserver.Option) *mockserver.Server {
	t.Helper()
	return mockserver.Start(t, append([]mockserver.Option{mockserver.WithClock(func() time.Time { return opsStart })}, opts...)...)
}

func dsURN(i int) string {
	return fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.t%d,PROD)", i)
}

// TestTruncateAndWait: sizes, a dry run's counts, an executed truncation and
// WaitForTask, whose waits move the mock's clock (no real sleeping).
func TestTruncateAndWait(t *testing.T) {
	t.Parallel()
	s := opsMock(t)
	day := opsStart.Add(-10 * 24 * time.Hour)
	for i := range 200 {
		ms := day.Add(time.Duration(i) * time.Hour).UnixMilli()
		if err := s.PutAspectJSON(dsURN(i%2), "datasetProfile", []byte(fmt.Sprintf(`{"timestampMillis":%d,"rowCount":%d}`, ms, i))); err != nil {
			t.Fatal(err)
		}
	}
	c := newTestClient(t, s)
	var waits []time.Duration
	c.sleep = func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		s.FastForward(d)
		return nil
	}
	ctx := t.Context()
	sizes, err := c.GetIndexSizes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(sizes) != 1 || sizes[0].IndexName != "dataset_datasetprofileaspect_v1" || sizes[0].EntityName != "dataset" ||
		sizes[0].AspectName != "datasetprofile" || sizes[0].SizeMB <= 0 {
		t.Fatalf("sizes = %+v", sizes)
	}
	end := day.Add(49 * time.Hour) // 50 documents
	req := TruncateRequest{EntityType: sizes[0].EntityName, Aspect: sizes[0].AspectName, End: end}
	dry, err := c.TruncateTimeseriesAspect(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if dry.Task != nil || dry.ToDelete != 50 || dry.Total != 200 || dry.Reindex {
		t.Errorf("dry run = %+v", dry)
	}
	req.ForceReindex = true
	if dry, err = c.TruncateTimeseriesAspect(ctx, req); err != nil || !dry.Reindex {
		t.Errorf("dry run with ForceReindex = %+v, %v", dry, err)
	}
	req.ForceReindex, req.Execute, req.BatchSize, req.Timeout = false, true, 20, time.Minute
	run, err := c.TruncateTimeseriesAspect(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if run.Task == nil {
		t.Fatalf("executed run = %+v", run)
	}
	st, err := c.WaitForTask(ctx, *run.Task)
	if err != nil {
		t.Fatal(err)
	}
	// 3 batches of 20 at one per second of the mock's clock: polls at 0,
	// 0.5, 1.5 and 3.5 s.
	if diff := cmp.Diff([]time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}, waits); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
	want := &TaskStatus{Task: *run.Task, Completed: true, RunTime: 3 * time.Second,
		Status: ESTaskStatus{Total: 50, Deleted: 50, Batches: 3, RequestsPerSecond: -1}}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("final status (-want +got):\n%s", diff)
	}
	after, err := c.GetIndexSizes(ctx)
	if err != nil || after[0].SizeMB >= sizes[0].SizeMB {
		t.Errorf("size after truncation = %+v (%v), before %v", after, err, sizes[0].SizeMB)
	}
}

func TestOperationsErrors(t *testing.T) {
	t.Parallel()
	s := opsMock(t)
	c := newTestClient(t, s)
	ctx := t.Context()
	var nf *TaskNotFoundError
	_, err := c.GetEsTaskStatus(ctx, Task{NodeID: "aB1cdEf2GHIJKLMnoPQr3S", ID: 7})
	if !errors.As(err, &nf) || !errors.Is(err, datahub.ErrNotFound) || nf.Message != "Could not get task status for aB1cdEf2GHIJKLMnoPQr3S:7" {
		t.Errorf("unknown task: %v", err)
	}
	if _, err := c.WaitForTask(ctx, Task{NodeID: "n", ID: 1}); !errors.As(err, &nf) {
		t.Errorf("WaitForTask of an unknown task: %v", err)
	}
	before := s.RequestCount(mockserver.OpGetEsTaskStatus)
	for _, task := range []Task{{NodeID: "", ID: 1}, {NodeID: "a b", ID: 1}, {NodeID: "a", ID: 0}} {
		if _, err := c.GetEsTaskStatus(ctx, task); !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("GetEsTaskStatus(%+v) = %v", task, err)
		}
	}
	if _, err := c.GetEsTaskStatus(ctx, Task{NodeID: "node", ID: -1}); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("negative task id: %v", err)
	}
	if n := s.RequestCount(mockserver.OpGetEsTaskStatus) - before; n != 0 {
		t.Errorf("%d invalid task requests sent", n)
	}
	for _, in := range []string{"hello", "123456:aB1cdEf2GHIJKLMnoPQr3S", ":123", "a:0"} {
		if _, err := ParseTask(in); !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("ParseTask(%q) = %v", in, err)
		}
	}
	if tk, err := ParseTask("qhxGdzytQS-pQek8CwBCZg:54654"); err != nil || tk != (Task{"qhxGdzytQS-pQek8CwBCZg", 54654}) {
		t.Errorf("ParseTask = %+v, %v", tk, err)
	}
	bad := []TruncateRequest{
		{Aspect: "datasetProfile", End: opsStart},
		{EntityType: "dataset", Aspect: "datasetProfile"}, // no end time
		{EntityType: "dataset", Aspect: "datasetProfile", End: opsStart, ForceDeleteByQuery: true, ForceReindex: true},
		{EntityType: "dataset", Aspect: "datasetProfile", End: opsStart, BatchSize: -1},
	}
	for _, r := range bad {
		if _, err := c.TruncateTimeseriesAspect(ctx, r); !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("TruncateTimeseriesAspect(%+v) = %v", r, err)
		}
	}
	if n := s.RequestCount(mockserver.OpTruncateTimeseries); n != 0 {
		t.Errorf("%d invalid truncations sent", n)
	}
	var de *datahub.Error
	_, err = c.TruncateTimeseriesAspect(ctx, TruncateRequest{EntityType: "dataset", Aspect: "status", End: opsStart})
	if !errors.As(err, &de) || de.StatusCode != 400 || !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("truncating a versioned aspect: %v", err)
	}
	if _, err := c.RestoreIndices(ctx, RestoreIndicesRequest{Start: -1}); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("negative start: %v", err)
	}
	u := urn.MustParse(dsURN(0))
	if _, err := c.EvaluateTests(ctx, u, EvaluateOptions{Tests: []string{"urn:li:test:missing"}}); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("evaluating a missing test: %v", err)
	}
}

// TestRestoreIndicesDrift: with the mock's indexing paused, writes miss the
// index; RestoreIndices with URNLike, Start and BatchSize indexes exactly
// the selected rows.
func TestRestoreIndicesDrift(t *testing.T) {
	t.Parallel()
	s := opsMock(t, mockserver.WithIndexPaused(true))
	for i := range 4 {
		if err := s.PutAspectJSON(dsURN(i), "status", []byte(`{"removed":false}`)); err != nil {
			t.Fatal(err)
		}
	}
	c := newTestClient(t, s)
	ctx := t.Context()
	// Rows in DataHub's order (URN, then aspect, byte-wise): per dataset
	// datasetKey, status.
	res, err := c.RestoreIndices(ctx, RestoreIndicesRequest{URNLike: "urn:li:dataset:%", Start: 3, BatchSize: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := &RestoreIndicesResult{RowsMigrated: 3, LastURN: dsURN(2), LastAspect: "status",
		Batches: []RestoreBatch{{RowsMigrated: 3, LastURN: dsURN(2), LastAspect: "status"}}}
	if diff := cmp.Diff(want, res, cmpIgnoreRaw); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	var indexed []string
	for i := range 4 {
		for _, a := range []string{"datasetKey", "status"} {
			if s.IndexedAspects(dsURN(i))[a] != nil {
				indexed = append(indexed, fmt.Sprintf("t%d/%s", i, a))
			}
		}
	}
	if diff := cmp.Diff([]string{"t1/status", "t2/datasetKey", "t2/status"}, indexed); diff != "" {
		t.Errorf("indexed (-want +got):\n%s", diff)
	}
	res, err = c.RestoreIndices(ctx, RestoreIndicesRequest{Aspect: "status", Limit: 4, BatchSize: 3, CreatedBefore: opsStart})
	if err != nil {
		t.Fatal(err)
	}
	if res.RowsMigrated != 4 || len(res.Batches) != 2 || res.LastURN != dsURN(3) || res.LastAspect != "status" {
		t.Errorf("limited restore = %+v", res)
	}
	if res, err = c.RestoreIndices(ctx, RestoreIndicesRequest{URN: dsURN(0), CreatedAfter: opsStart.Add(time.Hour)}); err != nil || res.RowsMigrated != 0 || res.LastURN != "" {
		t.Errorf("restore of rows created later = %+v, %v", res, err)
	}
}

var cmpIgnoreRaw = cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Raw" }, cmp.Ignore())

func TestEvaluateTestsPush(t *testing.T) {
	t.Parallel()
	s := opsMock(t)
	def := func(rule string) []byte {
		return []byte(fmt.Sprintf(`{"name":"t","category":"c","definition":{"type":"JSON","json":%q}}`,
			`{"on":{"types":["dataset"]},"rules":`+rule+`}`))
	}
	for id, rule := range map[string]string{
		"described": `[{"property":"editableDatasetProperties.description","operator":"exists"}]`,
		"owned":     `[{"property":"ownership.owners.owner","operator":"exists"}]`,
	} {
		if err := s.PutAspectJSON("urn:li:test:"+id, "testInfo", def(rule)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutAspectJSON(dsURN(0), "editableDatasetProperties", []byte(`{"description":"d"}`)); err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, s)
	u := urn.MustParse(dsURN(0))
	got, err := c.EvaluateTests(t.Context(), u, EvaluateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := &TestEvaluation{Passing: []TestOutcome{{"urn:li:test:described", "SUCCESS"}}, Failing: []TestOutcome{{"urn:li:test:owned", "FAILURE"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if _, err := s.GetAspectJSON(dsURN(0), "testResults", 0); err == nil {
		t.Errorf("results stored without Push")
	}
	got, err = c.EvaluateTests(t.Context(), u, EvaluateOptions{Tests: []string{"urn:li:test:owned"}, Push: true})
	if err != nil {
		t.Fatal(err)
	}
	want = &TestEvaluation{Passing: []TestOutcome{}, Failing: []TestOutcome{{"urn:li:test:owned", "FAILURE"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	stored, err := s.GetAspectJSON(dsURN(0), "testResults", 0)
	if err != nil || string(stored) != `{"failing":[{"test":"urn:li:test:owned","type":"FAILURE"}],"passing":[]}` {
		t.Errorf("stored testResults = %s, %v", stored, err)
	}
}

// TestWaitForTaskContextEnds: WaitForTask stops when its context ends,
// with the last status and the context's error.
func TestWaitForTaskContextEnds(t *testing.T) {
	t.Parallel()
	s := opsMock(t)
	for _, ms := range []string{"5", "10"} { // one to delete by query, in one batch
		if err := s.PutAspectJSON(dsURN(0), "datasetProfile", []byte(`{"timestampMillis":`+ms+`}`)); err != nil {
			t.Fatal(err)
		}
	}
	c := newTestClient(t, s)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	run, err := c.TruncateTimeseriesAspect(ctx, TruncateRequest{EntityType: "dataset", Aspect: "datasetProfile", End: time.UnixMilli(5), Execute: true})
	if err != nil {
		t.Fatal(err)
	}
	polls := 0
	c.sleep = func(ctx context.Context, d time.Duration) error {
		polls++
		cancel()
		return sleepCtx(ctx, d)
	}
	st, err := c.WaitForTask(ctx, *run.Task)
	if !errors.Is(err, context.Canceled) || st == nil || st.Completed || polls != 1 {
		t.Errorf("WaitForTask = %+v, %v after %d waits; want the running status and context.Canceled after 1", st, err, polls)
	}
}
