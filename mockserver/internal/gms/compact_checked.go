package gms

import (
	"bytes"
	"strconv"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// aspectPassesCompact is the quick form of checkAspect's checks: true means
// they all pass, for valid JSON without decoding it, and comes with raw's
// compaction as jsonx.CompactShared returns it, a copy taken from a (the
// schema or JSON check and the compaction are one pass over raw); false
// leaves the verdict and the message to checkAspect.
func aspectPassesCompact(info pdl.AspectInfo, raw []byte, schema bool, a *valueArena) ([]byte, bool) {
	c, _, ok := aspectPassesHashed(info, nil, raw, schema, a)
	return c, ok
}

// aspectPassesHashed is aspectPassesCompact that also makes the URN checks
// of an aspect held by the entity type *held (nil: none; see
// pdl.ValidateIn) and returns raw's jsonx.Hash when the schema check
// computed it on its way (0: unknown).
func aspectPassesHashed(info pdl.AspectInfo, held *string, raw []byte, schema bool, a *valueArena) ([]byte, uint64, bool) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return nil, 0, false
	}
	var c []byte
	var h uint64
	var ok bool
	if schema {
		if held != nil {
			c, h, ok = pdl.ConformsCompactHashIn(*held, info.RecordName, raw, arenaMemory{a})
		} else {
			c, h, ok = pdl.ConformsCompactHash(info.RecordName, raw, arenaMemory{a})
		}
	} else {
		c, ok = pdl.CompactSharedTake(raw, arenaMemory{a})
	}
	if !ok {
		return nil, 0, false
	}
	if !info.Timeseries {
		return c, h, true
	}
	ms, ok := pdl.ObjectMembers(raw)
	if !ok {
		return nil, 0, false
	}
	var ts []byte // the last timestampMillis wins, as in a decoded object
	for _, m := range ms {
		if m.Key == "timestampMillis" {
			ts = m.Value
		}
	}
	if _, err := strconv.ParseInt(string(ts), 10, 64); err != nil {
		return nil, 0, false
	}
	return c, h, true
}

// arenaMemory is a valueArena (nil: allocating) as a pdl.Memory.
type arenaMemory struct{ a *valueArena }

func (m arenaMemory) Take(n int) []byte { return m.a.take(n) }
