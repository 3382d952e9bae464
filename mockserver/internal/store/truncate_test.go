package store

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

func TestDeleteTimeseries(t *testing.T) {
	t.Parallel()
	s := OpenMemory(func() time.Time { return time.UnixMilli(1) })
	defer s.Close()
	sub := s.Subscribe()
	defer sub.Close()
	var ws []Write
	for _, u := range []string{"urn:li:dataset:a", "urn:li:dataset:b", "urn:li:chart:c"} {
		for ms := range 4 {
			ws = append(ws, Write{URN: u, Aspect: "datasetProfile", Timeseries: true, Value: json.RawMessage(fmt.Sprintf(`{"timestampMillis":%d}`, ms))})
		}
	}
	if _, err := s.Apply(ws); err != nil {
		t.Fatal(err)
	}
	for sub.Len() > 0 {
		sub.TryNext()
	}
	// Oldest first across URNs: a@0, b@0, a@1 go first.
	n, err := s.DeleteTimeseries("urn:li:dataset:", "datasetProfile", 2, 3)
	if err != nil || n != 3 {
		t.Fatalf("DeleteTimeseries = %d, %v", n, err)
	}
	var got []string
	for e, ok := sub.TryNext(); ok; e, ok = sub.TryNext() {
		got = append(got, fmt.Sprintf("%s %s@%d", e.Kind, e.URN, e.Doc.TimestampMillis))
	}
	want := []string{"deleteTimeseries urn:li:dataset:a@0", "deleteTimeseries urn:li:dataset:b@0", "deleteTimeseries urn:li:dataset:a@1"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events = %v, want %v", got, want)
	}
	if n, err = s.DeleteTimeseries("urn:li:dataset:", "datasetProfile", 2, 0); err != nil || n != 3 {
		t.Errorf("second DeleteTimeseries = %d, %v; want the 3 left up to 2", n, err)
	}
	for _, c := range []struct {
		urn  string
		want int
	}{{"urn:li:dataset:a", 1}, {"urn:li:dataset:b", 1}, {"urn:li:chart:c", 4}} {
		docs, _ := s.Timeseries(c.urn, "datasetProfile", 0, 0, 0)
		if len(docs) != c.want {
			t.Errorf("%s keeps %d documents, want %d", c.urn, len(docs), c.want)
		}
	}
}
