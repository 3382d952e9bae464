package emitter

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/catalogkit/datahub-go/internal/hooks"
	"github.com/catalogkit/datahub-go/internal/par"
)

// A batch of proposals is encoded on several goroutines when the machine
// has the cores for it: the proposals are independent, each encoding costs
// a few microseconds, and a batched Emit waits for all of them before its
// request goes out. The goroutines are the calling Emit's, and it waits for
// them before it goes on.
const (
	// minPerEncoder is the fewest proposals a goroutine encodes: below it,
	// starting one costs more than it saves.
	minPerEncoder = 32
	// maxEncoders bounds the goroutines of one call.
	maxEncoders = 8
)

// encoders returns how many goroutines encode n proposals.
func encoders(n int) int {
	return min(par.Count(n, minPerEncoder), maxEncoders)
}

// encodeArena is the memory the encodings of one call are written in:
// buffers from arenaPool, one per encoding goroutine, given back by
// release once the encodings are no longer used.
type encodeArena struct {
	first *[]byte
	more  []*[]byte
	// scratch, when set, is where the call's items, results and offsets
	// are kept (see emitScratch); release leaves it alone.
	scratch *emitScratch
	// head, when set, is written at the start of the first buffer, before
	// the encodings, and the encodings of several goroutines are moved
	// after those of the first (see joinParts): all of them follow head
	// in one run, as a request body sends them (see REST.wholeBody),
	// with room bytes of capacity left after them for the body's tail.
	head []byte
	room int
}

// startFirst writes a.head at the start of buf, the first buffer of a
// call encoding n proposals, sized for them when new.
func (a *encodeArena) startFirst(buf *[]byte, n int) {
	if a.head == nil {
		return
	}
	if cap(*buf) == 0 {
		*buf = make([]byte, 0, len(a.head)+1024*n)
	}
	*buf = append(*buf, a.head...)
}

// get returns an empty pooled buffer that release gives back.
func (a *encodeArena) get() *[]byte {
	b := getArena()
	if a.first == nil {
		a.first = b
	} else {
		a.more = append(a.more, b)
	}
	return b
}

// release gives the buffers back to arenaPool.
func (a *encodeArena) release() {
	if a.first != nil {
		putArena(a.first)
	}
	for _, b := range a.more {
		putArena(b)
	}
	a.first, a.more = nil, nil
}

// emitScratch is the bookkeeping memory of a batched Emit: its items,
// results and offsets, and the indexes of a request's proposals. A call
// that wrote every proposal, and so shows no result, gives it back to
// scratchPool for the next call.
type emitScratch struct {
	items   []encoded
	results []Result
	offsets [][2]int
	idx     []int
}

// scratchPool holds the emitScratch of calls that are done.
var scratchPool sync.Pool

// maxScratchItems is the most proposals of an emitScratch kept in
// scratchPool.
const maxScratchItems = 4096

// getScratch returns an emitScratch from scratchPool.
func getScratch() *emitScratch {
	if s, ok := scratchPool.Get().(*emitScratch); ok {
		return s
	}
	return new(emitScratch)
}

// take returns zeroed items, results and offsets for n proposals, once
// for s. The items and results of an emitScratch from getScratch are zero
// already (putScratch cleared them, or they are new): only the offsets
// are cleared.
func (s *emitScratch) take(n int) ([]encoded, []Result, [][2]int) {
	s.items = slices.Grow(s.items[:0], n)[:n]
	s.results = slices.Grow(s.results[:0], n)[:n]
	s.offsets = slices.Grow(s.offsets[:0], n)[:n]
	clear(s.offsets)
	return s.items, s.results, s.offsets
}

// putScratch gives s back to scratchPool, its items and results zeroed
// (without what they point to, and as take expects them), unless it grew
// too large to keep.
func putScratch(s *emitScratch) {
	if cap(s.items) > maxScratchItems {
		return
	}
	clear(s.items[:cap(s.items)])
	clear(s.results[:cap(s.results)])
	scratchPool.Put(s)
}

