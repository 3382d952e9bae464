package gms_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

func i32(n int32) *int32 { return &n }
func i64(n int64) *int64 { return &n }
func yes(b bool) *bool   { return &b }

// refusal is the kind and message of err, for comparing.
func refusal(err error) string {
	if e := gms.AsError(err); e != nil {
		return e.Kind.String() + ": " + e.Message
	}
	return ""
}

// TestRestoreArgs checks restoreIndices' defaults (batchSize 10,
// lePitEpochMs the server clock's now) and its argument checks.
func TestRestoreArgs(t *testing.T) {
	t.Parallel()
	now := time.UnixMilli(1_700_000_000_000)
	c := newCore(t, gms.Options{Clock: func() time.Time { return now }})
	tests := []struct {
		name string
		p    gms.RestoreParams
		want gms.RestoreArgs
		err  string
	}{
		{"defaults", gms.RestoreParams{}, gms.RestoreArgs{BatchSize: 10, LePitEpochMs: now.UnixMilli()}, ""},
		{"given", gms.RestoreParams{URN: ptr(ds), Aspect: ptr("status"), URNLike: ptr("urn:%"), Start: i32(2), BatchSize: i32(3), Limit: i32(4),
			GePitEpochMs: i64(5), LePitEpochMs: i64(6), CreateDefaultAspects: yes(true)},
			gms.RestoreArgs{URN: ds, Aspect: "status", URNLike: "urn:%", Start: 2, BatchSize: 3, Limit: 4, GePitEpochMs: 5, LePitEpochMs: 6, CreateDefaultAspects: true}, ""},
		{"batchSize 0", gms.RestoreParams{BatchSize: i32(0)}, gms.RestoreArgs{}, "bad argument: " + gms.MsgBatchSize},
		{"batchSize checked first", gms.RestoreParams{BatchSize: i32(-1), Start: i32(-1)}, gms.RestoreArgs{}, "bad argument: " + gms.MsgBatchSize},
		{"negative start", gms.RestoreParams{Start: i32(-1)}, gms.RestoreArgs{},
			"bad argument: start, limit, gePitEpochMs and lePitEpochMs must not be negative (datahub-mock)"},
		{"negative window", gms.RestoreParams{LePitEpochMs: i64(-1)}, gms.RestoreArgs{},
			"bad argument: start, limit, gePitEpochMs and lePitEpochMs must not be negative (datahub-mock)"},
	}
	for _, tt := range tests {
		got, err := c.RestoreArgs(tt.p)
		if refusal(err) != tt.err || got != tt.want {
			t.Errorf("%s: RestoreArgs = %+v, %q; want %+v, %q", tt.name, got, refusal(err), tt.want, tt.err)
		}
	}
}

