package store

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

func TestDeleteDocuments(t *testing.T) {
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
	// The store offers pick the dataset documents in key order and removes
	// those it picks, in its order; which ones is the caller's rule.
	var seen []int64
	n, err := s.DeleteDocuments("urn:li:dataset:", "datasetProfile", func(ms []int64) []int {
		seen = ms
		return []int{0, 4, 1} // a@0, b@0, a@1
	})
	if err != nil || n != 3 {
		t.Fatalf("DeleteDocuments = %d, %v", n, err)
	}
	if fmt.Sprint(seen) != "[0 1 2 3 0 1 2 3]" {
		t.Errorf("pick saw %v, want a's then b's timestamps", seen)
	}
	var got []string
	for e, ok := sub.TryNext(); ok; e, ok = sub.TryNext() {
		got = append(got, fmt.Sprintf("%s %s@%d", e.Kind, e.URN, e.Doc.TimestampMillis))
	}
	want := []string{"deleteTimeseries urn:li:dataset:a@0", "deleteTimeseries urn:li:dataset:b@0", "deleteTimeseries urn:li:dataset:a@1"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events = %v, want %v", got, want)
	}
	// a@2 and b@1, b@2 (indexes into a@2 a@3 b@1 b@2 b@3).
	if n, err = s.DeleteDocuments("urn:li:dataset:", "datasetProfile", func([]int64) []int { return []int{0, 2, 3} }); err != nil || n != 3 {
		t.Errorf("second DeleteDocuments = %d, %v", n, err)
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
