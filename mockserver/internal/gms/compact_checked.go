package gms

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// aspectPassesCompact is the quick form of checkAspect's checks: true means
// they all pass, for valid JSON without decoding it, and comes with raw's
// compaction as jsonx.CompactShared returns it, a copy taken from a (the
// schema or JSON check and the compaction are one pass over raw); false
// leaves the verdict and the message to checkAspect.
func aspectPassesCompact(info pdl.AspectInfo, raw []byte, schema bool, a *valueArena) ([]byte, bool) {
	c, _, ok := aspectPassesHashed(info, raw, schema, a)
	return c, ok
}

// aspectPassesHashed is aspectPassesCompact that also returns raw's
// jsonx.Hash when the schema check computed it on its way (0: unknown).
// Its schema check makes no URN checks (see aspectPassesHeldMarks).
func aspectPassesHashed(info pdl.AspectInfo, raw []byte, schema bool, a *valueArena) ([]byte, uint64, bool) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return nil, 0, false
	}
	var c []byte
	var h uint64
	var ok bool
	if schema {
		c, h, ok = pdl.ConformsCompactHash(info.RecordName, raw, arenaMemory{a})
	} else {
		c, ok = pdl.CompactSharedTake(raw, arenaMemory{a})
	}
	if !ok {
		return nil, 0, false
	}
	if info.Timeseries && !timestampOK(raw) {
		return nil, 0, false
	}
	return c, h, true
}

// aspectPassesHeldMarks is aspectPassesHashed for a value checked against
// its record as its entity type holds it (held, from pdl.HeldRecord), that
// also makes checkValue's UTF-8 check (true means raw is valid UTF-8 too),
// and returns the marks the walk noted in raw (in a's memory, until its
// next check; a nil arena notes none) when there are any (held is marked:
// see pdl.Held.Marking), the compaction is raw itself, the hash is not 0
// and the walk noted no more marks than it keeps; else nil.
func aspectPassesHeldMarks(info pdl.AspectInfo, held pdl.Held, raw []byte, a *valueArena) ([]byte, uint64, []pdl.Mark, bool) {
	var c []byte
	var h uint64
	var ascii, ok bool
	var marks []pdl.Mark
	if a != nil {
		c, h, ascii, ok = held.ConformsCompactHashMarks(raw, arenaMemory{a}, &a.marks)
		if ok && h != 0 && len(c) == len(raw) && a.marks.N > 0 {
			marks, _ = a.marks.Kept() // nil when not all were kept
		}
	} else {
		c, h, ascii, ok = held.ConformsCompactHash(raw, arenaMemory{a})
	}
	if !ok || !ascii && !utf8.Valid(raw) {
		return nil, 0, nil, false
	}
	if info.Timeseries && !timestampOK(raw) {
		return nil, 0, nil, false
	}
	return c, h, marks, true
}

// timestampOK reports whether the valid JSON object raw has a
// timestampMillis that is a long, as a timeseries aspect must.
func timestampOK(raw []byte) bool {
	ms, ok := pdl.ObjectMembers(raw)
	if !ok {
		return false
	}
	var ts []byte // the last timestampMillis wins, as in a decoded object
	for _, m := range ms {
		if m.Key == "timestampMillis" {
			ts = m.Value
		}
	}
	_, err := strconv.ParseInt(string(ts), 10, 64)
	return err == nil
}

// arenaMemory is a valueArena (nil: allocating) as a pdl.Memory.
type arenaMemory struct{ a *valueArena }

func (m arenaMemory) Take(n int) []byte { return m.a.take(n) }
