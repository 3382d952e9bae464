package wire

import "github.com/catalogkit/datahub-go/internal/pdl"

// ScanBytes is UnquoteBytes for the string literal s reads next, in the
// one pass that validates it: its decoding goes to the memo's memory when
// that has room for it, a new chunk when the chunk has less than n bytes
// left, memory of its own when it is longer than that.
func (d Doc) ScanBytes(s *pdl.Scanner, n int) ([]byte, bool) {
	return d.scanBytes(s, n, (*pdl.Scanner).AppendString)
}

// ScanASCIIBytes is ScanBytes for a literal whose decoding is all ASCII;
// any other fails, in the same pass.
func (d Doc) ScanASCIIBytes(s *pdl.Scanner, n int) ([]byte, bool) {
	return d.scanBytes(s, n, (*pdl.Scanner).AppendASCIIString)
}

// scanBytes is ScanBytes appending with appendString.
func (d Doc) scanBytes(s *pdl.Scanner, n int, appendString func(*pdl.Scanner, []byte) ([]byte, bool)) ([]byte, bool) {
	m := d.Memo
	if m == nil {
		return appendString(s, nil)
	}
	if cap(m.values)-len(m.values) < n {
		m.newChunk(n)
	}
	free := m.values[len(m.values):]
	b, ok := appendString(s, free)
	if !ok {
		return nil, false
	}
	if cap(b) == cap(free) { // in the chunk
		m.values = m.values[:len(m.values)+len(b)]
	}
	return b[:len(b):len(b)], true
}

// ScanSystemMetadata is CheckSystemMetadata for the value s reads next, at
// nesting level level of its document: a repeat of the last
// systemMetadata that conformed (an object's text ends where its braces
// close, so text that goes on with it holds it whole) is moved past
// without another scan; false is left to CheckSystemMetadata's message.
func (d Doc) ScanSystemMetadata(s *pdl.Scanner, level int) ([]byte, bool) {
	if m := d.Memo; m != nil && m.sm != nil && s.SkipText(m.sm) {
		return m.smCompact, true
	}
	v, ok := s.Value(level)
	if !ok {
		return nil, false
	}
	c, err := d.CheckSystemMetadata(v)
	return c, err == nil
}

// Room returns the memo's free memory for a value of up to n bytes: an
// empty slice whose capacity is the current chunk's room, a new chunk's
// when that has less than n (nil without a memo). A value appended to it
// is the memo's once Took is called.
func (d Doc) Room(n int) []byte {
	m := d.Memo
	if m == nil {
		return nil
	}
	if cap(m.values)-len(m.values) < n {
		m.newChunk(n)
	}
	return m.values[len(m.values):]
}

// Took notes that v, appended to room (from Room), holds memory of the
// memo's chunk, when it starts there (an append past the room moved it), so that
// the next value does not take it; it returns v with its capacity cut to
// its length.
func (d Doc) Took(room, v []byte) []byte {
	if m := d.Memo; m != nil && len(v) > 0 && cap(room) >= len(v) && &v[0] == &room[:1][0] {
		m.values = m.values[:len(m.values)+len(v)]
	}
	return v[:len(v):len(v)]
}