// TestTruncationOf checks truncateTimeseriesAspect's defaults (a dry run,
// batches of 10,000), the aspect named in any case, the checks in their
// order, the conflicting flags and the reindex decision.
func TestTruncationOf(t *testing.T) {
	t.Parallel()
	base := gms.TruncateParams{EntityType: "dataset", Aspect: "datasetProfile", EndTimeMillis: 5}
	with := func(f func(*gms.TruncateParams)) gms.TruncateParams { p := base; f(&p); return p }
	tests := []struct {
		name string
		p    gms.TruncateParams
		want gms.Truncation
		err  string
	}{
		{"defaults", base, gms.Truncation{EntityType: "dataset", Aspect: "datasetProfile", EndTimeMillis: 5, DryRun: true, BatchSize: 10000}, ""},
		{"any case", with(func(p *gms.TruncateParams) {
			p.EntityType, p.Aspect, p.DryRun, p.BatchSize = "DataProcessInstance", "dataprocessinstancerunevent", yes(false), i32(7)
		}), gms.Truncation{EntityType: "dataProcessInstance", Aspect: "dataProcessInstanceRunEvent", EndTimeMillis: 5, BatchSize: 7}, ""},
		{"flags conflict", with(func(p *gms.TruncateParams) { p.ForceDeleteByQuery, p.ForceReindex = yes(false), yes(false) }),
			gms.Truncation{EntityType: "dataset", Aspect: "datasetProfile", EndTimeMillis: 5, DryRun: true, BatchSize: 10000, FlagsConflict: true}, ""},
		{"batchSize 0", with(func(p *gms.TruncateParams) { p.BatchSize, p.Aspect = i32(0), "status" }), gms.Truncation{}, "bad argument: " + gms.MsgBatchSize},
		{"negative timeout", with(func(p *gms.TruncateParams) { p.TimeoutSeconds, p.Aspect = i64(-1), "status" }), gms.Truncation{},
			"bad argument: timeoutSeconds must not be negative (datahub-mock)"},
		{"not timeseries", with(func(p *gms.TruncateParams) { p.Aspect = "status" }), gms.Truncation{},
			"bad argument: Aspect status is not a timeseries aspect of entity dataset (datahub-mock)"},
		{"unknown entity", with(func(p *gms.TruncateParams) { p.EntityType = "nope" }), gms.Truncation{},
			"bad argument: Aspect datasetProfile is not a timeseries aspect of entity nope (datahub-mock)"},
	}
	for _, tt := range tests {
		got, err := gms.TruncationOf(tt.p)
		if refusal(err) != tt.err {
			t.Errorf("%s: TruncationOf error %q, want %q", tt.name, refusal(err), tt.err)
		}
		if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreUnexported(gms.Truncation{})); diff != "" {
			t.Errorf("%s: TruncationOf (-want +got):\n%s", tt.name, diff)
		}
	}
	byDefault, _ := gms.TruncationOf(base)
	forced, _ := gms.TruncationOf(with(func(p *gms.TruncateParams) { p.ForceDeleteByQuery = yes(true) }))
	if !byDefault.ByReindex(6, 10) || byDefault.ByReindex(5, 10) || forced.ByReindex(9, 10) {
		t.Errorf("ByReindex: more than half reindexes unless forceDeleteByQuery")
	}
}

// TestTaskOf checks getEsTaskStatus' ways of naming a task and its
// refusals.
func TestTaskOf(t *testing.T) {
	t.Parallel()
	const node = "aB1cdEf2GHIJKLMnoPQr3S"
	tests := []struct {
		name   string
		nodeID *string
		taskID *int64
		task   *string
		want   gms.TaskRef
		err    string
	}{
		{"composite", nil, nil, ptr(node + ":12"), gms.TaskRef{ID: node + ":12", Node: node, Num: 12}, ""},
		{"pair", ptr(node), i64(12), nil, gms.TaskRef{ID: node + ":12", Node: node, Num: 12}, ""},
		{"both the same", ptr(node), i64(12), ptr(node + ":12"), gms.TaskRef{ID: node + ":12", Node: node, Num: 12}, ""},
		{"neither", nil, nil, nil, gms.TaskRef{}, "bad argument: " + gms.MsgTaskNeither},
		{"task id 0", ptr(node), i64(0), nil, gms.TaskRef{}, "bad argument: " + gms.MsgTaskNeither},
		{"both differ", ptr("b"), i64(1), ptr("a:1"), gms.TaskRef{}, "bad argument: " + gms.MsgTaskBoth},
		{"bad form", nil, nil, ptr("a.b:1"), gms.TaskRef{}, "bad argument: " + fmt.Sprintf(gms.MsgTaskForm, "a.b:1")},
		{"number 0", nil, nil, ptr("a:0"), gms.TaskRef{}, "bad argument: " + fmt.Sprintf(gms.MsgTaskForm, "a:0")},
	}
	for _, tt := range tests {
		got, err := gms.TaskOf(tt.nodeID, tt.taskID, tt.task)
		if refusal(err) != tt.err || got != tt.want {
			t.Errorf("%s: TaskOf = %+v, %q; want %+v, %q", tt.name, got, refusal(err), tt.want, tt.err)
		}
	}
}

