package gms

import (
	"bytes"
	"hash/maphash"
	"sync/atomic"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// The values checkHeld's quick pass accepted lately. An emitter writes the
// same aspect value to entity after entity (a status, a platform, the same
// owners), and the pass's answer (accepted, the compaction, the hash)
// depends on the value's bytes and the record its entity type holds alone:
// the URN checks are functions of the URN text, as pdl's own cache of
// accepted URNs takes them. A value seen a second time is kept, one a slot
// by the hash of its bytes (a later one takes the slot), so that a read
// takes no lock and writes to no shared memory; a value seen once leaves
// only its hash, so that values that never repeat cost no copies.
var (
	checkedSeen     [checkedSlots]atomic.Pointer[checkedValue]
	checkedSeenOnce [checkedSlots]atomic.Uint64
	checkedSeed     = maphash.MakeSeed()
)

// checkedSlots is the number of values kept at most, and maxCheckedLen the
// length of one kept.
const (
	checkedSlots  = 1024
	maxCheckedLen = 2048
)

// checkedValue is a value the quick pass accepted for the record held:
// its compaction and its jsonx.Hash (0: unknown).
type checkedValue struct {
	held       pdl.Held
	timeseries bool // the aspect's timestamp was checked
	in         []byte
	compact    []byte
	hash       uint64
}

// checkedHash is the slot hash of raw, 0 when raw is too long to keep.
func checkedHash(raw []byte) uint64 {
	if len(raw) > maxCheckedLen {
		return 0
	}
	return maphash.Bytes(checkedSeed, raw) | 1
}

// seenChecked returns the answer kept for raw (of slot hash h), a value of
// the aspect info held as held: its compaction copied to memory from a,
// and its hash.
func seenChecked(info pdl.AspectInfo, held pdl.Held, raw []byte, h uint64, a *valueArena) ([]byte, uint64, bool) {
	if h == 0 {
		return nil, 0, false
	}
	v := checkedSeen[h%checkedSlots].Load()
	if v == nil || v.held != held || v.timeseries != info.Timeseries || !bytes.Equal(v.in, raw) {
		return nil, 0, false
	}
	if len(v.compact) == len(raw) { // raw is its own compaction, as the pass returns it
		return raw, v.hash, true
	}
	return append(a.take(len(v.compact)), v.compact...), v.hash, true
}

// keepChecked notes that the quick pass accepted raw (of slot hash h), a
// value of the aspect info held as held, with compaction c and hash vh; the
// second time, it keeps the answer.
func keepChecked(info pdl.AspectInfo, held pdl.Held, raw []byte, h uint64, c []byte, vh uint64) {
	if h == 0 {
		return
	}
	if checkedSeenOnce[h%checkedSlots].Swap(h) != h {
		return
	}
	v := &checkedValue{held: held, timeseries: info.Timeseries, in: bytes.Clone(raw), hash: vh}
	v.compact = v.in
	if len(c) != len(raw) {
		v.compact = bytes.Clone(c)
	}
	checkedSeen[h%checkedSlots].Store(v)
}