// encodeSeq is encodeIn on the calling goroutine, for a call too small to
// be split (encoders(len(ps)) is 1). Unlike encodeIn's, its ps does not
// escape: a caller's variadic proposals can stay on the caller's stack.
func (r *REST) encodeSeq(ps []Proposal, arena *encodeArena) ([]encoded, []Result) {
	now := r.nowMillis(time.Now())
	var items []encoded
	var results []Result
	var offsets [][2]int
	var small [8][2]int // the offsets of a small call, on the stack
	if arena.scratch != nil {
		items, results, offsets = arena.scratch.take(len(ps))
	} else {
		items, results = make([]encoded, len(ps)), make([]Result, len(ps))
		offsets = small[:]
		if len(ps) > len(small) {
			offsets = make([][2]int, len(ps))
		}
		offsets = offsets[:len(ps)]
	}
	buf := arena.get()
	arena.startFirst(buf, len(ps))
	r.encodePart(ps, 0, items, results, offsets, now, buf)
	if arena.head != nil {
		*buf = slices.Grow(*buf, arena.room)
	}
	for i, o := range offsets {
		if o[1] > o[0] {
			items[i].enc = (*buf)[o[0]:o[1]] // its capacity to the buffer's end: see joined
		}
	}
	return items, results
}

// keptChunk is memory encodeKept writes single proposals' encodings into,
// one after the other, each followed by a comma: memory only ever
// appended to while any encoding in it is used, so that an encoding
// written there may be kept (in an Async queue) without a copy until it is
// sent. It counts its users: each encoding in it until its requests no
// longer read it, and keptPool while it takes more. The last to let go
// empties it and gives it back to keptPool; one never let go of (a request
// body net/http never closed) is left to the collector.
type keptChunk struct {
	buf []byte
	// written counts the encodings written in buf; only the caller that
	// has the chunk from keptPool changes it, without an atomic operation
	// an encoding.
	written int32
	// refs counts the users. While keptPool holds the chunk it is
	// keptHold less the encodings let go of (far from 0: an encoding's
	// own use is added only when keptPool lets go, see retire); then the
	// encodings not let go of yet.
	refs atomic.Int32
}

// keptHold is keptPool's count in keptChunk.refs: more than the encodings
// a chunk can ever hold, so that their releases before retire do not bring
// refs to 0.
const keptHold = 1 << 30

// keptPool holds the keptChunks that take more encodings.
var keptPool sync.Pool

// Sizes of the chunks of keptPool.
const (
	// keptSize is the size of a new chunk.
	keptSize = 64 << 10
	// keptRoom is the room a chunk must have left to take another
	// encoding; one with less is let go of, and another taken. A larger
	// encoding grows the chunk (a new array).
	keptRoom = 4 << 10
)

// newKeptChunk returns an empty chunk, held by keptPool's count.
func newKeptChunk() *keptChunk {
	c := &keptChunk{buf: make([]byte, 0, keptSize)}
	c.refs.Store(keptHold)
	return c
}

// release lets go of the use of one encoding in c.
func (c *keptChunk) release() { c.releaseN(1) }

// releaseN lets go of the uses of n encodings in c.
func (c *keptChunk) releaseN(n int32) {
	if c.refs.Add(-n) == 0 {
		c.free()
	}
}

// retire is keptPool letting go of c (full, or grown for a large
// encoding), by the caller that has it from keptPool: the encodings
// written in it are counted in refs from now on.
func (c *keptChunk) retire() {
	if c.refs.Add(c.written-keptHold) == 0 {
		c.free()
	}
}

// free empties c, which no one uses any more, and gives it back to
// keptPool.
func (c *keptChunk) free() {
	if cap(c.buf) > 2*keptSize { // grown for a large encoding: not kept
		return
	}
	c.buf = c.buf[:0]
	c.written = 0
	c.refs.Store(keptHold)
	keptPool.Put(c)
}

// encodeKept is encodeIn of one proposal (len(ps) is 1), observed at
// nowMillis, written into a chunk of keptPool instead of an arena: the
// encoding may be kept as long as it is used, without a copy, and its
// item holds the chunk (item.chunk) until released. Its capacity runs to
// the end of its chunk, and an encoding written after it in the same chunk
// by a later call follows it after a comma, so that joined sends such a
// run as one slice. The item and the result are written to item[0] and
// res[0], the caller's memory (both zero on entry, as encodePart's), with
// nothing copied on the way. The usual proposal is written by keptUsual,
// without encodePart's loop; the others by encodePart.
func (r *REST) encodeKept(ps []Proposal, nowMillis int64, item []encoded, res []Result) {
	c, _ := keptPool.Get().(*keptChunk)
	for c != nil && cap(c.buf)-len(c.buf) < keptRoom {
		c.retire() // full
		c, _ = keptPool.Get().(*keptChunk)
	}
	if c == nil {
		c = newKeptChunk()
	}
	if !r.keptUsual(&ps[0], nowMillis, &item[0], &res[0], c) {
		var offsets [1][2]int
		r.encodePart(ps[:1], 0, item[:1], res[:1], offsets[:], nowMillis, &c.buf)
		if o := offsets[0]; o[1] > o[0] {
			item[0].enc = c.buf[o[0]:o[1]]
			item[0].chunk = c
			c.written++ // its use, counted in refs once keptPool lets go of c
		}
	}
	if cap(c.buf) <= 2*keptSize {
		keptPool.Put(c)
	} else {
		c.retire() // grown for a large encoding: not kept in keptPool
	}
}

