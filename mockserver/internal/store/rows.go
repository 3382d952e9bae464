package store

import "strings"

// RowQuery selects latest rows for [Store.Rows].
type RowQuery struct {
	// URNPrefix keeps only the rows of URNs that start with it ("" keeps all).
	URNPrefix string
	// Aspect keeps only the rows of this aspect ("" keeps all).
	Aspect string
	// Offset skips that many matching rows; Limit returns at most that many
	// (0: no limit).
	Offset, Limit int
}

// Rows returns copies of the latest rows (version 0) that match q, in the
// store's row order: by URN, shorter URNs first and URNs of one length
// bytewise, then by aspect name in the same way (the order of the keys, which
// length-prefix both names). The order does not change while the store is not
// written, so Offset and Limit page through it, as restoreIndices pages
// through metadata_aspect_v2. The scan reads Offset+Limit rows plus the
// history and the rows the filters drop.
func (s *Store) Rows(q RowQuery) ([]Aspect, error) {
	var out []Aspect
	skip := max(q.Offset, 0)
	err := s.kv.view(func(t txn) error {
		return t.scan(aspectRows, nil, nil, func(k, v []byte) (bool, error) {
			u, name, ver, ok := parseRowKey(k)
			if !ok || ver != 0 || (q.Aspect != "" && name != q.Aspect) || !strings.HasPrefix(u, q.URNPrefix) {
				return true, nil
			}
			if skip > 0 {
				skip--
				return true, nil
			}
			r, err := decodeRow(v)
			if err != nil {
				return false, err
			}
			out = append(out, r.aspect(u, name, 0))
			return q.Limit <= 0 || len(out) < q.Limit, nil
		})
	})
	if err != nil {
		return nil, mapErr(err)
	}
	return out, nil
}
