package openapi

import (
	"bytes"
	"testing"
)

// FuzzIsASCII: isASCII answers as a check of every byte, for texts whose
// one high byte may fall in any part of a 32-byte step, an 8-byte step or
// the tail.
func FuzzIsASCII(f *testing.F) {
	for _, n := range []int{0, 1, 7, 8, 31, 32, 33, 40, 63, 64, 71, 200} {
		b := bytes.Repeat([]byte{'a'}, n)
		f.Add(b)
		for i := range n {
			c := bytes.Clone(b)
			c[i] = 0x80
			f.Add(c)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := true
		for _, c := range b {
			if c >= 0x80 {
				want = false
			}
		}
		if got := isASCII(b); got != want {
			t.Fatalf("isASCII(%q) = %v; want %v", b, got, want)
		}
	})
}
