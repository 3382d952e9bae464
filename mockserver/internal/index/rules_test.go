package index

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// testRules are store rules for the index's tests (the rules core imports
// this package, so its Rules cannot be used here): a timeseries document is
// keyed by its timestampMillis and its whole value, a write of the latest
// value makes no new version, systemMetadata is kept as it comes.
type testRules struct{}

func (testRules) Received(w *store.Write, _ int64, dst []jsonx.Member) (string, []jsonx.Member, error) {
	if len(w.SystemMetadata) == 0 {
		return w.Actor, dst, nil
	}
	ms, ok := jsonx.ObjectMembers(w.SystemMetadata)
	if !ok {
		return "", nil, fmt.Errorf("%s %s: systemMetadata is not an object", w.URN, w.Aspect)
	}
	return w.Actor, append(dst, ms...), nil
}

func (testRules) First(dst, sm []jsonx.Member) []jsonx.Member { return append(dst[:0], sm...) }

func (testRules) Next(_, sm []jsonx.Member, _ int64, _ []byte) []jsonx.Member { return sm }

func (testRules) Unchanged(current, next json.RawMessage, _, _ uint64) bool {
	return string(current) == string(next)
}

func (testRules) Same(prev, _ []jsonx.Member) []jsonx.Member { return prev }

func (testRules) Document(w *store.Write) (int64, []json.RawMessage, error) {
	var d struct {
		TimestampMillis *int64 `json:"timestampMillis"`
	}
	if err := json.Unmarshal(w.Value, &d); err != nil || d.TimestampMillis == nil {
		return 0, nil, fmt.Errorf("%s %s: no timestampMillis", w.URN, w.Aspect)
	}
	return *d.TimestampMillis, []json.RawMessage{jsonx.Canonical(w.Value)}, nil
}

func (testRules) ReadVersion(highest, v int64) int64 { return highest + v + 1 }

// truncationBatch is the rules core's choice of one truncation batch's
// documents: timestamped at or before endMillis, the oldest first, at most
// limit (0: all).
func truncationBatch(endMillis int64, limit int) func(timestamps []int64) []int {
	return func(timestamps []int64) []int {
		var old []int
		for i, ms := range timestamps {
			if ms <= endMillis {
				old = append(old, i)
			}
		}
		slices.SortStableFunc(old, func(a, b int) int { return cmp.Compare(timestamps[a], timestamps[b]) })
		if limit > 0 && len(old) > limit {
			old = old[:limit]
		}
		return old
	}
}
