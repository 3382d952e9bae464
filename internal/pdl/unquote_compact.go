package pdl

import (
	"encoding/binary"
	"math/bits"
)

// AppendASCIIStringCompact is AppendASCIIString appending the decoding
// without the JSON white space that lies outside the strings of the
// decoded text (as JSON reads them), in the same pass: the decoding's
// compaction when either the decoding or what it appends is valid JSON,
// and a copy the reader of a string that holds JSON text (an aspect's
// value) need not write and then compact. dropped reports that white
// space was left out; it is false when the text had none, when leaving it
// out could join two tokens (white space between two bytes that are
// neither a quote nor one of "{}[],:", as in "1 2"), and for a literal
// with a \u escape: then the whole decoding is appended, as
// AppendASCIIString appends it. On false
// (no literal, or one whose decoding is not all ASCII) it returns dst as
// it came.
//
// Why the two texts are valid JSON together, with one compaction: the
// strings are told apart as JSON's own lexer tells them (a quote outside a
// string opens one; within one a backslash escapes the byte after it and
// a quote closes it), so that only white space outside the strings goes.
// Each white space left out is next to a quote (the edge of a string), to
// one of "{}[],:", or at the text's start or end; JSON allows white space
// at every such place between two tokens, and a valid text has no other
// place outside its strings and tokens where two tokens meet.
func (s *Scanner) AppendASCIIStringCompact(dst []byte) (b []byte, dropped, ok bool) {
	s.p.ws()
	b, end, dropped, ok := appendUnquotedCompact(dst, s.p.data, s.p.pos)
	if !ok {
		return dst, false, false
	}
	s.p.pos = end
	return b, dropped, true
}

// appendUnquotedCompact is appendUnquotedOf for an all-ASCII decoding
// (ascii set) that leaves out the white space outside the decoded text's
// strings, as AppendASCIIStringCompact says, and reports whether it left
// any out. Within a decoded string, runs of plain bytes are copied a word
// at a time, as appendUnquotedOf copies them; outside, a byte at a time.
// Which state it is in is where the code is: a loop for each, with jumps
// between them, so that the loops keep the few variables they use in
// registers. A literal with
// a \u escape, rare in the text of an aspect, is decoded whole, as one
// whose white space would join two tokens is.
func appendUnquotedCompact(b, d []byte, i int) (_ []byte, end int, dropped, ok bool) {
	if i >= len(d) || d[i] != '"' {
		return b, 0, false, false
	}
	// The output o (at its full length) is written up to n, the literal
	// read up to j.
	o, n, j := b[:cap(b)], len(b), i+1
	var u, e byte
outside:
	// Outside a string, a byte at a time: the text between two strings
	// is short (": ", ", ", "}], ", a number), so that a word's run would
	// end at its first or second byte.
	for j < len(d) {
		if u = d[j]; compactPlain[u] {
			if n == len(o) {
				o = growFull(o, n)
			}
			o[n] = u
			n, j = n+1, j+1
			continue
		}
		switch {
		case u == '\\':
			if j+1 >= len(d) {
				return b, 0, false, false
			}
			e = d[j+1]
			j += 2
			if e == '"' {
				goto open
			}
			if u = unescaped[e]; u == 0 { // a \u escape, or none
				goto whole
			}
			if u == '\n' || u == '\t' || u == '\r' {
				goto space
			}
		case u == ' ':
			j++
			goto space
		case u == '"':
			return o[:n], j + 1, dropped, true
		default: // a control or non-ASCII byte
			return b, 0, false, false
		}
		if n == len(o) {
			o = growFull(o, n)
		}
		o[n] = u
		n++
	}
	return b, 0, false, false
space: // white space outside a string, left out
	dropped = true
	if n > len(b) && compactBare[o[n-1]] && !compactGapOK(d, j) {
		goto whole // two tokens would join
	}
	goto outside
open: // a string starts
	if n == len(o) {
		o = growFull(o, n)
	}
	o[n] = '"'
	n++
inside:
	// Within a string: a run of plain bytes.
	for j+8 <= len(d) && n+8 <= len(o) {
		w := binary.LittleEndian.Uint64(d[j:])
		binary.LittleEndian.PutUint64(o[n:], w)
		q, s := w^swarLow*'"', w^swarLow*'\\'
		if m := ((q-swarLow)&^q | (s-swarLow)&^s | (w-swarLow*0x20)&^w | w) & swarHigh; m != 0 {
			k := int(uint(bits.TrailingZeros64(m)) >> 3)
			n, j = n+k, j+k
			break
		}
		n, j = n+8, j+8
	}
	if j >= len(d) {
		return b, 0, false, false
	}
	if n+2 > len(o) {
		o = growFull(o, n)
	}
	if u = d[j]; u == '\\' {
		if j+1 >= len(d) {
			return b, 0, false, false
		}
		e = d[j+1]
		j += 2
		if e == '"' { // the string ends
			o[n] = '"'
			n++
			goto outside
		}
		if u = unescaped[e]; u == 0 {
			goto whole
		}
		o[n] = u
		n++
		if e != '\\' {
			goto inside
		}
		// A backslash of the string: the byte it escapes, read with it (a
		// quote that ends the literal, or a byte that fails it, is left to
		// the next turn).
		if j >= len(d) {
			return b, 0, false, false
		}
		if u = d[j]; u == '\\' {
			if j+1 >= len(d) || unescaped[d[j+1]] == 0 {
				goto whole
			}
			o[n] = unescaped[d[j+1]]
			n, j = n+1, j+2
		} else if u != '"' && u >= 0x20 && u < 0x80 {
			o[n] = u
			n, j = n+1, j+1
		}
		goto inside
	}
	j++
	switch {
	case u == '"': // the literal ends within the string
		return o[:n], j, dropped, true
	case u < 0x20 || u >= 0x80:
		return b, 0, false, false
	}
	o[n] = u // a plain byte the word loop had no room for
	n++
	goto inside
whole:
	o, end, ok = appendUnquotedOf(b, d, i, true)
	if !ok {
		return b, 0, false, false
	}
	return o, end, false, true
}

// compactGapOK reports whether white space of a decoded text left out
// after a bare byte (compactBare) may go: whether the next decoded byte,
// past any more white space, from the byte at d[i], is no bare one (or
// there is none before the literal's end).
func compactGapOK(d []byte, i int) bool {
	for ; i < len(d); i++ {
		c := d[i]
		if c == '\\' {
			if i+1 >= len(d) {
				return false
			}
			i++
			c = unescaped[d[i]]
			if c == '"' {
				return true
			}
			if c != '\t' && c != '\n' && c != '\r' {
				return false
			}
			continue
		}
		if c != ' ' {
			return c == '"' || !compactBare[c]
		}
	}
	return false
}

// growFull returns b (of which the first n bytes count) with room for a
// word more, at its full length.
func growFull(b []byte, n int) []byte {
	b = append(b[:n], make([]byte, 8)...)
	return b[:cap(b)]
}

// compactBare marks the bytes of a JSON text's tokens that white space
// may not be left out next to (appendUnquotedCompact): all but the quote
// and "{}[],:".
var compactBare = func() (t [256]bool) {
	for c := range t {
		t[c] = true
	}
	for _, c := range []byte(`"{}[],:`) {
		t[c] = false
	}
	return t
}()

// compactPlain marks the bytes appendUnquotedCompact copies as they are
// outside a decoded string: ASCII above the space but the quote and the
// backslash.
var compactPlain = func() (t [256]bool) {
	for c := '!'; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