// keptUsual is encodeKept's writing of p, the proposal at index 0 of its
// call, when p is a usual one (see usualShape): what encodePart writes for
// it, written into chunk c, its encoding (followed by a comma) in item,
// with c, and its result in res (item and res zero on entry). It reports
// false, having written nothing before len(c.buf) and set nothing, when p
// is not usual, or its aspect fails, or its encoding is too large:
// encodePart then writes p, or says why it cannot be sent.
func (r *REST) keptUsual(p *Proposal, nowMillis int64, item *encoded, res *Result, c *keptChunk) bool {
	var f shapeFinder
	s, text := r.usualOf(p, nowMillis, &f)
	if s == nil {
		return false
	}
	start := len(c.buf)
	out, ok := s.appendUsual(c.buf, p, text)
	if !ok || !r.usualFits(out[start:]) {
		return false
	}
	c.buf = out
	item.enc = out[start : len(out)-1] // its capacity to the chunk's end: see joined
	item.chunk = c
	s.fill(text, item, res, 0)
	c.written++ // its use, counted in refs once keptPool lets go of c
	return true
}

// fill fills in the item and the result, both zero, of a proposal of
// shape s, written, whose URN's text is text, at index of its call.
func (s *usualShape) fill(text string, item *encoded, res *Result, index int) {
	if s.unsafe { // item is zero: a safe one is left unwritten
		item.unsafe = true
	}
	// res is zero: its other members stay so, without a write (or, while
	// the collector marks, a barrier for each pointer of the whole Result).
	res.Index, res.URN, res.Aspect = index, text, s.name
}

// usualFits reports whether enc, a usual proposal's encoding followed by
// its comma, fits a request of its own within the REST's limit.
func (r *REST) usualFits(enc []byte) bool {
	return len(enc)-1+len(singlePrefix)+len(r.suffix) <= r.maxBytes
}

// encodeIn checks and encodes every proposal. Each result names its
// proposal; those that cannot be sent are Rejected with the reason, the
// others NotAttempted. The encodings live in buffers of arena, which must
// not be released while they are used.
func (r *REST) encodeIn(ps []Proposal, arena *encodeArena) ([]encoded, []Result) {
	return r.encodeInto(ps, arena, false)
}

// encodeInto is encodeIn; with kept, the encodings are a copy of the
// arena's content, of its exact size, so that arena may be released.
// Contiguous parts of ps are encoded on their own goroutines (see
// encoders); the outcome is the same as one goroutine's.
func (r *REST) encodeInto(ps []Proposal, arena *encodeArena, kept bool) ([]encoded, []Result) {
	return r.encodeOn(encoders(len(ps)), ps, arena, kept)
}

// encodeOn is encodeInto on k goroutines (1 <= k <= len(ps)).
func (r *REST) encodeOn(k int, ps []Proposal, arena *encodeArena, kept bool) ([]encoded, []Result) {
	return r.encodeOnWith(par.In, k, ps, arena, kept)
}

