package wire

import "github.com/catalogkit/datahub-go/internal/pdl"

// ScanBytes is UnquoteBytes for the string literal s reads next, within
// the next n bytes of s's text, in the one pass that validates it.
func (d Doc) ScanBytes(s *pdl.Scanner, n int) ([]byte, bool) {
	m := d.Memo
	if m == nil {
		return s.AppendString(nil)
	}
	if cap(m.values)-len(m.values) < n { // a decoding is as long as its literal but for invalid UTF-8
		m.values = make([]byte, 0, max(m.Chunk, n))
	}
	start := len(m.values)
	b, ok := s.AppendString(m.values)
	if !ok {
		return nil, false
	}
	m.values = b
	return b[start:len(b):len(b)], true
}
