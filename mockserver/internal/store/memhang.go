package store

import (
	"encoding/binary"
	"sort"
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
// history under the writer lock is a slice header and a version stored.
// A deleted row (retention deletes the oldest with each new version) is
// dropped from the entries, and its memory goes with the last reference
// to it.
//
// The entries are a ring in one allocation: entry i is ring[(head+i) mod
// len(ring)]. Retention's usual step, the newest version added and the
// oldest removed, writes one slot and clears another, and an aspect that
// keeps n history rows never moves them (moving entries that hold pointers
// costs a write barrier per entry while the collector marks, under the
// writer lock).
type memHist struct {
	ring []histRow // len(ring) == cap(ring); unused slots are zero
	head int32     // the slot of entry 0
	n    int32     // the number of entries
	// most is the most entries the ring needs at once when retention
	// bounds the history (the history rows kept and the one added before
	// the oldest goes), 0 when unknown: the ring grows up to it, not past.
	most int32
	tree bool
}

// histRow is one history row: its version and its value.
type histRow struct {
	ver uint64
	val []byte
}

// val returns the value of e.
func (h *memHist) val(e histRow) []byte { return e.val }

// len returns the number of h's entries (h may be nil).
func (h *memHist) len() int {
	if h == nil {
		return 0
	}
	return int(h.n)
}

// slot returns the index in h.ring of entry i.
func (h *memHist) slot(i int) int {
	j := int(h.head) + i
	if j >= len(h.ring) {
		j -= len(h.ring)
	}
	return j
}

// at returns entry i of h.
func (h *memHist) at(i int) histRow { return h.ring[h.slot(i)] }

// set replaces entry i of h with e.
func (h *memHist) set(i int, e histRow) { h.ring[h.slot(i)] = e }

// each calls fn with the entries of h from entry i on, in order, until fn
// returns false; it reports whether fn never did.
func (h *memHist) each(i int, fn func(histRow) bool) bool {
	for ; i < int(h.n); i++ {
		if !fn(h.at(i)) {
			return false
		}
	}
	return true
}

// find returns the index of version ver in h's entries, or where it would
// go.
func (h *memHist) find(ver uint64) (int, bool) {
	n := int(h.n)
	if n == 0 || h.at(n-1).ver < ver {
		return n, false // the usual case: a new highest version
	}
	if h.at(0).ver == ver {
		return 0, true // the other usual one: retention's oldest
	}
	i := sort.Search(n, func(i int) bool { return h.at(i).ver >= ver })
	return i, i < n && h.at(i).ver == ver
}

// remove removes entry i of h. The oldest, which retention removes with
// each write, and the newest go in O(1).
func (h *memHist) remove(i int) {
	n := int(h.n)
	if i == 0 {
		h.ring[h.head] = histRow{} // drop its value
		if h.head++; int(h.head) == len(h.ring) {
			h.head = 0
		}
	} else {
		for j := i; j < n-1; j++ {
			h.set(j, h.at(j+1))
		}
		h.set(n-1, histRow{})
	}
	if h.n--; h.n == 0 {
		h.head = 0
	}
	if c := len(h.ring); c > 16 && c > 2*int(h.n)+8 {
		h.resize(int(h.n) + int(h.n)/2 + 1) // most of it removed: give it back
	}
}

// insert inserts e at index i of h's entries.
func (h *memHist) insert(i int, e histRow) {
	n := int(h.n)
	if n == len(h.ring) {
		// Half again as many: an aspect that keeps n history rows grows
		// its ring a few times, then writes in it for good; no more than
		// retention lets it hold.
		size := max(4, n+n/2+1)
		if m := int(h.most); m > n && m < size {
			size = m
		}
		h.resize(size)
	}
	switch {
	case i == n: // the usual case
		h.n++
		h.set(n, e)
	case i == 0:
		if h.head--; h.head < 0 {
			h.head = int32(len(h.ring) - 1)
		}
		h.n++
		h.set(0, e)
	default:
		h.n++
		for j := n; j > i; j-- {
			h.set(j, h.at(j-1))
		}
		h.set(i, e)
	}
}

// resize moves h's entries to the start of a new ring of size slots (at
// least h.n).
func (h *memHist) resize(size int) {
	ring := make([]histRow, size)
	for i := range int(h.n) {
		ring[i] = h.at(i)
	}
	h.ring, h.head = ring, 0
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
		t.log = append(t.log, undo{b: b, op: undoHistSet, c: o, e: h.at(i)})
		h.set(i, e)
		return
	}
	h.insert(i, e)
	t.log = append(t.log, undo{b: b, op: undoHang, c: o, e: e})
}

// unhang moves the history hanging off the cell o of the latest row key
// to the tree.
func (t *memTxn) unhang(b bucket, key string, o *memCell) {
	bk := &t.b.buckets[b]
	o.h.each(0, func(e histRow) bool {
		it := memItem{string(histKey(nil, key, e.ver)), t.b.newCell(o.h.val(e))}
		bk.tree.ReplaceOrInsert(it)
		t.log = append(t.log, undo{b: b, op: undoInsert, key: it.key})
		return true
	})
	t.log = append(t.log, undo{b: b, op: undoHist, c: o, saved: &undoSaved{hist: o.h}})
	o.h = nil
}

// unhangAll moves every hanging history row of bucket b to the tree, and
// stops history rows from hanging: a key that is not a row key is put.
func (t *memTxn) unhangAll(b bucket) {
	bk := &t.b.buckets[b]
	var owners []memItem
	bk.tree.Ascend(func(it memItem) bool {
		if it.c.h.len() != 0 {
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
	t.log = append(t.log, undo{b: b, op: undoUnhang, c: o, e: o.h.at(i)})
	o.h.remove(i)
}
