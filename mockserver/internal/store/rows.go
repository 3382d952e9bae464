package store

import (
	"bytes"
	"context"
	"errors"
	"strings"
)

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
// through metadata_aspect_v2. The scan reads Offset+Limit rows plus the rows
// the filters drop; history rows are skipped with one seek per aspect.
func (s *Store) Rows(q RowQuery) ([]Aspect, error) {
	var out []Aspect
	skip := max(q.Offset, 0)
	err := s.kv.view(func(t txn) error {
		return scanLatest(t, nil, func(u, name string, v []byte) (bool, error) {
			if (q.Aspect != "" && name != q.Aspect) || !strings.HasPrefix(u, q.URNPrefix) {
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

// Count returns how many aspects named aspect have a latest row whose URN
// match accepts (nil: all). It reads keys only, no row is decoded, and
// stops with ctx's error once ctx is done (looking every countCheckEvery
// rows).
func (s *Store) Count(ctx context.Context, aspect string, match func(urn string) bool) (int, error) {
	n, scanned := 0, 0
	err := s.kv.view(func(t txn) error {
		return scanLatest(t, nil, func(u, name string, _ []byte) (bool, error) {
			if scanned++; scanned%countCheckEvery == 0 {
				if err := ctx.Err(); err != nil {
					return false, err
				}
			}
			if name == aspect && (match == nil || match(u)) {
				n++
			}
			return true, nil
		})
	})
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return 0, err
	}
	if err != nil {
		return 0, mapErr(err)
	}
	return n, nil
}

// countCheckEvery is how many rows Count scans between looks at its
// context.
const countCheckEvery = 1024

// scanLatest calls fn with the latest row (version 0) of every aspect whose
// row keys start with prefix, in key order, until fn returns false or an
// error. The versions of one aspect are adjacent, the latest first, so on
// meeting a history row it seeks past the aspect's other versions instead of
// reading them: an entity's latest rows cost O(aspects × log n) however long
// their history. fn must not modify v.
func scanLatest(t txn, prefix []byte, fn func(urn, aspect string, v []byte) (bool, error)) error {
	var from []byte
	for {
		var next []byte // where to go on after a history row; nil: done
		err := t.scan(aspectRows, prefix, from, func(k, v []byte) (bool, error) {
			u, name, ver, ok := parseRowKey(k)
			switch {
			case !ok:
				return true, nil
			case ver != 0:
				// The first key after every version of (u, name): versions
				// are the 8 bytes after the aspect's prefix.
				next = append(bytes.Repeat([]byte{0xff}, 8), 0)
				next = append(appendAspectPrefix(nil, u, name), next...)
				return false, nil
			}
			return fn(u, name, v)
		})
		if err != nil || next == nil {
			return err
		}
		from = next
	}
}
