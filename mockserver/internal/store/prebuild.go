package store

import (
	"unsafe"

	"github.com/catalogkit/datahub-go/internal/par"
)

// A write whose value does not depend on the stored rows (no Check, no
// Transform, not a timeseries document) gets its new latest row built in
// full before the writer lock: the row needs only the aspect's latest row
// as it stood (for its version and systemMetadata), which a backend whose
// stored values never change (the memory backend) lets a writer read
// without the lock and keep. Under the lock the write then finds the same
// latest row (the same stored bytes) and only moves it to history and puts
// the built row in its place; a write that finds another latest row (an
// earlier write of the batch or a concurrent batch replaced it) builds its
// row there as before.

// preRow is a write's new latest row built before the writer lock.
type preRow struct {
	// seen is the latest row the row was built on (nil: none); ok reports a
	// row built (a write found unchanged, or not eligible, has none).
	seen    []byte
	ok      bool
	val     []byte // the encoded row
	built   row    // what val decodes to, sharing it
	version int64  // the row's version
	// unchanged reports a write of the value the latest row has: the row
	// is the latest with refreshed systemMetadata (see refreshLatest), val
	// nil when that needs no write.
	unchanged bool
	// On the memory backend (see swapPreBuilt): the cell that held seen,
	// the backend's epoch then, and whether the write's entity existed.
	cell   *memCell
	epoch  uint64
	entity bool
}

// preBuild builds the new latest rows of the writes of ps that it can
// before the writer lock (see preRow). It reads the latest rows in one
// read transaction of a backend whose stored values stay valid after it,
// and does nothing on another.
func (s *Store) preBuild(ws []Write, ps []prepared, chunks int) {
	eligible := false
	for i := range ps {
		if preBuildable(&ws[i], &ps[i]) {
			eligible = true
			break
		}
	}
	if !eligible {
		return
	}
	shared := false
	err := s.kv.view(func(t txn) error {
		if v, ok := t.(interface{ sharesValues() bool }); !ok || !v.sharesValues() {
			return nil
		}
		shared = true
		m, _ := t.(*memTxn)
		if m != nil && m.b.noMemo {
			for i := range ps {
				if ps[i].batch != nil {
					ps[i].batch.noMemo = true
				}
			}
		}
		for i := range ps {
			switch {
			case !preBuildable(&ws[i], &ps[i]):
			case m != nil:
				m.seeLatest(&ws[i], &ps[i])
			default:
				ps[i].pre.seen = t.get(aspectRows, ps[i].latestKey())
			}
		}
		return nil
	})
	if err != nil || !shared {
		return
	}
	// In prepare's chunks: a chunk's writes share its scratch.
	par.In(chunks, len(ps), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if preBuildable(&ws[i], &ps[i]) {
				ps[i].pre.build(&ps[i])
			}
		}
	})
}

// preBuildable reports whether the write's row can be built before the
// writer lock.
func preBuildable(w *Write, p *prepared) bool {
	return p.err == nil && p.value != nil && !w.DeleteEntity && !w.Timeseries && w.Check == nil && w.Transform == nil
}

// build builds the row of p's write on the latest row r.seen, as putVersion
// would, or as refreshLatest would when the write leaves the value
// unchanged; it leaves ok unset when the latest row does not decode.
func (r *preRow) build(p *prepared) {
	cur := latest{raw: r.seen, exists: r.seen != nil}
	if cur.exists {
		var err error
		if cur.row, cur.table, err = decodeLatestRow(r.seen); err != nil {
			return
		}
		if p.batch.rules.Unchanged(cur.row.Value, p.value, cur.row.Hash, p.hash) {
			field, unchanged, err := p.batch.sameField(p, &cur)
			if err != nil {
				return
			}
			val, built, version, err := refreshRow(cur, field, unchanged, p.hash)
			if err != nil {
				return
			}
			r.val, r.built, r.version, r.unchanged, r.ok = val, built, version, true, true
			return
		}
	}
	field, version, err := p.batch.nextField(p, &cur)
	if err != nil {
		return
	}
	// The row in memory of its size (the rows a store keeps are most of
	// its memory).
	val, built, err := encodeStampedRow(p.value, p.batch.stamp.of(p.ms, p.actor), p.ms, p.actor, p.hash, version, field)
	if err != nil {
		return
	}
	r.val, r.built, r.version, r.ok = val, built, version, true
}

// sharedValues is a txn's answer to sharesValues for preBuild's reads
// outside the transaction: the stored values it read stay valid.
type sharedValues struct{ txn }

func (sharedValues) sharesValues() bool { return true }

// builtOnRaw returns the row built before the lock when raw (nil: none),
// the latest row the write finds under the lock, is the one it was built
// on (the same stored bytes: stored values never change, and seen keeps
// them from being reused), nil otherwise.
func (r *preRow) builtOnRaw(raw []byte) *preRow {
	if !r.ok || (raw == nil) != (r.seen == nil) {
		return nil
	}
	if raw != nil && (len(raw) != len(r.seen) || unsafe.SliceData(raw) != unsafe.SliceData(r.seen)) {
		return nil
	}
	return r
}
