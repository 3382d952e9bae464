package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const (
	dsURN  = "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
	dsKey  = "datasetKey"
	dsKeyV = `{"platform":"urn:li:dataPlatform:hive","name":"db.t","origin":"PROD"}`
	props  = "datasetProperties"
)

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// stepClock returns a clock that advances one second per call, from t0.
func stepClock() Clock {
	var n atomic.Int64
	return func() time.Time { return t0.Add(time.Duration(n.Add(1)-1) * time.Second) }
}

// backendCase opens a fresh store of one kind.
type backendCase struct {
	name string
	open func(t testing.TB, clock Clock) *Store
}

var backends = []backendCase{
	{"memory", func(t testing.TB, clock Clock) *Store {
		s := OpenMemory(clock)
		t.Cleanup(func() { _ = s.Close() })
		return s
	}},
	{"bolt", func(t testing.TB, clock Clock) *Store {
		s, err := OpenBolt(filepath.Join(t.TempDir(), "store.db"), clock)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}},
}

// forEachBackend runs f as a parallel subtest against every backend.
func forEachBackend(t *testing.T, f func(t *testing.T, open func(Clock) *Store)) {
	t.Helper()
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			f(t, func(c Clock) *Store { return b.open(t, c) })
		})
	}
}

// errStale is the failure of an ifVersion check.
var errStale = errors.New("stale version")

// ifVersion is a Check that passes when the aspect's version is want ("-1":
// absent), a test's If-Version-Match.
func ifVersion(want string) func(Current) error {
	return func(c Current) error {
		have := "-1"
		if c.Exists {
			have = c.Version
		}
		if have != want {
			return fmt.Errorf("%w: want %s, have %s", errStale, want, have)
		}
		return nil
	}
}

func upsert(value string) Write {
	return Write{URN: dsURN, Aspect: props, Value: json.RawMessage(value),
		KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)}
}

func mustApply(t testing.TB, s *Store, ws ...Write) []Result {
	t.Helper()
	res, err := s.Apply(ws)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return res
}

func mustGet(t testing.TB, s *Store, urn, aspect string, version int64) Aspect {
	t.Helper()
	a, err := s.Get(urn, aspect, version)
	if err != nil {
		t.Fatalf("Get(%s, %s, %d): %v", urn, aspect, version, err)
	}
	return a
}

// sysMeta decodes a systemMetadata object.
func sysMeta(t testing.TB, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("systemMetadata %s: %v", raw, err)
	}
	return m
}

func TestVersionNumbering(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		var got []string
		for _, d := range []string{"a", "b", "c"} {
			res := mustApply(t, s, upsert(`{"description":"`+d+`","customProperties":{}}`))
			got = append(got, res[0].Version)
		}
		if diff := cmp.Diff([]string{"1", "2", "3"}, got); diff != "" {
			t.Errorf("versions (-want +got):\n%s", diff)
		}
		type row struct {
			Version     int64
			Description string
			SMVersion   string
			CreatedOn   time.Time
		}
		read := func(v int64) row {
			a := mustGet(t, s, dsURN, props, v)
			var val struct{ Description string }
			_ = json.Unmarshal(a.Value, &val)
			sm := sysMeta(t, a.SystemMetadata)
			return row{a.Version, val.Description, sm["version"].(string), a.CreatedOn}
		}
		// Clock calls: one per Apply, so write n happens at t0+(n-1)s.
		want := []row{
			{0, "c", "3", t0.Add(2 * time.Second)},
			{1, "a", "1", t0},
			{2, "b", "2", t0.Add(time.Second)},
			{2, "b", "2", t0.Add(time.Second)}, // -1: the newest history row
		}
		var gotRows []row
		for _, v := range []int64{0, 1, 2, -1} {
			gotRows = append(gotRows, read(v))
		}
		if diff := cmp.Diff(want, gotRows); diff != "" {
			t.Errorf("rows (-want +got):\n%s", diff)
		}
		for _, v := range []int64{3, -4} {
			if _, err := s.Get(dsURN, props, v); !errors.Is(err, ErrNotFound) {
				t.Errorf("Get version %d: err = %v, want ErrNotFound", v, err)
			}
		}
		if a := mustGet(t, s, dsURN, props, -3); a.Version != 0 {
			t.Errorf("Get(-3) read version %d, want 0 (max 2 - 3 + 1)", a.Version)
		}
		// Without history, -1 is the latest row.
		if a := mustGet(t, s, dsURN, dsKey, -1); a.Version != 0 || string(a.Value) != dsKeyV {
			t.Errorf("Get(key, -1) = version %d %s", a.Version, a.Value)
		}
		// The key aspect was written once, with the first write.
		key := mustGet(t, s, dsURN, dsKey, 0)
		if diff := cmp.Diff(dsKeyV, string(key.Value)); diff != "" {
			t.Errorf("key value (-want +got):\n%s", diff)
		}
		if _, err := s.Get(dsURN, dsKey, 1); !errors.Is(err, ErrNotFound) {
			t.Errorf("key aspect has history: %v", err)
		}
		if !s.Exists(dsURN) {
			t.Error("Exists = false after first write")
		}
		other := "urn:li:dataset:(urn:li:dataPlatform:hive,never.written,PROD)"
		if got := s.ExistAll([]string{other, dsURN, dsURN}); !cmp.Equal(got, []bool{false, true, true}) {
			t.Errorf("ExistAll = %v, want [false true true]", got)
		}
	})
}

