package store

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
)

// DeleteTimeseries removes at most limit documents (0: all) of the
// timeseries aspect whose URN starts with urnPrefix and whose
// timestampMillis <= endMillis, the oldest first, as the delete-by-query of
// GMS's truncateTimeseriesAspect does in Elasticsearch. It returns how many
// it removed; each removal is reported as an [EventDeleteTimeseries].
func (s *Store) DeleteTimeseries(urnPrefix, aspect string, endMillis int64, limit int) (int, error) {
	type hit struct {
		key []byte
		ms  int64
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	err := s.update(s.clock(), func(t txn) error {
		var hits []hit
		err := t.scan(timeseriesDocs, nil, nil, func(k, _ []byte) (bool, error) {
			u, a, ms, ok := parseTSKey(k)
			if ok && a == aspect && ms <= endMillis && strings.HasPrefix(u, urnPrefix) {
				hits = append(hits, hit{bytes.Clone(k), ms})
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(a.ms, b.ms) })
		if limit > 0 && len(hits) > limit {
			hits = hits[:limit]
		}
		for _, h := range hits {
			if err := t.del(timeseriesDocs, h.key); err != nil {
				return err
			}
		}
		n = len(hits)
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
