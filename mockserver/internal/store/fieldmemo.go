package store

import "bytes"

// The systemMetadata field of a row built before the writer lock (see
// preRow) is a function of the latest row's systemMetadata, the write's
// received members and, for a new version, the version: [Rules] First,
// Next and Same depend on nothing else, and marshal writes equal members
// the same way. The writes of a batch most often carry the same
// systemMetadata onto latest rows whose systemMetadata an earlier batch
// wrote alike (one run writes every aspect with the same run fields), so
// a chunk of preBuild remembers the last few fields it built and what it
// built them on, and gives a write that finds the same (equal bytes, not
// only the same memory) that field again, without splitting the latest
// row's systemMetadata, calling the Rules or marshalling. A write that
// finds anything else builds its field as the writes under the lock do.

// fieldKind is which systemMetadata a fieldMemo remembers.
type fieldKind uint8

const (
	fieldNone  fieldKind = iota
	fieldFirst           // a first version's (Rules.First)
	fieldNext            // a new version's (Rules.Next)
	fieldSame            // an unchanged value's (Rules.Same)
)

// fieldMemos are the last systemMetadata fields a chunk of preBuild
// built (a batch of an entity's aspects in turn, whose rows carry
// versions of their own, takes one each).
type fieldMemos struct {
	ways [memoWays]fieldMemo
	// victim is the way the next field built replaces.
	victim int
	// misses counts the writes since the last that found its field in
	// the ways: from memoGiveUp on, the chunk stops looking there and
	// keeping fields (which costs a write that finds none some work) but
	// for two writes of every memoProbe (see looks).
	misses int
}

const (
	// memoWays is the number of fields a fieldMemos keeps.
	memoWays = 4
	// memoGiveUp and memoProbe: see fieldMemos.misses.
	memoGiveUp = 16
	memoProbe  = 32
)

// looks reports whether the next write of the chunk looks for its field
// in ms and keeps the field it builds there.
func (ms *fieldMemos) looks() bool {
	if ms.misses < memoGiveUp {
		return true
	}
	if ms.misses++; ms.misses-memoGiveUp >= memoProbe {
		ms.misses = memoGiveUp - 2 // this write and the next look
		return true
	}
	return false
}

// find returns the way that remembers the field of kind for a write
// received as sm on the latest row cur (of a new version version), nil
// when none does.
func (ms *fieldMemos) find(kind fieldKind, cur *latest, version int64, sm rawObject, recv int32) *fieldMemo {
	for i := range ms.ways {
		if ms.ways[i].matches(kind, cur, version, sm, recv) {
			return &ms.ways[i]
		}
	}
	return nil
}

// take returns the way the next field built goes to, replacing the field
// it held longest.
func (ms *fieldMemos) take() *fieldMemo {
	m := &ms.ways[ms.victim]
	ms.victim = (ms.victim + 1) % memoWays
	return m
}

// reset forgets every field of ms, keeping their memory.
func (ms *fieldMemos) reset() {
	for i := range ms.ways {
		ms.ways[i].reset()
	}
	ms.victim, ms.misses = 0, 0
}

// fieldMemo is a systemMetadata field a chunk of preBuild built, and what
// it built it on.
type fieldMemo struct {
	kind fieldKind
	// prev and table are the latest row's systemMetadata and its table
	// (see smtable.go), sharing the stored row, whose bytes never change
	// (preBuild runs only on a backend whose stored values do not);
	// marshalled reports a row of a format marshal wrote (latest.marshalled).
	prev, table []byte
	marshalled  bool
	version     int64     // fieldNext's
	sm          rawObject // the write's received members, as given to the Rules
	// recv is the write's prepared.recv: a write of the same recv was
	// received as the same members, which matches need not compare.
	recv int32
	// field is the systemMetadata field built (see appendStored), in the
	// memo's memory; for fieldSame, unchanged reports a systemMetadata
	// equal to prev, which makes no new row.
	field     []byte
	unchanged bool
}