// TestSystemMetadataAcrossVersions follows systemMetadata through three
// changing writes: the first stores the write's own, later ones keep the
// stored object and take only run fields, version and audit stamps.
func TestSystemMetadataAcrossVersions(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		writes := []struct{ actor, sm string }{
			{"urn:li:corpuser:a", `{"runId":"r1","properties":{"clientId":"x"}}`},
			{"urn:li:corpuser:b", `{"runId":"r2","lastObserved":1700000000000,"properties":{"clientId":"y"},"pipelineName":"p"}`},
			{"", ""},
		}
		for i, wr := range writes {
			w := upsert(fmt.Sprintf(`{"description":"v%d"}`, i+1))
			w.Actor = wr.actor
			if wr.sm != "" {
				w.SystemMetadata = json.RawMessage(wr.sm)
			}
			mustApply(t, s, w)
		}
		type row struct {
			CreatedBy string
			CreatedOn time.Time
			SM        map[string]any
		}
		var got []row
		for _, v := range []int64{1, 2, 0} {
			a := mustGet(t, s, dsURN, props, v)
			got = append(got, row{a.CreatedBy, a.CreatedOn, sysMeta(t, a.SystemMetadata)})
		}
		ms := func(n int) float64 { return float64(t0.Add(time.Duration(n) * time.Second).UnixMilli()) }
		stamp := func(n int, actor string) map[string]any { return map[string]any{"time": ms(n), "actor": actor} }
		clientX := map[string]any{"clientId": "x"}
		want := []row{
			{"urn:li:corpuser:a", t0, map[string]any{"schemaVersion": float64(1), "runId": "r1", "lastObserved": ms(0), "version": "1",
				"properties": clientX, "aspectModified": stamp(0, "urn:li:corpuser:a"), "aspectCreated": stamp(0, "urn:li:corpuser:a")}},
			{"urn:li:corpuser:b", t0.Add(time.Second), map[string]any{"schemaVersion": float64(1), "runId": "r2", "lastRunId": "r1", "lastObserved": float64(1700000000000), "version": "2",
				"properties": clientX, "aspectModified": stamp(1, "urn:li:corpuser:b"), "aspectCreated": stamp(0, "urn:li:corpuser:a")}},
			{DefaultActor, t0.Add(2 * time.Second), map[string]any{"schemaVersion": float64(1), "runId": DefaultRunID, "lastRunId": "r2", "lastObserved": ms(2), "version": "3",
				"properties": clientX, "aspectModified": stamp(1, "urn:li:corpuser:b"), "aspectCreated": stamp(0, "urn:li:corpuser:a")}},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("rows 1, 2, 0 (-want +got):\n%s", diff)
		}
	})
}

func TestUnchangedWrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		firstSM     string // systemMetadata of the first write; "" = the usual one
		second      Write
		wantResult  Result
		wantSM      map[string]any
		wantChanges int // upsert events of the second write
	}{
		{
			name:       "identical value and metadata writes nothing",
			second:     withSM(upsert(`{"customProperties":{},"description":"d"}`), `{"runId":"r1","lastObserved":5}`),
			wantResult: Result{Version: "1", Unchanged: true},
			wantSM:     map[string]any{"schemaVersion": float64(1), "runId": "r1", "lastRunId": "r1", "lastObserved": float64(5), "version": "1"},
		},
		{
			name:       "same data in another key order is the same value",
			second:     withSM(upsert(`{"description": "d", "customProperties": {}}`), `{"runId":"r1","lastObserved":5}`),
			wantResult: Result{Version: "1", Unchanged: true},
			wantSM:     map[string]any{"schemaVersion": float64(1), "runId": "r1", "lastRunId": "r1", "lastObserved": float64(5), "version": "1"},
		},
		{
			name:        "identical rewrite records the stored runId as lastRunId",
			firstSM:     `{"runId":"r1","lastObserved":5}`,
			second:      withSM(upsert(`{"customProperties":{},"description":"d"}`), `{"runId":"r1","lastObserved":5}`),
			wantResult:  Result{Version: "1", Unchanged: true},
			wantSM:      map[string]any{"schemaVersion": float64(1), "runId": "r1", "lastRunId": "r1", "lastObserved": float64(5), "version": "1"},
			wantChanges: 1,
		},
		{
			name:        "new run refreshes system metadata in place",
			second:      withSM(upsert(`{"customProperties":{},"description":"d"}`), `{"runId":"r2","lastObserved":9}`),
			wantResult:  Result{Version: "1", Unchanged: true},
			wantSM:      map[string]any{"schemaVersion": float64(1), "runId": "r2", "lastRunId": "r1", "lastObserved": float64(9), "version": "1"},
			wantChanges: 1,
		},
		{
			name:        "changed value makes version 2",
			second:      withSM(upsert(`{"customProperties":{},"description":"e"}`), `{"runId":"r1","lastObserved":5}`),
			wantResult:  Result{Version: "2"},
			wantSM:      map[string]any{"schemaVersion": float64(1), "runId": "r1", "lastRunId": "r1", "lastObserved": float64(5), "version": "2"},
			wantChanges: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
				s := open(stepClock())
				first := `{"runId":"r1","lastRunId":"r1","lastObserved":5}`
				if tc.firstSM != "" {
					first = tc.firstSM
				}
				mustApply(t, s, withSM(upsert(`{"customProperties":{},"description":"d"}`), first))
				sub := s.Subscribe()
				res := mustApply(t, s, tc.second)
				changes := len(drain(sub))
				if diff := cmp.Diff([]Result{tc.wantResult}, res); diff != "" {
					t.Errorf("result (-want +got):\n%s", diff)
				}
				a := mustGet(t, s, dsURN, props, 0)
				if diff := cmp.Diff(tc.wantSM, sysMeta(t, a.SystemMetadata)); diff != "" {
					t.Errorf("latest systemMetadata (-want +got):\n%s", diff)
				}
				if changes != tc.wantChanges {
					t.Errorf("events = %d, want %d", changes, tc.wantChanges)
				}
				_, err := s.Get(dsURN, props, 1)
				if hasHistory := err == nil; hasHistory != (tc.wantResult.Version == "2") {
					t.Errorf("history row 1 present = %v, want %v", hasHistory, tc.wantResult.Version == "2")
				}
			})
		})
	}
}

func withSM(w Write, sm string) Write {
	w.SystemMetadata = json.RawMessage(sm)
	return w
}