// encodeOnWith is encodeOn, its k ranges run by run (par.In, or a test's
// order of them).
//
// With a head (and not kept), a range that starts once the ranges before
// it are all written in the first buffer is written there too, after them,
// instead of in a buffer of its own: the caller that runs its ranges alone
// (the split's helper not there yet, as is usual on a loaded machine)
// leaves every encoding in place, and joinParts moves only the ranges
// written elsewhere. The first buffer is sized for all of ps.
func (r *REST) encodeOnWith(run func(k, n int, fn func(c, lo, hi int)), k int, ps []Proposal, arena *encodeArena, kept bool) ([]encoded, []Result) {
	now := r.nowMillis(time.Now())
	var items []encoded
	var results []Result
	var offsets [][2]int
	if arena.scratch != nil {
		items, results, offsets = arena.scratch.take(len(ps))
	} else {
		items, results, offsets = make([]encoded, len(ps)), make([]Result, len(ps)), make([][2]int, len(ps))
	}
	parts := make([][]byte, k)
	bufs := make([]*[]byte, k)
	for j := range bufs {
		bufs[j] = arena.get()
	}
	inPlace := arena.head != nil && !kept
	// tip is the number of ranges written, in order, in bufs[0]: range j
	// finds it j only once range j-1 is written there, and then only
	// range j does.
	var tip atomic.Int32
	if inPlace {
		arena.startFirst(bufs[0], len(ps))
	} else {
		arena.startFirst(bufs[0], len(ps)/k+1)
	}
	run(k, len(ps), func(j, lo, hi int) {
		buf := bufs[j]
		first := inPlace && j > 0 && tip.Load() == int32(j)
		if first {
			buf = bufs[0]
		}
		r.encodePart(ps[lo:hi], lo, items[lo:hi], results[lo:hi], offsets[lo:hi], now, buf)
		if j == 0 || first {
			tip.Store(int32(j + 1))
		}
	})
	for j, b := range bufs {
		parts[j] = *b
	}
	if inPlace {
		joinParts(bufs[0], parts, int(tip.Load()), arena.room)
	}
	if kept {
		size := 0
		for _, p := range parts {
			size += len(p)
		}
		all := make([]byte, 0, size)
		for j, p := range parts {
			all = append(all, p...)
			parts[j] = all[len(all)-len(p) : len(all) : len(all)]
		}
	}
	for j := range parts {
		lo, hi := j*len(ps)/len(parts), (j+1)*len(ps)/len(parts)
		for i := lo; i < hi; i++ {
			if o := offsets[i]; o[1] > o[0] {
				items[i].enc = parts[j][o[0]:o[1]] // its capacity to the buffer's end: see joined
			}
		}
	}
	return items, results
}

// joinParts appends the encodings of parts[t:] (the buffers of ranges
// written elsewhere) to *first, whose content holds those of the ranges
// before t, with room bytes of capacity left after them, and sets each
// part to its place there: from its start (that of *first for the ranges
// before t, whose offsets are in *first) to the end of *first's capacity,
// which its encodings are sliced with (see joined). The copy is the size
// of the ranges written elsewhere, a memmove, small beside encoding them.
func joinParts(first *[]byte, parts [][]byte, t, room int) {
	size := len(*first) + room
	for _, p := range parts[t:] {
		size += len(p)
	}
	all := slices.Grow(*first, size-len(*first))
	starts := len(all)
	for _, p := range parts[t:] {
		all = append(all, p...)
	}
	*first = all
	all = all[:cap(all)]
	for j := range t {
		parts[j] = all
	}
	for j, p := range parts[t:] {
		parts[t+j] = all[starts:]
		starts += len(p)
	}
}

// encodePart encodes ps, the proposals from index base of a call, into
// items, results and offsets (their places in *buf; all three zero on
// entry, as every caller's are), appending to *buf
// (left holding the grown buffer), after what *buf holds already. Each
// encoding is followed by a comma, so that a request can send consecutive
// encodings as one slice. The bytes before len(*buf) are not written.
func (r *REST) encodePart(ps []Proposal, base int, items []encoded, results []Result, offsets [][2]int, now int64, buf *[]byte) {
	single := len(singlePrefix) + len(r.suffix)
	arena := *buf
	if cap(arena) == 0 {
		arena = make([]byte, 0, 1024*len(ps))
	}
	defer func() { *buf = arena }()
	var sm []byte // the system metadata of the proposals that have none, once the general path needs it
	var shapes shapeFinder
	for i := range ps {
		p := &ps[i]
		if s, text := r.usualOf(p, now, &shapes); s != nil {
			// The usual proposal, written from its shape's pieces (see
			// usualShape). One whose aspect fails, or that is too large,
			// takes the general path, which says why.
			start := len(arena)
			if out, ok := s.appendUsual(arena, p, text); ok && r.usualFits(out[start:]) {
				arena = out
				s.fill(text, &items[i], &results[i], base+i)
				offsets[i] = [2]int{start, len(arena) - 1}
				continue
			}
		}
		text, plain, ds := hooks.DatasetText(p.URN)
		f := findShape(p, "")
		ct, name := f.ct, f.name
		items[i].unsafe = !replaySafe(ct, p.Headers)
		res := &results[i]
		*res = Result{Index: base + i, Aspect: name}
		// A dataset URN keeps its text: the usual proposal's result names
		// it at no cost, and it passes checkURN without the full check.
		if ds && plainWriteOf(p, ct, name, f.own) {
			res.URN = text
			if plain {
				f.plainText = text
			}
		} else {
			res.URN = p.urnString()
			if err := p.checkURN(res.URN); err != nil {
				res.Status, res.Err = Rejected, err
				continue
			}
			if ct == Delete {
				continue
			}
			f.plainText = plainDatasetText(p)
		}
		if sm == nil {
			sm = r.defaultSM(now)
		}
		start := len(arena)
		var err error
		arena, err = appendProposalOf(arena, p, res.URN, f, now, sm, false)
		if err != nil {
			arena = arena[:start]
			res.Status, res.Err = Rejected, err
			continue
		}
		if size := len(arena) - start + single; size > r.maxBytes {
			arena = arena[:start]
			res.Status, res.Err = Rejected, &TooLargeError{Index: base + i, URN: res.URN, Aspect: res.Aspect, Size: size, Limit: r.maxBytes}
			continue
		}
		offsets[i] = [2]int{start, len(arena)}
		arena = append(arena, ',') // what separates it from the next in a request: see joined
	}
}

