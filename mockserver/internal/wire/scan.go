package wire

import "github.com/catalogkit/datahub-go/internal/pdl"

// ScanBytes is UnquoteBytes for the string literal s reads next, in the
// one pass that validates it, with room for n bytes of its decoding set
// aside in the memo's memory (a longer one is copied out of it).
func (d Doc) ScanBytes(s *pdl.Scanner, n int) ([]byte, bool) {
	m := d.Memo
	if m == nil {
		return s.AppendString(nil)
	}
	if cap(m.values)-len(m.values) < n {
		m.values = make([]byte, 0, max(m.Chunk, n))
	}
	start := len(m.values)
	b, ok := s.AppendString(m.values)
	if !ok {
		return nil, false
	}
	if cap(b) == cap(m.values) { // in the chunk
		m.values = b
	}
	return b[start:len(b):len(b)], true
}
