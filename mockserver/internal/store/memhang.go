package store

import (
	"cmp"
	"encoding/binary"
	"slices"
	"unsafe"
)

// The history rows of an aspect in aspectRows of the memory backend hang
// off its latest row's cell (see memBucket); the code that keeps them there.

// memHist is the history of one aspect kept with its latest row's cell.
// While the latest row exists and tree is unset, its history rows are all
// here and none is in the tree; when the latest row is deleted, they move
// to the tree. A latest row put while the tree holds history rows of its
// aspect gets tree set, and its new history rows go to the tree too.
//
// A history row is the value put, referenced, not copied: values put are
// never modified (see txn.put), and the usual one is the latest row it
// replaces, already allocated on its own, so that moving a latest row into
// history under the writer lock is a slice header and a version appended.
// A deleted row (retention deletes the oldest with each new version) is
// dropped from ents, and its memory goes with the last reference to it.
type memHist struct {
	ents []histRow // sorted by version
	// front is the number of entries of ents' allocation before ents[0],
	// which remove left (see makeRoom); 0 when ents has no room.
	front int32
	tree  bool
}

// histRow is one history row: its version and its value.
type histRow struct {
	ver uint64
	val []byte
}

// val returns the value of e.
func (h *memHist) val(e histRow) []byte { return e.val }

// find returns the index of version ver in h's entries, or where it would
// go.
func (h *memHist) find(ver uint64) (int, bool) {
	n := len(h.ents)
	if n == 0 || h.ents[n-1].ver < ver {
		return n, false // the usual case: a new highest version
	}
	if h.ents[0].ver == ver {
		return 0, true // the other usual one: retention's oldest
	}
	return slices.BinarySearchFunc(h.ents, ver, func(e histRow, v uint64) int { return cmp.Compare(e.ver, v) })
}

// remove removes entry i of h. The oldest, which retention removes with
// each write, goes in O(1): the entries start one later (see makeRoom).
func (h *memHist) remove(i int) {
	if i == 0 {
		h.ents[0] = histRow{} // drop its value
		h.ents = h.ents[1:]
		if h.front++; cap(h.ents) == 0 {
			h.ents, h.front = nil, 0 // no room left: the next entry allocates
		}
		return
	}
	h.ents = slices.Delete(h.ents, i, i+1)
}

// insert inserts e at index i of h's entries.
func (h *memHist) insert(i int, e histRow) {
	if len(h.ents) == cap(h.ents) {
		h.makeRoom()
	}
	if i == len(h.ents) {
		h.ents = append(h.ents, e) // the usual case, in place
		return
	}
	h.ents = slices.Insert(h.ents, i, e) // in place
}

// makeRoom gives h's entries, which fill their allocation up to its end,
// room for one more there. The oldest entries retention removed (see
// remove) leave room before the first: when that is at least half the
// entries, they move there; otherwise to an allocation half again as
// large. So an aspect that keeps n history rows holds about 1.5n entries,
// and moves them once every n/2 writes.
func (h *memHist) makeRoom() {
	n, f := len(h.ents), int(h.front)
	if f > 0 && 2*f >= n && cap(h.ents) > 0 {
		// The whole allocation: f entries before ents[0].
		start := unsafe.Add(unsafe.Pointer(unsafe.SliceData(h.ents)), -f*int(unsafe.Sizeof(histRow{})))
		all := unsafe.Slice((*histRow)(start), f+cap(h.ents))
		copy(all, h.ents)
		clear(all[n : f+n]) // the moved entries' old places
		h.ents, h.front = all[:n], 0
		return
	}
	grown := make([]histRow, n, max(4, n+n/2+1))
	copy(grown, h.ents)
	h.ents, h.front = grown, 0
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
// row's cell o, referencing val.
func (t *memTxn) hang(b bucket, o *memCell, key, val []byte) { t.hangVer(b, o, rowVer(key), val) }

// hangVer is hang of the history row of version ver.
func (t *memTxn) hangVer(b bucket, o *memCell, ver uint64, val []byte) {
	if o.h == nil {
		o.h = &memHist{}
	}
	h := o.h
	e := histRow{ver: ver, val: val}
	i, found := h.find(e.ver)
	if found {
		t.log = append(t.log, undo{b: b, op: undoHistSet, c: o, e: h.ents[i]})
		h.ents[i] = e
		return
	}
	h.insert(i, e)
	t.log = append(t.log, undo{b: b, op: undoHang, c: o, e: e})
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
	t.b.epoch++
	t.log = append(t.log, undo{b: b, op: undoHangsOff})
}

// unhangVer removes the history row of version ver hanging off the cell
// o of its latest row, if there is one.
func (t *memTxn) unhangVer(b bucket, o *memCell, ver uint64) {
	if o.h == nil {
		return
	}
	i, ok := o.h.find(ver)
	if !ok {
		return
	}
	t.log = append(t.log, undo{b: b, op: undoUnhang, c: o, e: o.h.ents[i]})
	o.h.remove(i)
}