// arenaPool holds the buffers Emit calls encode into.
var arenaPool sync.Pool

// maxPooledArena is the largest buffer put back in arenaPool.
const maxPooledArena = 4 << 20

// getArena returns an empty buffer from arenaPool.
func getArena() *[]byte {
	if b, ok := arenaPool.Get().(*[]byte); ok {
		return b
	}
	return new([]byte)
}

// putArena returns b to arenaPool unless it grew too large to keep.
func putArena(b *[]byte) {
	if cap(*b) <= maxPooledArena {
		*b = (*b)[:0]
		arenaPool.Put(b)
	}
}

// joined returns run, encodings ending with a's, extended to b when b is
// the encoding that follows a in memory after a comma (as encodePart
// writes them), and false otherwise. Encodings are sliced with their
// capacity up to the end of their buffer, so that both ends of that
// capacity are the same element exactly when b follows a there.
func joined(a, b []byte) ([]byte, bool) {
	if len(b) == 0 || cap(a) != len(a)+1+cap(b) {
		return nil, false
	}
	if &a[:cap(a)][cap(a)-1] != &b[:cap(b)][cap(b)-1] || a[:len(a)+1][len(a)] != ',' {
		return nil, false
	}
	return a[:len(a)+1+len(b)], true
}

// bodyParts returns the parts of a request body that lists the encodings
// enc(i) of idx, comma-separated, between head and tail: consecutive
// encodings go as one slice (see joined), so the body is sent from the
// encodings' memory without a copy.
func bodyParts(head, tail []byte, idx []int, enc func(int) []byte) [][]byte {
	// One pass: the usual body is one run (its encodings written one
	// after the other into one buffer), and its parts fit the first
	// allocation.
	parts := make([][]byte, 1, 3)
	parts[0] = head
	run := enc(idx[0])
	for _, i := range idx[1:] {
		e := enc(i)
		if more, ok := joined(run, e); ok {
			run = more
			continue
		}
		parts = append(parts, run, commaBytes)
		run = e
	}
	return append(parts, run, tail)
}

// arenaHolds returns an arena's buffers to the pool, and lets go of the
// keptChunks of an Async batch, once its last holder lets go: the call
// that encoded into it (or sends the batch), and each request whose body
// is read from it (net/http may read a body after the answer came).
type arenaHolds struct {
	n      atomic.Int64
	arena  encodeArena
	chunks []*keptChunk
}

// newArenaHolds returns holds with one holder, the caller.
func newArenaHolds() *arenaHolds {
	h := &arenaHolds{}
	h.n.Store(1)
	return h
}

// hold adds a holder and returns its release.
func (h *arenaHolds) hold() func() {
	h.n.Add(1)
	return h.release
}

// release lets go of one hold; the last gives the arena back and lets go
// of the chunks.
func (h *arenaHolds) release() {
	if h.n.Add(-1) == 0 {
		h.arena.release()
		for _, c := range h.chunks {
			c.release()
		}
		h.chunks = nil
	}
}

// chunkHolds returns holds, with one holder (the caller), on the
// keptChunks of items; nil when they have none.
func chunkHolds(items []encoded) *arenaHolds {
	n := 0
	for _, it := range items {
		if it.chunk != nil {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	h := newArenaHolds()
	h.chunks = make([]*keptChunk, 0, n)
	for _, it := range items {
		if it.chunk != nil {
			h.chunks = append(h.chunks, it.chunk)
		}
	}
	return h
}
