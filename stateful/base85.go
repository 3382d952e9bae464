package stateful

import "fmt"

// base85Alphabet is RFC 1924's alphabet, which Python's base64.b85encode
// and DataHub's base85-bz2-json checkpoints use (not Adobe's Ascii85 of
// package encoding/ascii85).
const base85Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"

// base85Value maps a byte of the alphabet to its value plus one (0: not in
// the alphabet).
var base85Value = func() (v [256]byte) {
	for i := range len(base85Alphabet) {
		v[base85Alphabet[i]] = byte(i + 1)
	}
	return v
}()

// base85Encode encodes b as Python's base64.b85encode(b) does: each group
// of four bytes (the last padded with zeros) as five characters, most
// significant first, and the characters the padding made dropped.
func base85Encode(b []byte) []byte {
	pad := (4 - len(b)%4) % 4
	in := append(append(make([]byte, 0, len(b)+pad), b...), make([]byte, pad)...)
	out := make([]byte, 0, len(in)/4*5)
	for i := 0; i < len(in); i += 4 {
		w := uint32(in[i])<<24 | uint32(in[i+1])<<16 | uint32(in[i+2])<<8 | uint32(in[i+3])
		var g [5]byte
		for j := 4; j >= 0; j-- {
			g[j] = base85Alphabet[w%85]
			w /= 85
		}
		out = append(out, g[:]...)
	}
	return out[:len(out)-pad]
}

// base85Decode decodes s as Python's base64.b85decode(s) does: the text is
// padded with '~' to a multiple of five characters, each group decoded to
// four bytes, and as many bytes as padding characters dropped. A character
// outside the alphabet, or a group above 2³²-1, is an error.
func base85Decode(s []byte) ([]byte, error) {
	pad := (5 - len(s)%5) % 5
	out := make([]byte, 0, (len(s)+pad)/5*4)
	for i := 0; i < len(s)+pad; i += 5 {
		var w uint64
		for j := i; j < i+5; j++ {
			c := byte('~')
			if j < len(s) {
				c = s[j]
			}
			v := base85Value[c]
			if v == 0 {
				return nil, fmt.Errorf("bad base85 character %q at byte %d", c, j)
			}
			w = w*85 + uint64(v-1)
		}
		if w > 1<<32-1 {
			return nil, fmt.Errorf("base85 overflow in the group at byte %d", i)
		}
		out = append(out, byte(w>>24), byte(w>>16), byte(w>>8), byte(w))
	}
	return out[:len(out)-pad], nil
}
