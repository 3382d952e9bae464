package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/par"
)

// prepared is what a write needs that does not depend on the stored rows,
// worked out before the store's writer lock is taken: its checks, its
// createdBy and systemMetadata as the Rules receive it, its document's
// identity, its row keys and its value's hash. The writer lock then covers
// only what reads or changes the rows.
type prepared struct {
	// err is the write's own fault; Apply reports it when it reaches the
	// write, after the earlier ones, as if found there.
	err   error
	batch *batchShared
	sm    rawObject       // Rules.Received's
	value json.RawMessage // the value, compact (nil with a Transform)
	hash  uint64          // jsonx.Hash(value), 0 when unknown
	head  rowHead         // the new row of value, up to its version
	doc   *docIdentity    // a timeseries write's document
	// keys holds the row key of version 0 and room for one history row
	// key; its first urnLen bytes are the entity's key (urnPrefix) and its
	// first prefixLen bytes the aspect's (aspectPrefix).
	keys              []byte
	urnLen, prefixLen int
	ms                int64  // the write's time, Unix milliseconds
	keep              int64  // the versions retention keeps (keepVersions)
	actor             string // createdBy
	// room is Rules.Next's room.
	room [24]byte
	pre  preRow  // the new latest row, when built before the writer lock
	out  outcome // the write's, once applied
	// event is the place (index+1) of the event of pre's row in its
	// update's events, which the caller fills in after the writer lock
	// (see upsertBuilt); 0 for none.
	event int32
	// recv is 1 + the index of the write of the batch whose call of
	// Rules.Received gave sm (this one's or, see receivedMemo, a copy of
	// an earlier one's): two writes of one recv were received as equal
	// members (see fieldMemo.matches).
	recv int32
}

// batchShared is what the writes of a batch share.
type batchShared struct {
	rules Rules
	// scratch is room for the systemMetadata a write builds under the lock:
	// the writes run one after the other; smBuf is room for its field in
	// a row, which a row copies.
	scratch []jsonx.Member
	smBuf   []byte
	// memo holds the last fields preBuild built in the chunk (see
	// fieldMemo); noMemo turns it off (the tests' reference).
	memo   fieldMemos
	noMemo bool
	// stamp is the encoding of the createdOn and createdBy of the chunk's
	// last row built before the lock.
	stamp rowStamp
}

// stored is sm.appendStored in b's memory, valid until its next call.
func (b *batchShared) stored(sm rawObject, marshalled []byte) ([]byte, error) {
	f, err := sm.appendStored(b.smBuf[:0], marshalled)
	if cap(f) <= maxKeptField {
		b.smBuf = f[:0]
	}
	return f, err
}

// maxKeptField is the room for a systemMetadata field a batch keeps.
const maxKeptField = 4096

// docIdentity is a timeseries document's identity, or why the Rules gave
// it none (Apply reports that after the write's key row).
type docIdentity struct {
	time int64
	id   []byte
	err  error
}

// latestKey is rowKey(urn, aspect, 0).
func (p *prepared) latestKey() []byte {
	n := p.prefixLen + 8
	return p.keys[:n:n]
}

// entityKey is urnPrefix(urn).
func (p *prepared) entityKey() []byte { return p.keys[:p.urnLen:p.urnLen] }

// historyKey is rowKey(urn, aspect, version), in memory of p's that the
// next call reuses: a write asks for the history row it puts, then for the
// one retention deletes (a put copies its key).
func (p *prepared) historyKey(version int64) []byte {
	n := p.prefixLen + 8
	k := p.keys[n : 2*n : 2*n]
	binary.BigEndian.PutUint64(k[p.prefixLen:], uint64(version))
	return k
}

// smMembers is the room for systemMetadata members prepared per write
// (a usual one has four to seven); more take an allocation of their own.
const smMembers = 8

// prepare prepares every write of a batch stamped with now, under rules,
// in memory from a batchMemory that release gives back. The keys of all
// writes share one allocation, their systemMetadata members another.
func prepare(ws []Write, now time.Time, rules Rules) ([]prepared, *batchMemory) {
	return prepareFor(ws, now, rules, false)
}

