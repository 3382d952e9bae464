package openapi

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// An aspect's value in a batch POST of the emitters' shape is not
// validated as JSON while quickItems reads it: its end is found by the
// text the emitters write after it (valueEndBySM), else by matching its
// brackets outside strings (skipContainer), and the core's check of the
// value, which refuses any value that is not a valid JSON object, is the
// one pass that reads it whole. A request the core refuses
// has its values checked then (uncheckedInvalid): one that is not JSON
// gets the answer the general path gives it, as if the quick path had
// never taken it.

// maxNesting is encoding/json's nesting limit, which the general path's
// decode keeps to: a value whose containers nest deeper within the body
// is left to it.
const maxNesting = 10000

// valueLevel is the nesting level of an aspect's value in a batch body:
// the list, the item, the aspect's part, the value.
const valueLevel = 4

// Classes of the bytes skipContainer stops at, outside strings.
const (
	skipOther = iota
	skipOpen
	skipClose
	skipQuote
)

// skipClass is the class of each byte for skipContainer.
var skipClass = [256]uint8{'{': skipOpen, '[': skipOpen, '}': skipClose, ']': skipClose, '"': skipQuote}

// skipContainer returns the offset after the object or array whose
// opening bracket is d[i], at nesting level level: where the count of
// brackets outside strings, from it, comes back to zero. It does not
// validate what it passes (a '}' closes a '[' as well): a text that is
// not valid JSON gives a span the core's check refuses. It returns -1 when
// the brackets do not close within d, or nest past maxNesting.
func skipContainer(d []byte, i, level int) int {
	depth := 0
	for i < len(d) {
		c := d[i]
		i++
		switch skipClass[c] {
		case skipOpen:
			depth++
			if level+depth-1 > maxNesting {
				return -1
			}
		case skipClose:
			depth--
			if depth == 0 {
				return i
			}
		case skipQuote: // to the first quote not escaped, eight bytes at a time
		str:
			for {
				for i+8 <= len(d) {
					w := binary.LittleEndian.Uint64(d[i:])
					q, b := w^('"'*swarOnes), w^('\\'*swarOnes)
					m := ((q - swarOnes) &^ q & swarHigh) | ((b - swarOnes) &^ b & swarHigh)
					if m != 0 {
						i += bits.TrailingZeros64(m) >> 3
						break
					}
					i += 8
				}
				if i >= len(d) {
					return -1
				}
				switch d[i] {
				case '"':
					i++
					break str
				case '\\':
					i += 2
				default: // the last bytes of d, one at a time
					i++
				}
			}
		}
	}
	return -1
}

// valueThenSM is the text the emitters write after an aspect's value: its
// closing brace and the key of the systemMetadata that follows it.
var valueThenSM = []byte(`},"systemMetadata":`)

// smWindow is how far valueEndBySM looks for the end of a value, well below
// what could nest past maxNesting.
const smWindow = 1 << 10

// valueEndBySM returns the offset after the aspect value whose '{' is d[i]
// as the emitters write it, found without walking the value: after a '}'
// followed by ,"systemMetadata": within smWindow bytes of it, the one
// that ends a span of guess bytes (a batch's values are most often as
// long as the one before) or else the first; -1 when there is none. The
// span is right whenever it is a JSON object, which the core's check then
// finds: a JSON object's text ends where its brackets outside strings
// first close, which is where skipContainer ends it, whichever '}' the
// span was taken to. A span that is not right (a value holding that text
// outside its strings, or one without systemMetadata after it, whose span
// runs into what follows) is no JSON object: the core's check refuses it,
// and the request is then answered by the general path as any request
// with a value that is not JSON is (see uncheckedInvalid), so that the
// span never changes an answer (FuzzQuickWrite, TestValueEndBySMMisread).
func valueEndBySM(d []byte, i, guess int) int {
	end := min(len(d), i+smWindow)
	if j := i + guess - 1; guess > 1 && j < end && smAt(d, j) {
		return j + 1
	}
	for j := i + 1; j < end; j++ {
		k := bytes.IndexByte(d[j:end], '}')
		if k < 0 {
			return -1
		}
		j += k
		if smAt(d, j) {
			return j + 1
		}
	}
	return -1
}

// smAt reports whether d holds valueThenSM at offset j (0 <= j).
func smAt(d []byte, j int) bool {
	return len(d)-j >= len(valueThenSM) && // the text in three words, overlapping
		binary.LittleEndian.Uint64(d[j:]) == smWord0 &&
		binary.LittleEndian.Uint64(d[j+8:]) == smWord1 &&
		binary.LittleEndian.Uint64(d[j+len(valueThenSM)-8:]) == smWord2
}

// The words of valueThenSM valueEndBySM compares: its first eight bytes,
// its next eight, and its last eight.
var (
	smWord0 = binary.LittleEndian.Uint64(valueThenSM)
	smWord1 = binary.LittleEndian.Uint64(valueThenSM[8:])
	smWord2 = binary.LittleEndian.Uint64(valueThenSM[len(valueThenSM)-8:])
)

// SWAR constants: 1 in every byte of a word, and the bytes' high bits. In
// skipContainer, ((x - swarOnes) &^ x & swarHigh) marks the bytes of x that
// are zero, and maybe bytes above the first (a borrow), never below: the
// lowest mark is the first zero byte.
const (
	swarOnes = 0x0101010101010101
	swarHigh = 0x8080808080808080
)

// uncheckedInvalid reports whether a value of ps, which quickItems read
// without validating, is not a valid JSON value at valueLevel.
func uncheckedInvalid(ps []gms.Proposal) bool {
	sc := scanners.Get().(*pdl.Scanner)
	defer scanners.Put(sc)
	for i := range ps {
		sc.Reset(ps[i].Aspect)
		if _, ok := sc.Value(valueLevel); !ok || !sc.Done() {
			return true
		}
	}
	return false
}
