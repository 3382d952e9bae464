package pdl

// Held is a record as the aspect (or key aspect) of an entity type, as
// [ValidateIn] checks it, found once: a caller that checks many values of
// one aspect keeps it instead of naming the entity type and the record on
// every check. The zero Held holds no record.
type Held struct{ rec *cRecord }

// HeldRecord returns the record recordName as held by the entity type
// entity; false when there is no such record.
func HeldRecord(entity, recordName string) (Held, bool) {
	r := heldRecord(entity, recordName)
	return Held{r}, r != nil
}

// Valid reports whether h holds a record.
func (h Held) Valid() bool { return h.rec != nil }

// ConformsCompactHash is [ConformsCompactHashIn] for h's entity type and
// record (false for the zero Held), that also reports whether data, when it
// conforms, is all ASCII (and so valid UTF-8, which the check does not
// settle otherwise: it takes a string's bytes as encoding/json does).
func (h Held) ConformsCompactHash(data []byte, mem Memory) (compact []byte, hash uint64, ascii, ok bool) {
	c := compactor{mem: mem}
	hash, ascii, ok = conformsRootASCII(h.rec, data, &c, true, true)
	if !ok {
		return nil, 0, false, false
	}
	return c.result(data), hash, ascii, true
}
