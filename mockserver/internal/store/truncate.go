package store

import (
	"bytes"
	"strings"
)

// DeleteDocuments removes documents of the timeseries aspect whose URN
// starts with urnPrefix, inside one transaction: pick gets the timestamps of
// every such document (in key order) and returns the indexes of those to
// remove, each once. It returns how many it removed; each removal is reported as an
// [EventDeleteTimeseries].
func (s *Store) DeleteDocuments(urnPrefix, aspect string, pick func(timestamps []int64) []int) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	err := s.update(s.clock(), func(t txn) error {
		var keys [][]byte
		var ms []int64
		err := t.scan(timeseriesDocs, nil, nil, func(k, _ []byte) (bool, error) {
			u, a, at, ok := parseTSKey(k)
			if ok && a == aspect && strings.HasPrefix(u, urnPrefix) {
				keys, ms = append(keys, bytes.Clone(k)), append(ms, at)
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		for _, i := range pick(ms) {
			if err := t.del(timeseriesDocs, keys[i]); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
