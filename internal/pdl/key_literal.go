package pdl

import "encoding/binary"

// keyLit is an object key as a JSON string literal, quotes included, and
// the colon after it, for finding a record's field without scanning its
// key: emitters write a record's fields in the schema's order, so the field
// after the last one found is the likely next key, and the literal's bytes
// at the key's place settle it (a name has no byte that a literal escapes,
// so equal bytes are that literal, whole). A key written otherwise (white
// space before its colon, escapes) takes the general path.
type keyLit struct {
	// word is the literal's first eight bytes (zero past its end), and
	// mask selects the literal's bytes of a word read at the key.
	word, mask uint64
	// n is the literal's length with its colon, 0 when the name cannot be
	// written without escapes (never matched).
	n      int
	quoted string
	// short reports a literal of one word at most.
	short bool
}

// newKeyLit returns the literal of name, with its colon.
func newKeyLit(name string) keyLit {
	for i := 0; i < len(name); i++ {
		if !strPlainByte[name[i]] || name[i] >= 0x80 {
			return keyLit{}
		}
	}
	q := `"` + name + `":`
	k := keyLit{n: len(q), quoted: q, mask: ^uint64(0), short: len(q) <= 8}
	var w [8]byte
	copy(w[:], q)
	k.word = binary.LittleEndian.Uint64(w[:])
	if len(q) < 8 {
		k.mask = 1<<(8*len(q)) - 1
	}
	return k
}

// at reports whether d holds the literal at i.
func (k *keyLit) at(d []byte, i int) bool {
	if k.short && i+8 <= len(d) {
		return binary.LittleEndian.Uint64(d[i:])&k.mask == k.word
	}
	return k.atLong(d, i)
}

// atLong is at for a literal longer than a word, or near d's end.
func (k *keyLit) atLong(d []byte, i int) bool {
	if k.n == 0 {
		return false
	}
	if i+8 <= len(d) {
		return binary.LittleEndian.Uint64(d[i:]) == k.word && len(d)-i >= k.n && string(d[i+8:i+k.n]) == k.quoted[8:]
	}
	return len(d)-i >= k.n && string(d[i:i+k.n]) == k.quoted
}