func TestLatestAllAndCopies(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		other := "urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)"
		ws := []Write{
			upsert(`{"description":"x"}`),
			{URN: dsURN, Aspect: "status", Value: json.RawMessage(`{"removed":false}`), KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)},
			{URN: other, Aspect: "status", Value: json.RawMessage(`{"removed":true}`), KeyAspect: dsKey, KeyValue: json.RawMessage(`{"name":"db.a"}`)},
		}
		mustApply(t, s, ws...)
		mustApply(t, s, upsert(`{"description":"y"}`))

		names := func(as []Aspect) []string {
			var out []string
			for _, a := range as {
				out = append(out, fmt.Sprintf("%s %s v%d %s", a.URN, a.Name, a.Version, a.Value))
			}
			return out
		}
		latest, err := s.Latest(dsURN)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			dsURN + " " + dsKey + " v0 " + dsKeyV,
			dsURN + " " + props + ` v0 {"description":"y"}`,
			dsURN + ` status v0 {"removed":false}`,
		}
		if diff := cmp.Diff(want, names(latest)); diff != "" {
			t.Errorf("Latest (-want +got):\n%s", diff)
		}
		all := allRows(t, s)
		wantAll := append([]string{
			other + ` datasetKey v0 {"name":"db.a"}`,
			other + ` status v0 {"removed":true}`,
		}, want...)
		if diff := cmp.Diff(wantAll, names(all)); diff != "" {
			t.Errorf("All (-want +got):\n%s", diff)
		}
		if l, err := s.Latest("urn:li:dataset:nothing"); err != nil || len(l) != 0 {
			t.Errorf("Latest(unknown) = %v, %v; want empty", l, err)
		}

		// Returned slices are copies.
		latest[0].Value[2] = 'X'
		all[0].SystemMetadata[0] = 'X'
		if a := mustGet(t, s, dsURN, props, 0); string(a.Value) != `{"description":"y"}` {
			t.Errorf("store changed through a returned slice: %s", a.Value)
		}
		if a := allRows(t, s); string(a[0].SystemMetadata[:1]) != "{" {
			t.Errorf("store changed through All: %s", a[0].SystemMetadata)
		}
	})
}

func TestPutAndEvents(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		sub := s.Subscribe()
		mustApply(t, s, upsert(`{"description":"a"}`))
		created := t0.Add(time.Hour)
		if err := s.Put(Aspect{URN: dsURN, Name: props, Value: json.RawMessage(`{"description":"b"}`),
			CreatedOn: created, CreatedBy: "urn:li:corpuser:put"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Apply([]Write{upsert(`{"description":"c"}`), {URN: dsURN, Aspect: props, Value: json.RawMessage(`{}`), Check: ifVersion("1")}}); err == nil {
			t.Fatal("failing batch succeeded")
		}
		var seen []string
		for _, e := range drain(sub) {
			seen = append(seen, fmt.Sprintf("%d %s %s@%s %s", e.Seq, e.Kind, e.Aspect, sysMeta(t, e.Row.SystemMetadata)["version"], e.Time.Format(time.TimeOnly)))
		}
		want := []string{"1 upsert " + dsKey + "@1 12:00:00", "2 upsert " + props + "@1 12:00:00", "3 upsert " + props + "@2 13:00:00"}
		if diff := cmp.Diff(want, seen); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		a := mustGet(t, s, dsURN, props, 0)
		got := []any{string(a.Value), a.CreatedOn, a.CreatedBy, a.Version}
		if diff := cmp.Diff([]any{`{"description":"b"}`, created, "urn:li:corpuser:put", int64(0)}, got); diff != "" {
			t.Errorf("Put row (-want +got):\n%s", diff)
		}
	})
}

func TestResetAndClose(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		mustApply(t, s, upsert(`{"description":"a"}`), tsWrite(1000, ""))
		if err := s.Reset(); err != nil {
			t.Fatal(err)
		}
		docs, _ := s.Timeseries(dsURN, "datasetProfile", 0, 0, 0)
		if got := []any{len(allRows(t, s)), s.Exists(dsURN), len(docs)}; !cmp.Equal(got, []any{0, false, 0}) {
			t.Errorf("after Reset: rows, exists, docs = %v", got)
		}
		res := mustApply(t, s, upsert(`{"description":"b"}`))
		if res[0].Version != "1" {
			t.Errorf("first write after Reset: version %s, want 1", res[0].Version)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		_, applyErr := s.Apply([]Write{upsert(`{}`)})
		_, getErr := s.Get(dsURN, props, 0)
		_, _, delErr := s.DeleteEntity(dsURN)
		for i, err := range []error{applyErr, getErr, delErr, s.Reset()} {
			if !errors.Is(err, ErrClosed) {
				t.Errorf("call %d after Close: err = %v, want ErrClosed", i, err)
			}
		}
		if all, err := s.All(); s.Exists(dsURN) || all != nil || !errors.Is(err, ErrClosed) {
			t.Errorf("reads after Close: Exists %v, All %d rows, %v; want nothing and ErrClosed", s.Exists(dsURN), len(all), err)
		}
	})
}

