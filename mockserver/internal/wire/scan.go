package wire

import "github.com/catalogkit/datahub-go/internal/pdl"

// ScanBytes is UnquoteBytes for the string literal s reads next, in the
// one pass that validates it: its decoding goes to the memo's memory when
// that has room for it, a new chunk when the chunk has less than n bytes
// left, memory of its own when it is longer than that.
func (d Doc) ScanBytes(s *pdl.Scanner, n int) ([]byte, bool) {
	m := d.Memo
	if m == nil {
		return s.AppendString(nil)
	}
	if cap(m.values)-len(m.values) < n {
		m.values = make([]byte, 0, max(m.Chunk, n))
	}
	free := m.values[len(m.values):]
	b, ok := s.AppendString(free)
	if !ok {
		return nil, false
	}
	if cap(b) == cap(free) { // in the chunk
		m.values = m.values[:len(m.values)+len(b)]
	}
	return b[:len(b):len(b)], true
}
