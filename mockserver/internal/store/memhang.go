package store

import (
	"cmp"
	"encoding/binary"
	"slices"
)

// The history rows of an aspect in aspectRows of the memory backend hang
// off its latest row's cell (see memBucket); the code that keeps them there.

// memHist is the history of one aspect kept with its latest row's cell.
// While the latest row exists and tree is unset, its history rows are all
// here and none is in the tree; when the latest row is deleted, they move
// to the tree. A latest row put while the tree holds history rows of its
// aspect gets tree set, and its new history rows go to the tree too.
//
// The rows are copied into a few large byte slices and found by version,
// so that however long the history, it is a few allocations without
// pointers that the garbage collector neither scans nor counts row by row.
// A row's bytes are never modified once appended: chunks only grow, except
// that a rollback cuts off what its update appended. The bytes of deleted
// rows (retention deletes one per new version) stay until they pass twice
// those of the rows kept: then the rows move to a new history (compact).
type memHist struct {
	chunks [][]byte
	ents   []histRow // sorted by version
	tree   bool
}

// histRow is one history row: its version and where its value is in the
// chunks.
type histRow struct {
	ver      uint64
	chunk    uint32
	off, end uint32
}

// histChunk is the most bytes a history allocates at once for more rows
// than one: its chunks double up to it.
const histChunk = 16 << 10

// val returns the value of e, sharing h's memory.
func (h *memHist) val(e histRow) []byte { return h.chunks[e.chunk][e.off:e.end:e.end] }

// find returns the index of version ver in h's entries, or where it would
// go.
func (h *memHist) find(ver uint64) (int, bool) {
	n := len(h.ents)
	if n == 0 || h.ents[n-1].ver < ver {
		return n, false // the usual case: a new highest version
	}
	return slices.BinarySearchFunc(h.ents, ver, func(e histRow, v uint64) int { return cmp.Compare(e.ver, v) })
}

// size is the length of h's chunks, which a rollback restores with cut.
func (h *memHist) size() histSize {
	n := len(h.chunks)
	if n == 0 {
		return histSize{}
	}
	return histSize{uint32(n), uint32(len(h.chunks[n-1]))}
}

// histSize is how many chunks a history has and the last one's length.
type histSize struct{ chunks, last uint32 }

// cut gives h's chunks back the size sz.
func (h *memHist) cut(sz histSize) {
	h.chunks = h.chunks[:sz.chunks]
	if sz.chunks > 0 {
		h.chunks[sz.chunks-1] = h.chunks[sz.chunks-1][:sz.last]
	}
}

// add appends val to h's chunks and returns where it is.
func (h *memHist) add(ver uint64, val []byte) histRow {
	n := len(h.chunks)
	if n == 0 || cap(h.chunks[n-1])-len(h.chunks[n-1]) < len(val) {
		size := len(val)
		if n > 0 {
			size = max(size, min(2*cap(h.chunks[n-1]), histChunk))
		}
		h.chunks = append(h.chunks, make([]byte, 0, size))
		n++
	}
	c := h.chunks[n-1]
	e := histRow{ver: ver, chunk: uint32(n - 1), off: uint32(len(c))}
	c = append(c, val...)
	h.chunks[n-1] = c
	e.end = uint32(len(c))
	return e
}

// wantsCompact reports whether h, about to take a row of n bytes that its
// last chunk has no room for, holds more bytes of deleted rows than twice
// those of its rows: retention deletes a row with each new version, whose
// bytes stay in the chunks until the history is compacted.
func (h *memHist) wantsCompact(n int) bool {
	last := len(h.chunks) - 1
	if last < 0 || cap(h.chunks[last])-len(h.chunks[last]) >= n {
		return false
	}
	held := 0
	for _, c := range h.chunks {
		held += len(c)
	}
	return held-h.liveBytes() > 2*h.liveBytes()
}

// liveBytes is the length of h's rows.
func (h *memHist) liveBytes() int {
	n := 0
	for _, e := range h.ents {
		n += int(e.end - e.off)
	}
	return n
}

// compact gives the latest row's cell o a new history with o's rows only,
// copied into new chunks; the old history is left as it was (values read
// from it stay valid), for a rollback to give back. Amortized over the
// rows written since the last compaction, it copies half a row per row.
func (t *memTxn) compact(b bucket, o *memCell) {
	old := o.h
	live := old.liveBytes()
	h := &memHist{tree: old.tree, ents: make([]histRow, 0, cap(old.ents))}
	h.chunks = [][]byte{make([]byte, 0, min(max(2*live, 1<<10), histChunk))}
	for _, e := range old.ents {
		h.ents = append(h.ents, h.add(e.ver, old.val(e)))
	}
	t.log = append(t.log, undo{b: b, op: undoHist, c: o, saved: &undoSaved{hist: old}})
	o.h = h
}