// maxMemoField is the largest field a fieldMemo keeps (a larger one is
// built again by each write).
const maxMemoField = maxKeptField

// matches reports whether m remembers the field of kind for a write
// received as sm (of id recv, see prepared.recv) on the latest row cur (of
// a new version version).
func (m *fieldMemo) matches(kind fieldKind, cur *latest, version int64, sm rawObject, recv int32) bool {
	if m.kind != kind || len(m.sm) != len(sm) || (kind == fieldNext && m.version != version) {
		return false
	}
	if kind != fieldFirst && (!bytes.Equal(m.prev, cur.row.SystemMetadata) || !bytes.Equal(m.table, cur.table) ||
		m.marshalled != (cur.marshalled() != nil)) {
		return false
	}
	if recv != 0 && m.recv == recv {
		return true // copies of one Rules.Received's result
	}
	for i := range sm {
		if m.sm[i].Key != sm[i].Key || !bytes.Equal(m.sm[i].Value, sm[i].Value) {
			return false
		}
	}
	return true
}

// start forgets m's field and remembers the key of the one about to be
// built from sm (a copy of its members, taken before the Rules see them),
// which remember completes.
func (m *fieldMemo) start(kind fieldKind, cur *latest, version int64, sm rawObject, recv int32) {
	clear(m.sm)
	m.kind, m.sm, m.recv = fieldNone, append(m.sm[:0], sm...), recv
	m.prev, m.table, m.marshalled, m.version = nil, nil, false, version
	if kind != fieldFirst {
		m.prev, m.table, m.marshalled = cur.row.SystemMetadata, cur.table, cur.marshalled() != nil
	}
}

// remember completes the key start began with the field built, copied.
func (m *fieldMemo) remember(kind fieldKind, field []byte, unchanged bool) {
	if len(field) > maxMemoField {
		return
	}
	m.kind, m.field, m.unchanged = kind, append(m.field[:0], field...), unchanged
}

// reset forgets m's field and what it refers to, keeping its memory.
func (m *fieldMemo) reset() {
	clear(m.sm)
	*m = fieldMemo{sm: m.sm[:0], field: m.field[:0]}
}

// nextField is nextSystemMetadata and the field stored of it for p's
// write of a changed value on cur, from b's memo when it has it: the
// field, valid until b's next call, and the row's version.
func (b *batchShared) nextField(p *prepared, cur *latest) ([]byte, int64, error) {
	kind, version := fieldFirst, int64(1)
	if cur.exists {
		kind, version = fieldNext, rowVersion(cur.row)+1
	}
	var m *fieldMemo
	if !b.noMemo && b.memo.looks() {
		if m = b.memo.find(kind, cur, version, p.sm, p.recv); m != nil {
			b.memo.misses = 0
			return m.field, version, nil
		}
		b.memo.misses++
		m = b.memo.take()
		m.start(kind, cur, version, p.sm, p.recv)
	}
	sm, version, err := nextSystemMetadata(sharedValues{}, p, *cur)
	if err != nil {
		return nil, 0, err
	}
	field, err := b.stored(sm, cur.marshalled())
	if err != nil {
		return nil, 0, err
	}
	if m != nil {
		m.remember(kind, field, false)
	}
	return field, version, nil
}

// sameField is refreshField for p's write of the value of the latest row
// cur, from b's memo when it has it.
func (b *batchShared) sameField(p *prepared, cur *latest) (field []byte, unchanged bool, err error) {
	var m *fieldMemo
	if !b.noMemo && b.memo.looks() {
		if m = b.memo.find(fieldSame, cur, 0, p.sm, p.recv); m != nil {
			b.memo.misses = 0
			return m.field, m.unchanged, nil
		}
		b.memo.misses++
		m = b.memo.take()
		m.start(fieldSame, cur, 0, p.sm, p.recv)
	}
	if field, unchanged, err = refreshField(sharedValues{}, p, *cur); err != nil {
		return nil, false, err
	}
	if m != nil {
		m.remember(fieldSame, field, unchanged)
	}
	return field, unchanged, nil
}