// prepareFor is prepare for a batch whose rows preBuild builds when
// preBuilds is set: the writes it can build get no rowHead.
func prepareFor(ws []Write, now time.Time, rules Rules, preBuilds bool) ([]prepared, *batchMemory) {
	// Every write gets a region of the key memory of its own (its row key
	// and room for a history row key), so that the writes are prepared in
	// chunks on the machine's cores, each chunk with its own scratch.
	k := par.Count(len(ws), par.MinChunk)
	bm := batchMemories.Get().(*batchMemory)
	offs := bm.takeOffsets(len(ws) + 1)
	for i := range ws {
		offs[i+1] = offs[i] + 2*(2*binary.MaxVarintLen64+len(ws[i].URN)+len(ws[i].Aspect)+8)
	}
	ps, keys, members := bm.take(len(ws), offs[len(ws)], (len(ws)+k)*smMembers)
	keys = keys[:offs[len(ws)]]
	bm.chunks = k
	shared := bm.takeShared(k)
	for c := range shared {
		lo, hi := (len(ws)+c)*smMembers, (len(ws)+c+1)*smMembers
		// An append past s does not reach the next chunk's members; the
		// chunk keeps the room for systemMetadata fields it had.
		s := members[lo:hi:hi]
		shared[c].rules, shared[c].scratch = rules, s
	}
	ms := now.UnixMilli()
	par.In(k, len(ws), func(c, lo, hi int) {
		batch := &shared[c]
		var memo receivedMemo
		for i := lo; i < hi; i++ {
			w, p := &ws[i], &ps[i]
			if w.DeleteEntity && w.URN != "" {
				continue
			}
			if p.err = checkWrite(i, w); p.err != nil {
				continue
			}
			p.ms, p.batch = ms, batch
			actor, sm, recv, err := memo.received(rules, w, ms, int32(i+1), members[i*smMembers:i*smMembers:(i+1)*smMembers])
			if err != nil {
				p.err = fmt.Errorf("%w: item %d: %w", ErrInvalidWrite, i, err)
				continue
			}
			p.actor, p.sm, p.recv = actor, sm, recv
			if w.Timeseries {
				p.doc = documentID(i, w, rules)
			} else {
				p.keep = keepVersions(rules, w.URN, w.Aspect)
			}
			key := keys[offs[i]:offs[i]:offs[i+1]]
			key = lp(key, w.URN)
			p.urnLen = len(key)
			key = lp(key, w.Aspect)
			p.prefixLen = len(key)
			key = binary.BigEndian.AppendUint64(key, 0)
			key = append(key, key[:p.prefixLen]...)
			key = binary.BigEndian.AppendUint64(key, 0)
			p.keys = key[:len(key):len(key)]
			if !w.Timeseries && w.Transform == nil {
				p.value = w.Value
				if !w.Compact {
					p.value = jsonx.CompactShared(w.Value) // checked by IsObject; encode copies it
				}
				if p.hash = w.ValueHash; p.hash == 0 {
					p.hash = jsonx.Hash(p.value)
				}
				if !preBuilds || !preBuildable(w, p) {
					p.head = newRowHead(p.value, ms, p.actor, p.hash, smRoom(rules.First(batch.scratch, sm)))
				}
			}
		}
	})
	return ps, bm
}

// receivedMemo is the last write of a chunk that Rules.Received took, and
// what it returned: a write received the same way (see Rules.Received)
// gets a copy of that instead of another call. The writes of a batch most
// often carry the same systemMetadata, which the adapters decode once.
type receivedMemo struct {
	ok            bool
	sm            []byte // the write's systemMetadata (the same memory, not only equal)
	compact       bool
	aspect, actor string
	outActor      string
	out           []jsonx.Member // the previous write's, read-only
	recv          int32          // that write's id (see prepared.recv)
}

