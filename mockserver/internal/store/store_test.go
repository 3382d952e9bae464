package store

import (
	"encoding/json"
	"errors"
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

func upsert(value string) Write {
	return Write{URN: dsURN, EntityType: "dataset", Aspect: props, Value: json.RawMessage(value),
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
			{-1, "b", "2", t0.Add(time.Second)},
		}
		var gotRows []row
		for _, v := range []int64{0, 1, 2, -1} {
			gotRows = append(gotRows, read(v))
		}
		gotRows[3].Version = -1
		want[3].Version = -1
		if diff := cmp.Diff(want, gotRows); diff != "" {
			t.Errorf("rows (-want +got):\n%s", diff)
		}
		if _, err := s.Get(dsURN, props, 3); !errors.Is(err, ErrNotFound) {
			t.Errorf("Get version 3: err = %v, want ErrNotFound", err)
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
	})
}