func TestInvalidWrites(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		w    Write
	}{
		{"empty urn", Write{Aspect: props, Value: json.RawMessage(`{}`)}},
		{"value not an object", Write{URN: dsURN, Aspect: props, Value: json.RawMessage(`[1]`)}},
		{"value not JSON", Write{URN: dsURN, Aspect: props, Value: json.RawMessage(`{"a":`)}},
		{"systemMetadata not an object", Write{URN: dsURN, Aspect: props, Value: json.RawMessage(`{}`), SystemMetadata: json.RawMessage(`"x"`)}},
		{"bad lastObserved", Write{URN: dsURN, Aspect: props, Value: json.RawMessage(`{}`), SystemMetadata: json.RawMessage(`{"lastObserved":"x"}`)}},
		{"timeseries transform", Write{URN: dsURN, Aspect: "datasetProfile", Value: json.RawMessage(`{"timestampMillis":1}`), Timeseries: true,
			Transform: func(v json.RawMessage) (json.RawMessage, error) { return v, nil }}},
		{"timeseries without timestampMillis", Write{URN: dsURN, Aspect: "datasetProfile", Value: json.RawMessage(`{}`), Timeseries: true}},
		{"bad key value", Write{URN: dsURN, Aspect: props, Value: json.RawMessage(`{}`), KeyAspect: dsKey}},
		// Only space, tab, LF and CR are JSON white space (not bytes.TrimSpace's set).
		{"value with \\v", Write{URN: dsURN, Aspect: props, Value: json.RawMessage("{}\v")}},
		{"value with U+00A0", Write{URN: dsURN, Aspect: props, Value: json.RawMessage("\u00a0{}")}},
		{"systemMetadata null with \\f", Write{URN: dsURN, Aspect: props, Value: json.RawMessage(`{}`), SystemMetadata: json.RawMessage("null\f")}},
		{"systemMetadata with \\v", Write{URN: dsURN, Aspect: props, Value: json.RawMessage(`{}`), SystemMetadata: json.RawMessage("\v{}")}},
		{"key value with \\v", Write{URN: dsURN, Aspect: props, Value: json.RawMessage(`{}`), KeyAspect: dsKey, KeyValue: json.RawMessage("{}\v")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
				s := open(stepClock())
				first := Write{URN: "urn:li:dataset:(urn:li:dataPlatform:hive,db.first,PROD)", Aspect: "status",
					Value: json.RawMessage(`{"removed":false}`), KeyAspect: dsKey, KeyValue: json.RawMessage(`{}`)}
				_, err := s.Apply([]Write{first, tc.w})
				if !errors.Is(err, ErrInvalidWrite) {
					t.Fatalf("err = %v, want ErrInvalidWrite", err)
				}
				if n := len(allRows(t, s)); n != 0 || s.Exists(dsURN) {
					t.Errorf("invalid batch left %d rows (exists %v)", n, s.Exists(dsURN))
				}
			})
		})
	}
}

// TestKeyAspectWrittenDirectly covers writes of the key aspect itself
// (Aspect == KeyAspect, no KeyValue): the entity exists afterwards, a Check
// sees it, and ErrSkip from the Check skips the write.
func TestKeyAspectWrittenDirectly(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		var seen []bool
		key := func(skip bool) Write {
			return Write{URN: dsURN, Aspect: dsKey, KeyAspect: dsKey, Value: json.RawMessage(dsKeyV),
				Check: func(c Current) error {
					seen = append(seen, c.EntityExists)
					if skip && c.EntityExists {
						return ErrSkip
					}
					return nil
				}}
		}
		s := open(stepClock())
		if res := mustApply(t, s, key(false)); res[0].Version != "1" {
			t.Errorf("first write: %+v", res[0])
		}
		if !s.Exists(dsURN) {
			t.Fatal("entity does not exist after writing its key aspect")
		}
		if res := mustApply(t, s, key(true)); !res[0].Skipped {
			t.Errorf("write skipped by its check: %+v", res[0])
		}
		if diff := cmp.Diff([]bool{false, true}, seen); diff != "" {
			t.Errorf("Current.EntityExists (-want +got):\n%s", diff)
		}
		// A non-key aspect without KeyAspect/KeyValue does not create it.
		third := "urn:li:corpuser:nobody"
		mustApply(t, s, Write{URN: third, Aspect: "status", Value: json.RawMessage(`{"removed":false}`)})
		if s.Exists(third) {
			t.Error("entity exists without a key aspect row")
		}
	})
}

