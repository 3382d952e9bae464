package pdl

// Memory gives the memory of a compaction's copy: Take(n) returns an empty
// slice with room for n bytes that nothing else writes to.
type Memory interface {
	Take(n int) []byte
}

// ConformsCompactTake is ConformsCompact whose compaction, when it copies,
// takes its memory from mem: mem.Take(len(data)) (a compaction is never
// longer). Take is called at most once, and may be called when
// ConformsCompactTake then reports false.
func ConformsCompactTake(recordName string, data []byte, mem Memory) ([]byte, bool) {
	c := compactor{mem: mem}
	if !conforms(recordName, data, &c) {
		return nil, false
	}
	return c.result(data), true
}

// ConformsCompactHash is ConformsCompactTake that also returns data's
// [Hash], computed on the same pass, or 0 where the pass leaves it to Hash
// (e.g. for a map of more than 16 entries).
func ConformsCompactHash(recordName string, data []byte, mem Memory) (compact []byte, hash uint64, ok bool) {
	c := compactor{mem: mem}
	h, ok := conformsHashing(recordName, data, &c, true)
	if !ok {
		return nil, 0, false
	}
	return c.result(data), h, true
}

// CompactSharedTake is CompactShared taking the memory of a copy from mem,
// on the terms of ConformsCompactTake.
func CompactSharedTake(src []byte, mem Memory) ([]byte, bool) {
	c := compactor{mem: mem}
	if !validCompacting(src, &c) {
		return nil, false
	}
	return c.result(src), true
}

// result returns the compaction of data that c collected: data itself when
// nothing was left out.
func (c *compactor) result(data []byte) []byte {
	if !c.left() {
		return data
	}
	return c.finish(data)
}