// rowVer is the version of row key k (its last 8 bytes).
func rowVer(k []byte) uint64 { return binary.BigEndian.Uint64(k[len(k)-8:]) }

// histKey appends the key of the history row of version ver whose latest
// row's key is owner to dst.
func histKey(dst []byte, owner string, ver uint64) []byte {
	return binary.BigEndian.AppendUint64(append(dst, owner[:len(owner)-8]...), ver)
}

// rowKeyShape reports whether k is a row key (rowKey's shape) and whether
// its version is not 0 (a history row's).
func rowKeyShape(k []byte) (valid, history bool) {
	_, rest, ok := readLPBytes(k)
	if !ok {
		return false, false
	}
	if _, rest, ok = readLPBytes(rest); !ok || len(rest) != 8 {
		return false, false
	}
	return true, binary.BigEndian.Uint64(rest) != 0
}

// owner returns the cell of the latest row of history row key's aspect
// when it exists and its history rows hang off it (see memHist). Only
// aspectRows has history rows that hang.
func (t *memTxn) owner(key []byte) *memCell {
	n := len(key) - 8
	if h := t.hot; h != nil && h.c != nil && len(h.key) == len(key) && string(h.key[:n]) == string(key[:n]) &&
		rowVer(h.key) == 0 {
		return hangingCell(h.c)
	}
	var buf [192]byte
	o := append(append(buf[:0], key[:n]...), 0, 0, 0, 0, 0, 0, 0, 0)
	return hangingCell(t.rowCell(o))
}

// hangingCell returns the latest row's cell c when its history rows hang
// off it, nil otherwise.
func hangingCell(c *memCell) *memCell {
	if c != nil && (c.h == nil || !c.h.tree) {
		return c
	}
	return nil
}

// hangingOwner is owner for a key of a bucket whose history rows hang:
// the owner's cell when key is a history row key that hangs or would.
func (t *memTxn) hangingOwner(bk *memBucket, key []byte) *memCell {
	if !bk.hangs {
		return nil
	}
	if valid, history := rowKeyShape(key); valid && history {
		return t.owner(key)
	}
	return nil
}

// checkTreeHist sets tree in the history of the latest row it, just
// inserted, when the tree holds history rows of its aspect.
func (bk *memBucket) checkTreeHist(it memItem) {
	n := len(it.key)
	bk.tree.AscendGreaterOrEqual(it, func(next memItem) bool {
		if next.key == it.key {
			return true
		}
		if len(next.key) == n && next.key[:n-8] == it.key[:n-8] {
			it.c.h = &memHist{tree: true}
		}
		return false
	})
}

// hang puts the history row key, of val, in the history of its latest
// row's cell o.
func (t *memTxn) hang(b bucket, o *memCell, key, val []byte) {
	if o.h == nil {
		o.h = &memHist{}
	}
	if o.h.wantsCompact(len(val)) {
		t.compact(b, o)
	}
	h := o.h
	size := h.size()
	i, found := h.find(rowVer(key))
	e := h.add(rowVer(key), val)
	if found {
		t.log = append(t.log, undo{b: b, op: undoHistSet, c: o, e: h.ents[i], size: size})
		h.ents[i] = e
		return
	}
	if i == len(h.ents) {
		h.ents = append(h.ents, e)
	} else {
		h.ents = slices.Insert(h.ents, i, e)
	}
	t.log = append(t.log, undo{b: b, op: undoHang, c: o, e: e, size: size})
}

// unhang moves the history hanging off the cell o of the latest row key
// to the tree.
func (t *memTxn) unhang(b bucket, key string, o *memCell) {
	bk := &t.b.buckets[b]
	for _, e := range o.h.ents {
		it := memItem{string(histKey(nil, key, e.ver)), t.b.newCell(o.h.val(e))}
		bk.tree.ReplaceOrInsert(it)
		t.log = append(t.log, undo{b: b, op: undoInsert, key: it.key})
	}
	t.log = append(t.log, undo{b: b, op: undoHist, c: o, saved: &undoSaved{hist: o.h}})
	o.h = nil
}

// unhangAll moves every hanging history row of bucket b to the tree, and
// stops history rows from hanging: a key that is not a row key is put.
func (t *memTxn) unhangAll(b bucket) {
	bk := &t.b.buckets[b]
	var owners []memItem
	bk.tree.Ascend(func(it memItem) bool {
		if it.c.h != nil && len(it.c.h.ents) != 0 {
			owners = append(owners, it)
		}
		return true
	})
	for _, o := range owners {
		t.unhang(b, o.key, o.c)
	}
	bk.hangs = false
	t.log = append(t.log, undo{b: b, op: undoHangsOff})
}