// TestTruncateTimeseries runs a truncation through the core: each batch, as
// it falls due on the clock, deletes from the store the documents of the
// entity type's aspect at or before the end, the oldest first across
// entities, at most a batch of them (the last batch all that are left);
// other entity types and aspects stay. The store's deletions are the core's,
// at its barrier, not the index's.
func TestTruncateTimeseries(t *testing.T) {
	t.Parallel()
	clk := &clock{now: time.UnixMilli(1_700_000_000_000)}
	c := newCore(t, gms.Options{Clock: clk.Now})
	ctx := t.Context()
	other := "urn:li:dataset:(urn:li:dataPlatform:hive,db.other,PROD)"
	profile := func(ms int64) json.RawMessage { return json.RawMessage(fmt.Sprintf(`{"timestampMillis":%d}`, ms)) }
	for _, d := range []struct {
		u  string
		ms []int64
	}{{ds, []int64{1, 4, 6}}, {other, []int64{2, 3, 5, 7}}} {
		for _, ms := range d.ms {
			if err := c.Put(ctx, d.u, "datasetProfile", profile(ms)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := c.Put(ctx, ds, "datasetUsageStatistics", json.RawMessage(`{"timestampMillis":1}`)); err != nil {
		t.Fatal(err)
	}
	left := func(u, aspect string) []int64 {
		docs, err := c.Timeseries(ctx, gms.TimeseriesQuery{URN: u, Entity: "dataset", Aspect: aspect, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, d := range docs {
			out = append(out, d.TimestampMillis)
		}
		return out
	}
	tr, err := gms.TruncationOf(gms.TruncateParams{EntityType: "dataset", Aspect: "datasetProfile", EndTimeMillis: 5,
		DryRun: yes(false), BatchSize: i32(3), ForceDeleteByQuery: yes(true)})
	if err != nil {
		t.Fatal(err)
	}
	r := c.Truncate(ctx, tr)
	if r.ToDelete != 5 || r.Total != 7 || r.ByReindex || r.TaskID == "" {
		t.Fatalf("Truncate = %+v, want 5 of 7 by delete-by-query with a task", r)
	}
	ref, err := gms.TaskOf(nil, nil, &r.TaskID)
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	if diff := cmp.Diff([][]int64{{6, 4}, {7, 5}}, [][]int64{left(ds, "datasetProfile"), left(other, "datasetProfile")}); diff != "" {
		t.Errorf("after the first batch, the oldest 3 of those <= 5 (-want +got):\n%s", diff)
	}
	clk.Advance(time.Second)
	if st, ok := c.Task(ref); !ok || !st.Completed || st.Deleted != 5 || st.Batches != 2 {
		t.Errorf("Task = %+v, %t; want completed, 5 deleted in 2 batches", st, ok)
	}
	if diff := cmp.Diff([][]int64{{6}, {7}, {1}}, [][]int64{left(ds, "datasetProfile"), left(other, "datasetProfile"), left(ds, "datasetUsageStatistics")}); diff != "" {
		t.Errorf("after all those <= 5 (-want +got):\n%s", diff)
	}
	if n := c.IndexedTimeseries("dataset", "datasetProfile"); n != 2 {
		t.Errorf("the index keeps %d documents, want 2", n)
	}
}

func TestTruncationBatch(t *testing.T) {
	t.Parallel()
	ms := []int64{3, 0, 2, 0, 9, 1}
	for _, c := range []struct {
		end   int64
		limit int
		want  string
	}{
		{2, 0, "[1 3 5 2]"}, // at or before 2, oldest first, ties in the order given
		{2, 3, "[1 3 5]"},
		{-1, 0, "[]"},
		{9, 1, "[1]"},
	} {
		if got := fmt.Sprint(gms.TruncationBatch(c.end, c.limit)(ms)); got != c.want {
			t.Errorf("TruncationBatch(%d, %d) = %s, want %s", c.end, c.limit, got, c.want)
		}
	}
}
