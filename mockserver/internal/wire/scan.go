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

// ScanASCIICompact is ScanASCIIBytes writing the decoding without the
// white space outside its strings, as
// pdl.Scanner.AppendASCIIStringCompact does (the decoding's compaction
// when either is valid JSON); dropped reports that some was left out
// (else the bytes are the decoding).
func (d Doc) ScanASCIICompact(s *pdl.Scanner, n int) (b []byte, dropped, ok bool) {
	free := d.free(n)
	if b, dropped, ok = s.AppendASCIIStringCompact(free); !ok {
		return nil, false, false
	}
	return d.took(free, b), dropped, true
}

// scanBytes is ScanBytes appending with appendString.
func (d Doc) scanBytes(s *pdl.Scanner, n int, appendString func(*pdl.Scanner, []byte) ([]byte, bool)) ([]byte, bool) {
	free := d.free(n)
	b, ok := appendString(s, free)
	if !ok {
		return nil, false
	}
	return d.took(free, b), true
}

// free returns the memo's free memory for a value of about n bytes (see
// ScanBytes), empty; nil without a memo.
func (d Doc) free(n int) []byte {
	m := d.Memo
	if m == nil {
		return nil
	}
	if cap(m.values)-len(m.values) < n {
		m.newChunk(n)
	}
	return m.values[len(m.values):]
}

// took returns b, a value appended to free (from d.free), capped at its
// length, and counts it as the memo's when it is in the chunk.
func (d Doc) took(free, b []byte) []byte {
	if m := d.Memo; m != nil && cap(free) > 0 && cap(b) == cap(free) { // in the chunk
		m.values = m.values[:len(m.values)+len(b)]
	}
	return b[:len(b):len(b)]
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
