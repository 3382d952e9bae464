// Package jsonesc finds, eight bytes at a time, where a JSON string
// encoder must stop copying: the bytes a JSON string cannot hold as they
// are (quotes, backslashes, control characters) and the non-ASCII bytes an
// encoder checks (invalid UTF-8, characters it escapes).
package jsonesc

import "math/bits"

// Word masks of the scan: one byte value repeated eight times.
const (
	ones   = 0x0101010101010101
	highs  = 0x8080808080808080
	spaces = 0x2020202020202020 // the first byte a string holds as is
	quotes = 0x2222222222222222
	slashs = 0x5c5c5c5c5c5c5c5c // the backslash
)

// plain marks the bytes Plain skips: ASCII from the space up, except the
// quote and the backslash.
var plain = func() (t [256]bool) {
	for b := 0x20; b < 0x80; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

// Plain returns the index of the first byte of s at or after i that is not
// plain (plain: ASCII from the space up, except '"' and '\\'), len(s) if
// there is none.
func Plain[T string | []byte](s T, i int) int {
	for ; i+8 <= len(s); i += 8 {
		t := s[i : i+8] // one bounds check for the word
		w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		if m := notPlain(w); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i
}

// PlainBytes returns how many of the eight bytes of w (the first in its
// low byte) are plain, as Plain sees them, before the first that is not: 8
// when they all are.
func PlainBytes(w uint64) int { return bits.TrailingZeros64(notPlain(w)) / 8 }

// notPlain marks, in its high bit, each byte of w that is not plain, and
// maybe bytes above the first: a high bit marks, in each test, a byte that
// fails it; a test may also mark bytes above the first it fails (a
// borrow), never below, so the lowest mark is the first byte that is not
// plain.
func notPlain(w uint64) uint64 {
	// (w - spaces) marks the bytes below the space (where w's own high
	// bit is clear), w the bytes from 0x80.
	return ((w - spaces) | w | zero(w^quotes) | zero(w^slashs)) & highs
}

// zero marks (in its high bit) each zero byte of v, and maybe bytes above
// the first: the classic "has a zero byte" test.
func zero(v uint64) uint64 { return (v - ones) &^ v }
