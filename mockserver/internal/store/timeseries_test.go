package store

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const profile = "datasetProfile"

// tsWrite is a datasetProfile document at ms; extra is more JSON members.
func tsWrite(ms int64, extra string) Write {
	v := fmt.Sprintf(`{"timestampMillis":%d`, ms)
	if extra != "" {
		v += "," + extra
	}
	return Write{URN: dsURN, Aspect: profile, Value: json.RawMessage(v + "}"),
		Timeseries: true, KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)}
}

func TestTimeseries(t *testing.T) {
	t.Parallel()
	// Documents as (timestampMillis, rowCount) pairs; rowCount tells writes apart.
	writes := []Write{
		tsWrite(3000, `"rowCount":1`),
		tsWrite(1000, `"rowCount":2`),
		tsWrite(2000, `"rowCount":3`),
		tsWrite(5000, `"rowCount":4`),
		tsWrite(2000, `"rowCount":5`),                  // replaces rowCount 3: same identity
		tsWrite(2000, `"rowCount":6,"messageId":"m1"`), // another document
		tsWrite(4000, `"rowCount":7,"partitionSpec":{"partition":"p1","type":"PARTITION"}`),
		tsWrite(4000, `"rowCount":8,"partitionSpec":{"type":"PARTITION","partition":"p1"}`), // same spec, other key order: replaces 7
		tsWrite(4000, `"rowCount":9,"partitionSpec":{"partition":"p2","type":"PARTITION"}`),
		tsWrite(-500, `"rowCount":10`),
	}
	tests := []struct {
		name       string
		start, end int64
		limit      int
		want       []string
	}{
		{"all newest first", 0, 0, 0, []string{"5000:4", "4000:9", "4000:8", "3000:1", "2000:6", "2000:5", "1000:2", "-500:10"}},
		{"inclusive range", 2000, 4000, 0, []string{"4000:9", "4000:8", "3000:1", "2000:6", "2000:5"}},
		{"open start", 0, 1000, 0, []string{"1000:2", "-500:10"}},
		{"open end", 3000, 0, 0, []string{"5000:4", "4000:9", "4000:8", "3000:1"}},
		{"limit keeps the newest", 0, 0, 3, []string{"5000:4", "4000:9", "4000:8"}},
		{"empty range", 3001, 3999, 0, nil},
	}
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		// One at a time and as one batch must give the same documents.
		for _, w := range writes[:5] {
			res := mustApply(t, s, w)
			if diff := cmp.Diff([]Result{{}}, res); diff != "" {
				t.Errorf("timeseries result (-want +got):\n%s", diff)
			}
		}
		mustApply(t, s, writes[5:]...)
		for _, tc := range tests {
			docs, err := s.Timeseries(dsURN, profile, tc.start, tc.end, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range docs {
				var v struct{ RowCount int }
				if err := json.Unmarshal(d.Value, &v); err != nil {
					t.Fatal(err)
				}
				if d.URN != dsURN || d.Aspect != profile {
					t.Errorf("doc names %s %s", d.URN, d.Aspect)
				}
				got = append(got, fmt.Sprintf("%d:%d", d.TimestampMillis, v.RowCount))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: Timeseries(%d, %d, %d) (-want +got):\n%s", tc.name, tc.start, tc.end, tc.limit, diff)
			}
		}
		// Timeseries writes are not versioned, but the first one wrote the key aspect.
		if _, err := s.Get(dsURN, profile, 0); err == nil {
			t.Error("timeseries aspect readable as a versioned row")
		}
		if !s.Exists(dsURN) {
			t.Error("entity does not exist after a timeseries write")
		}
		docs, _ := s.Timeseries(dsURN, profile, 5000, 5000, 0)
		if len(docs) != 1 {
			t.Fatalf("got %d docs at 5000", len(docs))
		}
		sm := sysMeta(t, docs[0].SystemMetadata)
		if diff := cmp.Diff(map[string]any{"schemaVersion": float64(1),
			"lastObserved": float64(t0.Add(3 * 1e9).UnixMilli())}, sm); diff != "" {
			t.Errorf("document systemMetadata (-want +got):\n%s", diff)
		}
		if other, _ := s.Timeseries(dsURN, "datasetUsageStatistics", 0, 0, 0); len(other) != 0 {
			t.Errorf("other aspect has %d docs", len(other))
		}
	})
}

// TestTimeseriesIdentityCaseSensitive checks that a document's identity
// (timestampMillis, messageId, ...) is read from the exact member names, as
// a Pegasus DataMap does, not matched case-insensitively as encoding/json
// matches struct fields.
func TestTimeseriesIdentityCaseSensitive(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		mustApply(t, s,
			tsWrite(1000, `"TimestampMillis":2000`),
			tsWrite(3000, `"timestampmillis":null,"rowCount":1`),
			tsWrite(3000, `"MessageId":"m1","rowCount":2`), // same identity as the one before: replaces it
		)
		docs, err := s.Timeseries(dsURN, profile, 0, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range docs {
			got = append(got, fmt.Sprintf("%d %s", d.TimestampMillis, d.Value))
		}
		want := []string{`3000 {"timestampMillis":3000,"MessageId":"m1","rowCount":2}`, `1000 {"timestampMillis":1000,"TimestampMillis":2000}`}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("documents (-want +got):\n%s", diff)
		}
	})
}
