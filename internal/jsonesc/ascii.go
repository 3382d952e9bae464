package jsonesc

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// A Rest.li proposal carries its aspect as JSON text inside a JSON string
// (GenericAspect.value), written as DataHub's Python SDK writes it: the
// text's non-ASCII characters as \uXXXX escapes (json.dumps' default), then
// the whole escaped as a string. GenericAspect.value is Pegasus bytes, read
// one character per byte, so the string must be ASCII. AppendASCIIString
// writes JSON text that way; AppendStringInString writes a Go string the
// way it ends up inside such a value (AppendString, then AppendASCIIBody of
// that), in one pass.

// AppendASCIIString appends src as a JSON string that is all ASCII: every
// non-ASCII character of src first written as a \uXXXX escape (a UTF-16
// surrogate pair above U+FFFF, lower-case hex; each byte of invalid UTF-8
// as \ufffd), then the text escaped as AppendString escapes it (so the
// backslash of those escapes is itself escaped).
func AppendASCIIString(dst, src []byte) []byte {
	dst = append(dst, '"')
	return append(AppendASCIIBody(dst, src), '"')
}

// AppendASCIIBody is AppendASCIIString without the quotes around the
// string.
func AppendASCIIBody(dst, src []byte) []byte {
	// The usual text, ASCII whose only bytes to escape are quotes and
	// backslashes (an aspect's JSON), is written into room made once,
	// eight bytes at a time: each word is written whole and the output
	// moves on by its plain bytes, then past the escape of the byte that
	// stopped it. The first other byte to escape hands the rest to the
	// general loop.
	size := 2 * len(src) // the most this loop writes
	dst = slices.Grow(dst, size)
	out := dst[len(dst) : len(dst)+size]
	n, i := 0, 0
	for {
		var c byte
		if i+8 <= len(src) {
			// n <= 2i, so out has room for the whole word.
			w := binary.LittleEndian.Uint64(src[i:])
			binary.LittleEndian.PutUint64(out[n:], w)
			k := PlainBytes(w)
			n, i = n+k, i+k
			if k == 8 {
				continue
			}
			c = src[i]
		} else if i < len(src) {
			if c = src[i]; plain[c] {
				out[n] = c
				n, i = n+1, i+1
				continue
			}
		} else {
			return dst[:len(dst)+n]
		}
		if c != '"' && c != '\\' {
			return asciiRest(dst[:len(dst)+n], src[i:])
		}
		out[n], out[n+1] = '\\', c
		n, i = n+2, i+1
	}
}

// asciiRest is AppendASCIIBody's general loop.
func asciiRest(dst, src []byte) []byte {
	start := 0
	for i := 0; i < len(src); {
		b := src[i]
		if plain[b] {
			i = Plain(src, i+1)
			continue
		}
		dst = append(dst, src[start:i]...)
		if b >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(src[i:])
			i += size
			dst = appendRuneEscaped(dst, r)
			start = i
			continue
		}
		dst = appendByteEscape(dst, b)
		i++
		start = i
	}
	return append(dst, src[start:]...)
}

// appendByteEscape appends the escape AppendString writes for the ASCII
// byte b that a JSON string cannot hold as it is.
func appendByteEscape(dst []byte, b byte) []byte {
	switch b {
	case '"', '\\':
		return append(dst, '\\', b)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xf])
}

// appendRuneEscaped appends the non-ASCII character r as AppendASCIIBody
// writes it: \\uXXXX, a surrogate pair above U+FFFF.
func appendRuneEscaped(dst []byte, r rune) []byte {
	if r >= 0x10000 {
		r1, r2 := utf16.EncodeRune(r)
		dst = appendUnit(dst, r1)
		r = r2
	}
	return appendUnit(dst, r)
}

// appendUnit appends \\uXXXX for the UTF-16 code unit r: the escape \uXXXX
// with its backslash escaped.
func appendUnit(dst []byte, r rune) []byte {
	return append(dst, '\\', '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

// AppendStringInString appends the string s as it stands inside a JSON
// string that holds JSON text: AppendASCIIBody of AppendString(s), in one
// pass. Bytes AppendString writes as they are stay as they are; a quote
// becomes \\\", a backslash \\\\, a control character \\n (and the like)
// or \\u00XX, and every non-ASCII character (U+2028 and U+2029 too, each
// byte of invalid UTF-8 as U+FFFD) \\uXXXX.
func AppendStringInString(dst []byte, s string) []byte {
	// The usual string, plain (see Plain), is copied as it is checked,
	// into room made once for it and its quotes: a word at a time, the
	// last word overlapping the one before it (its bytes already checked
	// are plain, so the lowest byte it marks is a new one), or a byte at a
	// time when s is shorter than a word. The first byte that is not
	// plain hands the rest to appendInStringRest.
	n := len(dst) + 2 // where s's bytes go, after the opening quote
	dst = slices.Grow(dst, len(s)+4)
	out := dst[n-2 : n+len(s)+2]
	out[0], out[1] = '\\', '"'
	body := out[2 : 2+len(s)]
	if len(s) < 8 {
		for i := range body {
			c := s[i]
			if !plain[c] {
				return appendInStringRest(dst[:n+i], s, i)
			}
			body[i] = c
		}
	} else {
		for i := 0; ; i += 8 {
			if i+8 > len(s) {
				i = len(s) - 8 // the last word, overlapping
			}
			t := s[i : i+8] // one bounds check for the word
			w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
				uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
			binary.LittleEndian.PutUint64(body[i:i+8:i+8], w)
			if m := notPlain(w); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				return appendInStringRest(dst[:n+i], s, i)
			}
			if i+8 == len(s) {
				break
			}
		}
	}
	out[len(out)-2], out[len(out)-1] = '\\', '"'
	return dst[:n+len(s)+2]
}

// appendInStringRest is AppendStringInString's general loop: dst holds
// the opening quote and s[:i], which is plain, and s[i] is not plain.
func appendInStringRest(dst []byte, s string, i int) []byte {
	start := i
	for i < len(s) {
		if i = Plain(s, i); i == len(s) {
			break
		}
		dst = append(dst, s[start:i]...)
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			dst = appendRuneEscaped(dst, r)
			start = i
			continue
		case c == '"' || c == '\\':
			dst = append(dst, '\\', '\\', '\\', c)
		default:
			dst = appendByteEscape(append(dst, '\\'), c)
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '\\', '"')
}