// received is rules.Received(w, ms, dst), or a copy in dst of its result
// for the write m remembers when w is received the same way; recv is the
// id (see prepared.recv) of the write whose call it is, id w's own when
// it called.
func (m *receivedMemo) received(rules Rules, w *Write, ms int64, id int32, dst []jsonx.Member) (actor string, sm []jsonx.Member, recv int32, err error) {
	if m.ok && sameBytes(m.sm, w.SystemMetadata) && m.compact == w.SystemMetadataCompact && m.aspect == w.Aspect &&
		m.actor == w.Actor {
		return m.outActor, append(dst, m.out...), m.recv, nil
	}
	actor, sm, err = rules.Received(w, ms, dst)
	if err != nil {
		m.ok = false
		return "", nil, 0, err
	}
	*m = receivedMemo{ok: true, sm: w.SystemMetadata, compact: w.SystemMetadataCompact, aspect: w.Aspect, actor: w.Actor,
		outActor: actor, out: sm, recv: id}
	return actor, sm, id, nil
}

// batchMemory is the memory prepare gives the writes of a batch, kept for
// the next batch once the batch is done (see release): a batch of 200
// writes needs about 120 KB of it, which allocated afresh every batch
// would be zeroed and brought into the cache again each time.
type batchMemory struct {
	ps      []prepared
	keys    []byte
	members rawObject
	// shared is what the writes of each chunk share; chunks is the number
	// of chunks prepare made, which preBuild makes again.
	shared []batchShared
	chunks int
	offs   []int // the writes' key regions
}

// takeShared returns k zero batchShared from m's memory, each with the
// room for systemMetadata fields it had.
func (m *batchMemory) takeShared(k int) []batchShared {
	if cap(m.shared) < k {
		m.shared = make([]batchShared, k)
	}
	m.shared = m.shared[:k]
	m.clearShared()
	return m.shared
}

// clearShared drops what m's batchShared refer to but their rooms.
func (m *batchMemory) clearShared() {
	for i := range m.shared {
		sh := &m.shared[i]
		sh.memo.reset()
		*sh = batchShared{smBuf: sh.smBuf[:0], memo: sh.memo, stamp: rowStamp{b: sh.stamp.b[:0]}}
	}
}

// takeOffsets returns n ints, the first 0, from m's memory.
func (m *batchMemory) takeOffsets(n int) []int {
	if cap(m.offs) < n {
		m.offs = make([]int, n)
	}
	m.offs = m.offs[:n]
	m.offs[0] = 0
	return m.offs
}

// batchMemories are the batchMemory kept for the next batches.
var batchMemories = sync.Pool{New: func() any { return new(batchMemory) }}

// maxKeptBatch is the most writes whose memory a batchMemory keeps.
const maxKeptBatch = 1024

// take returns n zero prepared, an empty key buffer of capacity keys and m
// zero members, from m's memory when it has room.
func (m *batchMemory) take(n, keys, members int) ([]prepared, []byte, rawObject) {
	if cap(m.ps) < n {
		m.ps = make([]prepared, n)
	}
	if cap(m.keys) < keys {
		m.keys = make([]byte, 0, keys)
	}
	if cap(m.members) < members {
		m.members = make(rawObject, members)
	}
	m.members = m.members[:members]
	return m.ps[:n], m.keys[:0], m.members
}

// release gives m back for the next batch of ps, first dropping what its
// values refer to (the batch's rows, values and systemMetadata). Nothing
// of the batch may use ps or m afterwards.
func (m *batchMemory) release(ps []prepared) {
	if m == nil {
		return
	}
	if len(ps) > maxKeptBatch {
		return
	}
	clear(ps)
	clear(m.members)
	m.clearShared()
	batchMemories.Put(m)
}

// documentID is the identity Rules.Document gives the document of write i,
// its parts length-prefixed.
func documentID(i int, w *Write, rules Rules) *docIdentity {
	ms, parts, err := rules.Document(w)
	if err != nil {
		return &docIdentity{err: fmt.Errorf("%w: item %d: %w", ErrInvalidWrite, i, err)}
	}
	d := &docIdentity{time: ms}
	for _, part := range parts {
		d.id = lpBytes(d.id, part)
	}
	return d
}
