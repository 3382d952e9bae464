package pdl

import (
	"bytes"
	"encoding/binary"
)

// Scanner reads one JSON text front to back, token by token, validating
// what it reads as Parse does, for decoders of a known shape: they read the
// shape they expect in one pass and leave anything else to a general
// decode. A failed read leaves the Scanner's position undefined. The zero
// Scanner reads nothing; Reset gives it a text. It is not safe for
// concurrent use.
type Scanner struct {
	p     jsonParser
	names nameCache
}

// Reset makes s read data from its start (white space before the first
// token is skipped by the reads).
func (s *Scanner) Reset(data []byte) {
	s.p = jsonParser{data: data, names: &s.names}
}

// Pos returns the offset in the text of the next byte s reads.
func (s *Scanner) Pos() int { return s.p.pos }

// Seek makes s read on from offset pos of its text.
func (s *Scanner) Seek(pos int) { s.p.pos = pos }

// SkipText moves past white space and text, if the text goes on with it,
// and reports whether it did (it is not validated again: a caller passes
// text it validated before, such as a whole value).
func (s *Scanner) SkipText(text []byte) bool {
	s.p.ws()
	d := s.p.data[s.p.pos:]
	if n := len(text); 8 <= n && n <= 16 && n <= len(d) {
		// A key with its quotes and colon, or a short string, as decoders
		// pass them: two words, which overlap below 16 bytes, in line.
		if binary.LittleEndian.Uint64(d) != binary.LittleEndian.Uint64(text) ||
			binary.LittleEndian.Uint64(d[n-8:]) != binary.LittleEndian.Uint64(text[n-8:]) {
			return false
		}
	} else if len(text) == 0 || !bytes.HasPrefix(d, text) {
		return false
	}
	s.p.pos += len(text)
	return true
}

// Peek returns the first byte of the next token, 0 at the end.
func (s *Scanner) Peek() byte {
	s.p.ws()
	if s.p.pos >= len(s.p.data) {
		return 0
	}
	return s.p.data[s.p.pos]
}

// Done moves past white space and reports whether the text ends there.
func (s *Scanner) Done() bool {
	s.p.ws()
	return s.p.pos == len(s.p.data)
}

// Enter moves past the opening byte open ('{' or '[') of an object or an
// array; empty reports that the container closes right after it (and s is
// past its end). ok is false when the next token is not open.
func (s *Scanner) Enter(open byte) (empty, ok bool) {
	s.p.ws()
	if !s.p.at(open) {
		return false, false
	}
	s.p.pos++
	s.p.ws()
	if s.p.at(open + 2) { // '{'+2 is '}', '['+2 is ']'
		s.p.pos++
		return true, true
	}
	return false, true
}

// Next moves past the separator after a member or an element of the
// container closed by end: more reports a ',' (another follows), else s is
// past end.
func (s *Scanner) Next(end byte) (more, ok bool) { return s.p.sep(end) }

// Key reads a member's key and the colon after it: the key's body between
// its quotes; plain reports that it is its own decoding (no escapes, valid
// UTF-8).
func (s *Scanner) Key() (body []byte, plain, ok bool) {
	s.p.ws()
	body, plain, ok = s.p.strBody()
	return body, plain, ok && s.p.colon()
}

// String reads a string literal and returns its decoding, as
// encoding/json decodes it; the strings of the schemas' names, and short
// strings repeated from one read to the next, come without allocating.
func (s *Scanner) String() (string, bool) {
	s.p.ws()
	return s.p.str()
}

// StringMap reads an object of strings whose keys are plain (no escapes)
// and each at most once, as a proposal's headers are written; false for any
// other value.
func (s *Scanner) StringMap() (map[string]string, bool) {
	empty, ok := s.Enter('{')
	if !ok {
		return nil, false
	}
	h := make(map[string]string, 2)
	if empty {
		return h, true
	}
	for more := true; more; {
		key, plain, ok := s.Key()
		if !ok || !plain || s.Peek() != '"' {
			return nil, false
		}
		if _, ok := h[string(key)]; ok {
			return nil, false
		}
		v, ok := s.String()
		if !ok {
			return nil, false
		}
		h[string(key)] = v
		if more, ok = s.Next('}'); !ok {
			return nil, false
		}
	}
	return h, true
}

// AppendString reads a string literal and appends its decoding to dst, in
// the one pass that validates it; on false it returns dst as it came.
func (s *Scanner) AppendString(dst []byte) ([]byte, bool) {
	s.p.ws()
	b, end, ok := appendUnquoted(dst, s.p.data, s.p.pos)
	if !ok {
		return dst, false
	}
	s.p.pos = end
	return b, true
}

// AppendASCIIString is AppendString for a literal whose decoding is all
// ASCII: one that is not fails (false, dst as it came), in the same pass.
func (s *Scanner) AppendASCIIString(dst []byte) ([]byte, bool) {
	s.p.ws()
	b, end, ok := appendUnquotedOf(dst, s.p.data, s.p.pos, true)
	if !ok {
		return dst, false
	}
	s.p.pos = end
	return b, true
}

// Value reads one JSON value of any kind, validated as one at nesting level
// level (1: a document's value) within encoding/json's nesting limit, and
// returns its text.
func (s *Scanner) Value(level int) ([]byte, bool) {
	s.p.ws()
	start := s.p.pos
	if _, ok := s.p.value(level-1, false); !ok {
		return nil, false
	}
	return s.p.data[start:s.p.pos], true
}