// TestCount counts the latest rows of one aspect, filtered by URN.
func TestCount(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		mustApply(t, s, upsert(`{"description":"a"}`), upsert(`{"description":"b"}`))
		for n := range 3 {
			mustApply(t, s, Write{URN: urnN(n), Aspect: props, Value: json.RawMessage(`{}`)})
		}
		if n, err := s.Count(t.Context(), props, nil); n != 4 || err != nil {
			t.Errorf("Count(all) = %d, %v; want 4 (history rows not counted)", n, err)
		}
		if n, err := s.Count(t.Context(), props, func(u string) bool { return u == dsURN }); n != 1 || err != nil {
			t.Errorf("Count(one URN) = %d, %v", n, err)
		}
		if n, err := s.Count(t.Context(), "status", nil); n != 0 || err != nil {
			t.Errorf("Count(status) = %d, %v", n, err)
		}
	})
}

// TestCountStopsWithItsContext: a count stops once its context is done,
// after at most countCheckEvery rows more (the match function counts the
// rows examined). It failed before: Count took no context and scanned
// every row.
func TestCountStopsWithItsContext(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		ws := make([]Write, 5*countCheckEvery)
		for i := range ws {
			ws[i] = Write{URN: urnN(i), Aspect: props, Value: json.RawMessage(`{}`)}
		}
		mustApply(t, s, ws...)
		ctx, cancel := context.WithCancel(t.Context())
		examined := 0
		n, err := s.Count(ctx, props, func(string) bool {
			if examined++; examined == 10 {
				cancel() // the client leaves
			}
			return true
		})
		if !errors.Is(err, context.Canceled) || n != 0 {
			t.Errorf("Count after its context ended = %d, %v; want %v", n, err, context.Canceled)
		}
		if examined > countCheckEvery+10 {
			t.Errorf("%d rows examined, want at most %d after the context ended", examined, countCheckEvery)
		}
		if n, err := s.Count(t.Context(), props, nil); n != len(ws) || err != nil {
			t.Errorf("Count = %d, %v; want %d", n, err, len(ws))
		}
	})
}

// allRows is Store.All for a test (an error fails it).
func allRows(t testing.TB, s *Store) []Aspect {
	t.Helper()
	all, err := s.All()
	if err != nil {
		t.Error(err)
	}
	return all
}

// TestAllReportsCorruptRow: a row that cannot be decoded fails All instead
// of being left out.
func TestAllReportsCorruptRow(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		mustApply(t, s, upsert(`{"description":"a"}`))
		if err := s.kv.update(func(tx txn) error {
			return tx.put(aspectRows, rowKey(urnN(1), props, 0), []byte{rowFormat, 0xff})
		}); err != nil {
			t.Fatal(err)
		}
		if all, err := s.All(); !errors.Is(err, errCorrupt) || all != nil {
			t.Errorf("All = %d rows, %v; want errCorrupt", len(all), err)
		}
	})
}

// Version moves with every committed write whether or not anybody
// subscribes (Seq counts published events only), and not with a refused one.
func TestVersionMovesWithoutSubscribers(t *testing.T) {
	s := OpenMemory(nil)
	defer s.Close()
	v0 := s.Version()
	mustApply(t, s, upsert(`{"name":"a"}`))
	v1 := s.Version()
	if v1 == v0 {
		t.Fatalf("Version stayed at %d after a write with no subscriber", v0)
	}
	if s.Seq() != 0 {
		t.Fatalf("Seq = %d with no subscriber, want 0", s.Seq())
	}
	if _, err := s.Apply([]Write{{URN: dsURN, Aspect: props, Value: json.RawMessage(`[1]`)}}); err == nil {
		t.Fatal("Apply of a non-object value succeeded")
	}
	if v := s.Version(); v != v1 {
		t.Fatalf("Version moved from %d to %d with a refused write", v1, v)
	}
}
