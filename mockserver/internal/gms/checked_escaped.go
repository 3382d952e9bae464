package gms

import (
	"bytes"
	"hash/maphash"
	"sync/atomic"
	"unsafe"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// An adapter that decodes a proposal's aspect value from a JSON string (as
// Rest.li's ingestProposal carries it) can have the core's value check made
// in the same pass (ValueCheck.Escaped): the check reads the string's body
// as it is, and gives the decoding, its compaction, its hash and the
// verdict together. prepare takes that answer instead of checking the
// value again when it is the answer for the value it checks (the same
// memory, the record the aspect's entity type holds, the schema checked);
// any other value, and any value the one pass does not read, is checked
// as before, so that every answer, message and stored byte is the same.

// Checked is the core's check of a proposal's Aspect, made ahead by the
// adapter that decoded it (see ValueCheck.Escaped); the zero Checked is
// none.
type Checked struct {
	held       pdl.Held
	timeseries bool   // the aspect is a timeseries one: its timestamp was checked
	raw        []byte // the value checked (the proposal's Aspect)
	compact    []byte // its compaction
	hash       uint64 // its jsonx.Hash (0: unknown)
}

// Equal reports true: a Checked is the core's own answer for the
// proposal's Aspect, worked out ahead, and not a part of what was
// proposed; two proposals are the same whatever their Checked.
func (Checked) Equal(Checked) bool { return true }

// answers reports whether c is the check of raw against held, of a
// timeseries aspect or not.
func (c *Checked) answers(held pdl.Held, timeseries bool, raw []byte) bool {
	return c.held == held && (c.timeseries || !timeseries) && c.of(raw)
}

// of reports whether c is a check of raw (its memory, as it is).
func (c *Checked) of(raw []byte) bool {
	return c.held.Valid() && len(c.raw) == len(raw) && len(raw) > 0 && unsafe.SliceData(c.raw) == unsafe.SliceData(raw)
}

// Compact returns the compaction of the value c checked (the value
// itself when it had no white space to leave out), nil for none.
func (c *Checked) Compact() []byte { return c.compact }

// ValueCheck is the value check of one aspect of one entity type, as an
// adapter asks for it (see CheckFor); the zero ValueCheck checks nothing.
type ValueCheck struct {
	held       pdl.Held
	timeseries bool
}

// CheckFor returns the value check of the aspect aspectName of the entity
// type entityType (as the core names them), false when the core checks
// such a value otherwise or not at all (no such aspect, no record).
func CheckFor(entityType, aspectName string) (ValueCheck, bool) {
	af, ok := allowedAspect(entityType, aspectName)
	if !ok || !af.validated || !af.held.Valid() {
		return ValueCheck{}, false
	}
	return ValueCheck{held: af.held, timeseries: af.info.Timeseries}, true
}

// Escaped reads the JSON string literal at data[start] (its opening
// quote) whose decoding is the aspect's value, in one pass that decodes it
// and checks it as prepare checks a value against its schema. The decoding
// is appended to raw and its compaction to compact (the memory past their
// lengths may be written to either way; see pdl.Held.ConformsEscaped): it
// returns the value, the check to hand to the core with it (as the
// proposal's Checked) and the offset after the literal. False, when the
// value does not pass or the pass does not read it (an escape but \", a
// byte past ASCII, white space but spaces), says nothing of the value:
// decode it otherwise and let the core check it.
func (v ValueCheck) Escaped(data []byte, start int, raw, compact []byte) (value []byte, c Checked, end int, ok bool) {
	if !v.held.Valid() {
		return nil, Checked{}, 0, false
	}
	sh := escapedSlot(data, start)
	if k := escapedSeen[sh%checkedSlots].Load(); k != nil && k.held == v.held && k.timeseries == v.timeseries &&
		bytes.HasPrefix(data[start:], k.lit) {
		// The same literal (its text ends at its closing quote): the same
		// answer, in the caller's memory.
		value = append(raw, k.raw...)[len(raw):]
		value = value[:len(value):len(value)]
		c = Checked{held: v.held, timeseries: v.timeseries, raw: value, compact: value, hash: k.hash}
		if len(k.compact) != len(k.raw) {
			c.compact = append(compact, k.compact...)[len(compact):]
			c.compact = c.compact[:len(c.compact):len(c.compact)]
		}
		return value, c, start + len(k.lit), true
	}
	e, ok := v.held.ConformsEscaped(data, start, raw, compact)
	if !ok || v.timeseries && !timestampOK(e.Raw) {
		return nil, Checked{}, 0, false
	}
	// Cut to their lengths: the memory past them is the next value's.
	e.Raw, e.Compact = e.Raw[:len(e.Raw):len(e.Raw)], e.Compact[:len(e.Compact):len(e.Compact)]
	c = Checked{held: v.held, timeseries: v.timeseries, raw: e.Raw, compact: e.Compact, hash: e.Hash}
	keepEscaped(v, sh, data[start:e.End], &c)
	return e.Raw, c, e.End, true
}

// The answers of ValueCheck.Escaped kept for literals seen twice, as
// checkedSeen keeps checkHeld's (and for the same reason: an emitter
// writes one value to entity after entity), by the hash of the start of
// the literal's text (escapedSlotText bytes, the text after it included
// when the literal is shorter): the literal's length is only known once it
// is read.
var (
	escapedSeen     [checkedSlots]atomic.Pointer[escapedValue]
	escapedSeenOnce [checkedSlots]atomic.Uint64
)

// escapedSlotText is the length of the text escapedSlot hashes.
const escapedSlotText = 64

// escapedValue is an answer of ValueCheck.Escaped for the literal lit.
type escapedValue struct {
	held         pdl.Held
	timeseries   bool
	lit          []byte
	raw, compact []byte
	hash         uint64
}

// escapedSlot is the slot hash of the literal at data[start].
func escapedSlot(data []byte, start int) uint64 {
	return maphash.Bytes(checkedSeed, data[start:min(len(data), start+escapedSlotText)]) | 1
}

// keepEscaped notes the answer c of v for the literal lit (of slot hash
// h); the second time, it keeps it. The note is the hash of the whole
// literal: literals that share their start (a value whose time changes
// from one batch to the next) are not taken for one seen twice.
func keepEscaped(v ValueCheck, h uint64, lit []byte, c *Checked) {
	if len(lit) > maxCheckedLen {
		return
	}
	if whole := maphash.Bytes(checkedSeed, lit) | 1; escapedSeenOnce[h%checkedSlots].Swap(whole) != whole {
		return
	}
	k := &escapedValue{held: v.held, timeseries: v.timeseries, lit: bytes.Clone(lit), raw: bytes.Clone(c.raw), hash: c.hash}
	k.compact = k.raw
	if len(c.compact) != len(c.raw) {
		k.compact = bytes.Clone(c.compact)
	}
	escapedSeen[h%checkedSlots].Store(k)
}
