package store

import "slices"

// EachDocument calls fn with a copy of every timeseries document of aspect
// (any URN), in key order, until fn returns false.
func (s *Store) EachDocument(aspect string, fn func(TimeseriesDoc) bool) error {
	err := s.kv.view(func(t txn) error {
		return t.scan(timeseriesDocs, nil, nil, func(k, v []byte) (bool, error) {
			u, a, at, ok := parseTSKey(k)
			if !ok || a != aspect {
				return true, nil
			}
			d, err := decodeDoc(v)
			if err != nil {
				return false, err
			}
			return fn(TimeseriesDoc{URN: u, Aspect: a, TimestampMillis: at, Value: d.Value, SystemMetadata: d.SystemMetadata}), nil
		})
	})
	return mapErr(err)
}

// VersionCount is the number of stored versions of one aspect.
type VersionCount struct {
	URN, Aspect string
	// Versions counts the latest row and the history rows.
	Versions int
}

// VersionCounts returns how many versions every versioned aspect has
// (those of aspect and urn only, when not ""), in the store's row order.
func (s *Store) VersionCounts(urn, aspect string) ([]VersionCount, error) {
	var out []VersionCount
	err := s.kv.view(func(t txn) error {
		var prefix []byte
		switch {
		case urn != "" && aspect != "":
			prefix = aspectPrefix(urn, aspect) // that aspect's rows only
		case urn != "":
			prefix = urnPrefix(urn)
		}
		return t.scan(aspectRows, prefix, nil, func(k, _ []byte) (bool, error) {
			u, a, _, ok := parseRowKey(k)
			if !ok || (urn != "" && u != urn) || (aspect != "" && a != aspect) {
				return true, nil
			}
			if n := len(out); n > 0 && out[n-1].URN == u && out[n-1].Aspect == a {
				out[n-1].Versions++
			} else {
				out = append(out, VersionCount{URN: u, Aspect: a, Versions: 1})
			}
			return true, nil
		})
	})
	if err != nil {
		return nil, mapErr(err)
	}
	return out, nil
}

// TrimHistory removes the oldest history rows of (urn, aspect) so that at
// most keep versions, the latest included, remain; it returns how many it
// removed. keep < 1 keeps the latest only.
func (s *Store) TrimHistory(urn, aspect string, keep int) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	err := s.update(s.clock(), func(t txn) error {
		n = 0
		var versions []int64
		err := t.scan(aspectRows, aspectPrefix(urn, aspect), nil, func(k, _ []byte) (bool, error) {
			if _, _, v, ok := parseRowKey(k); ok && v > 0 {
				versions = append(versions, v)
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		slices.Sort(versions)
		drop := len(versions) - (max(keep, 1) - 1)
		for i := 0; i < drop; i++ {
			if err := t.del(aspectRows, rowKey(urn, aspect, versions[i])); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, mapErr(err)
	}
	return n, nil
}
