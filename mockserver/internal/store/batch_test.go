package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAtomicBatch(t *testing.T) {
	t.Parallel()
	item := func(n int) Write {
		return Write{URN: urnN(n), Aspect: props, Value: json.RawMessage(`{"description":"new"}`),
			KeyAspect: dsKey, KeyValue: json.RawMessage(`{}`)}
	}
	tests := []struct {
		name   string
		third  Write // item 3 (index 2)
		isCond bool
	}{
		{"failed check", func() Write { w := item(0); w.Check = ifVersion("5"); return w }(), true},
		{"failed transform", func() Write {
			w := item(0)
			w.Transform = func(json.RawMessage) (json.RawMessage, error) { return nil, errStale }
			return w
		}(), true},
		{"invalid value", func() Write { w := item(3); w.Value = json.RawMessage(`nope`); return w }(), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
				s := open(stepClock())
				// urnN(0) exists with one version and one timeseries document.
				seed := item(0)
				seed.Value = json.RawMessage(`{"description":"old"}`)
				mustApply(t, s, seed, Write{URN: urnN(0), Aspect: profile, Value: json.RawMessage(`{"timestampMillis":1}`), Timeseries: true})
				before := allRows(t, s)

				ts := Write{URN: urnN(1), Aspect: profile, Value: json.RawMessage(`{"timestampMillis":2}`), Timeseries: true,
					KeyAspect: dsKey, KeyValue: json.RawMessage(`{}`)}
				batch := []Write{item(1), ts, tc.third, item(4), item(0)}
				sub := s.Subscribe()
				res, err := s.Apply(batch)
				if err == nil {
					t.Fatalf("Apply succeeded: %v", res)
				}
				var ce *CheckError
				if errors.As(err, &ce) != tc.isCond {
					t.Fatalf("err = %v, CheckError %v", err, tc.isCond)
				}
				if tc.isCond && ce.Index != 2 {
					t.Errorf("CheckError.Index = %d, want 2", ce.Index)
				}
				if diff := cmp.Diff(before, allRows(t, s)); diff != "" {
					t.Errorf("rows changed by a failed batch (-before +after):\n%s", diff)
				}
				docs, _ := s.Timeseries(urnN(1), profile, 0, 0, 0)
				if changes := len(drain(sub)); len(docs) != 0 || s.Exists(urnN(1)) || changes != 0 {
					t.Errorf("failed batch left docs=%d exists=%v changes=%d", len(docs), s.Exists(urnN(1)), changes)
				}
				// The same batch without the bad item goes through whole.
				res = mustApply(t, s, batch[0], batch[1], batch[3], batch[4])
				if diff := cmp.Diff([]Result{{Version: "1"}, {}, {Version: "1"}, {Version: "2"}}, res); diff != "" {
					t.Errorf("results (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// TestInnerBatchVersions checks that items of one batch see earlier items:
// three writes of one aspect in one batch make versions 1, 2 and 3.
func TestInnerBatchVersions(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		w2 := upsert(`{"description":"b"}`)
		w2.Check = ifVersion("1")
		res := mustApply(t, s, upsert(`{"description":"a"}`), w2, upsert(`{"description":"c"}`))
		if diff := cmp.Diff([]Result{{Version: "1"}, {Version: "2"}, {Version: "3"}}, res); diff != "" {
			t.Errorf("results (-want +got):\n%s", diff)
		}
		if a := mustGet(t, s, dsURN, props, 2); string(a.Value) != `{"description":"b"}` {
			t.Errorf("history row 2 = %s", a.Value)
		}
	})
}

func TestConcurrentWriters(t *testing.T) {
	t.Parallel()
	const writers = 32
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(nil)
		var wg sync.WaitGroup
		versions := make([]string, writers)
		errs := make([]error, writers)
		for i := range writers {
			wg.Go(func() {
				res, err := s.Apply([]Write{upsert(fmt.Sprintf(`{"description":"writer %d"}`, i))})
				if err == nil {
					versions[i] = res[0].Version
				}
				errs[i] = err
			})
		}
		// Readers run alongside and must only ever see whole rows.
		for range 4 {
			wg.Go(func() {
				for range 50 {
					if a, err := s.Get(dsURN, props, 0); err == nil && !json.Valid(a.Value) {
						t.Errorf("torn read: %s", a.Value)
					}
					allRows(t, s)
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		// Every writer got a distinct version, 1..32 with no gap.
		seen := map[string]bool{}
		for _, v := range versions {
			seen[v] = true
		}
		want := map[string]bool{}
		for v := 1; v <= writers; v++ {
			want[strconv.Itoa(v)] = true
		}
		if diff := cmp.Diff(want, seen); diff != "" {
			t.Errorf("versions handed out (-want +got):\n%s", diff)
		}
		// Row n holds the value that was given version n, and every value is kept once.
		values := map[string]bool{}
		for v := int64(0); v < writers; v++ {
			a := mustGet(t, s, dsURN, props, v)
			wantVer := strconv.FormatInt(v, 10)
			if v == 0 {
				wantVer = strconv.Itoa(writers)
			}
			if got := sysMeta(t, a.SystemMetadata)["version"]; got != wantVer {
				t.Errorf("row %d has systemMetadata.version %v, want %s", v, got, wantVer)
			}
			var val struct{ Description string }
			_ = json.Unmarshal(a.Value, &val)
			i, _ := strconv.Atoi(val.Description[len("writer "):])
			if versions[i] != wantVer {
				t.Errorf("row %d holds writer %d, which was told version %s", v, i, versions[i])
			}
			values[val.Description] = true
		}
		if len(values) != writers {
			t.Errorf("%d distinct values kept, want %d", len(values), writers)
		}
		if _, err := s.Get(dsURN, props, writers); !errors.Is(err, ErrNotFound) {
			t.Errorf("row %d exists: %v", writers, err)
		}
	})
}

// TestConcurrentCompareAndSwap runs 32 read-modify-write loops guarded by
// If-Version-Match on one counter; no increment may be lost.
func TestConcurrentCompareAndSwap(t *testing.T) {
	t.Parallel()
	const workers = 32
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(nil)
		mustApply(t, s, upsert(`{"customProperties":{"n":"0"}}`))
		var wg sync.WaitGroup
		conflicts := make([]int, workers)
		for i := range workers {
			wg.Go(func() {
				for {
					a, err := s.Get(dsURN, props, 0)
					if err != nil {
						t.Error(err)
						return
					}
					var v struct{ CustomProperties map[string]string }
					_ = json.Unmarshal(a.Value, &v)
					n, _ := strconv.Atoi(v.CustomProperties["n"])
					w := upsert(fmt.Sprintf(`{"customProperties":{"n":"%d"}}`, n+1))
					w.Check = ifVersion(sysMeta(t, a.SystemMetadata)["version"].(string))
					_, err = s.Apply([]Write{w})
					if errors.Is(err, errStale) {
						conflicts[i]++
						continue
					}
					if err != nil {
						t.Error(err)
					}
					return
				}
			})
		}
		wg.Wait()
		a := mustGet(t, s, dsURN, props, 0)
		var v struct{ CustomProperties map[string]string }
		_ = json.Unmarshal(a.Value, &v)
		got := []string{v.CustomProperties["n"], sysMeta(t, a.SystemMetadata)["version"].(string)}
		if diff := cmp.Diff([]string{strconv.Itoa(workers), strconv.Itoa(workers + 1)}, got); diff != "" {
			t.Errorf("counter and version (-want +got):\n%s", diff)
		}
	})
}

func TestDeleteEntity(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		other := "urn:li:dataset:(urn:li:dataPlatform:hive,db.t2,PROD)"
		prefixTwin := dsURN + "x" // shares a string prefix, must survive
		mustApply(t, s, upsert(`{"description":"a"}`), upsert(`{"description":"b"}`), upsert(`{"description":"c"}`),
			Write{URN: dsURN, Aspect: "status", Value: json.RawMessage(`{"removed":false}`)},
			tsWrite(1, ""), tsWrite(2, ""),
			Write{URN: other, Aspect: props, Value: json.RawMessage(`{}`), KeyAspect: dsKey, KeyValue: json.RawMessage(`{}`)},
			Write{URN: prefixTwin, Aspect: props, Value: json.RawMessage(`{}`), KeyAspect: dsKey, KeyValue: json.RawMessage(`{}`)},
			Write{URN: other, Aspect: profile, Value: json.RawMessage(`{"timestampMillis":1}`), Timeseries: true})
		// dsURN rows: key v0; props v0, v1, v2; status v0 = 5; docs = 2.
		rows, docs, err := s.DeleteEntity(dsURN)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]int{5, 2}, []int{rows, docs}); diff != "" {
			t.Errorf("deleted rows, docs (-want +got):\n%s", diff)
		}
		if s.Exists(dsURN) {
			t.Error("entity exists after DeleteEntity")
		}
		for _, v := range []int64{0, 1, 2} {
			if _, err := s.Get(dsURN, props, v); !errors.Is(err, ErrNotFound) {
				t.Errorf("version %d survived: %v", v, err)
			}
		}
		if got, _ := s.Timeseries(dsURN, profile, 0, 0, 0); len(got) != 0 {
			t.Errorf("%d documents survived", len(got))
		}
		if !s.Exists(other) || !s.Exists(prefixTwin) || len(allRows(t, s)) != 4 {
			t.Errorf("other entities touched: %v %v %d", s.Exists(other), s.Exists(prefixTwin), len(allRows(t, s)))
		}
		if got, _ := s.Timeseries(other, profile, 0, 0, 0); len(got) != 1 {
			t.Errorf("other entity's documents: %d", len(got))
		}
		rows, docs, err = s.DeleteEntity(dsURN)
		if err != nil || rows != 0 || docs != 0 {
			t.Errorf("second DeleteEntity = %d, %d, %v", rows, docs, err)
		}
		// A new write starts again at version 1 and writes the key aspect again.
		if res := mustApply(t, s, upsert(`{"description":"again"}`)); res[0].Version != "1" || !s.Exists(dsURN) {
			t.Errorf("after delete: version %s, exists %v", res[0].Version, s.Exists(dsURN))
		}
	})
}
