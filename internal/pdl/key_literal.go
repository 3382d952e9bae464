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
	// words are the literal's bytes eight at a time (zero past its end),
	// and masks select the literal's bytes of words read at the key; a
	// literal longer than the words (n > 8*len(words)) is compared whole.
	words, masks [keyWords]uint64
	// n is the literal's length with its colon, 0 when the name cannot be
	// written without escapes (never matched).
	n      int
	quoted string
}

// keyWords is the number of words a keyLit compares (the literals of 22 of
// every 23 field names fit).
const keyWords = 3

// newKeyLit returns the literal of name, with its colon.
func newKeyLit(name string) keyLit {
	for i := 0; i < len(name); i++ {
		if !strPlainByte[name[i]] || name[i] >= 0x80 {
			return keyLit{}
		}
	}
	q := `"` + name + `":`
	k := keyLit{n: len(q), quoted: q}
	var b [8 * keyWords]byte
	copy(b[:], q)
	for w := range keyWords {
		k.words[w] = binary.LittleEndian.Uint64(b[8*w:])
		switch left := len(q) - 8*w; {
		case left >= 8:
			k.masks[w] = ^uint64(0)
		case left > 0:
			k.masks[w] = 1<<(8*left) - 1
		}
	}
	return k
}

// at reports whether d holds the literal at i.
func (k *keyLit) at(d []byte, i int) bool {
	if k.n == 0 || len(d)-i < k.n {
		return false
	}
	if k.n > 8*keyWords || len(d)-i < 8*keyWords {
		return string(d[i:i+k.n]) == k.quoted
	}
	d = d[i : i+8*keyWords]
	return binary.LittleEndian.Uint64(d)&k.masks[0] == k.words[0] &&
		binary.LittleEndian.Uint64(d[8:])&k.masks[1] == k.words[1] &&
		binary.LittleEndian.Uint64(d[16:])&k.masks[2] == k.words[2]
}
