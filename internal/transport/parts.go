package transport

import (
	"io"
	"sync/atomic"
)

// partsSource is the pieces of a request's body (its Body, when set, as
// the first piece, then its Parts), their length, and the holds on them:
// Send's own, until it returns, and one for each reader made, until it is
// closed (net/http closes a request's body when it no longer reads it,
// which may be after the call returns); the last hold given up calls the
// request's Done. With GetBody's method value, it is all a call whose body
// is in pieces allocates for it: the first attempt's reader is within.
type partsSource struct {
	parts [][]byte
	n     int
	holds atomic.Int64
	done  func()
	// first is the first attempt's reader.
	first partsReader
}

// init sets s to the pieces of a Request's body (body, when set, then
// parts), whose Done is done, with Send's hold on them.
func (s *partsSource) init(body []byte, parts [][]byte, done func()) {
	s.parts, s.done = parts, done
	if len(body) > 0 {
		s.parts = append([][]byte{body}, s.parts...)
	}
	for _, p := range s.parts {
		s.n += len(p)
	}
	s.holds.Store(1)
}

// release gives up one hold; the last calls done.
func (s *partsSource) release() {
	if s.holds.Add(-1) == 0 && s.done != nil {
		s.done()
	}
}

// reader returns a new reader of the pieces, which holds them until it is
// closed.
func (s *partsSource) reader() *partsReader {
	r := new(partsReader)
	s.start(r)
	return r
}

// start sets r to read the pieces from the start, holding them until it
// is closed.
func (s *partsSource) start(r *partsReader) {
	s.holds.Add(1)
	*r = partsReader{parts: s.parts, left: s.n, src: s}
}

// getBody is a request's GetBody: a new reader of the pieces.
func (s *partsSource) getBody() (io.ReadCloser, error) { return s.reader(), nil }

// partsReader reads the pieces of a body one after the other; the pieces
// (shared by every attempt's reader) are not changed.
type partsReader struct {
	parts  [][]byte
	off    int // in parts[0], bytes already read
	left   int // bytes not read yet
	closed atomic.Bool
	src    *partsSource
}

// Read copies the next bytes of the pieces into p.
func (b *partsReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && len(b.parts) > 0 {
		c := copy(p[n:], b.parts[0][b.off:])
		n += c
		b.off += c
		if b.off == len(b.parts[0]) {
			b.parts, b.off = b.parts[1:], 0
		}
	}
	b.left -= n
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// WriteTo writes the pieces left to w, without a copy in between.
func (b *partsReader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for len(b.parts) > 0 {
		n, err := w.Write(b.parts[0][b.off:])
		total += int64(n)
		b.left -= n
		b.off += n
		if err != nil {
			return total, err
		}
		b.parts, b.off = b.parts[1:], 0
	}
	return total, nil
}

// Len returns how many bytes are left to read: the length of the body
// before the first Read.
func (b *partsReader) Len() int { return b.left }

// Close gives up the reader's hold on the pieces.
func (b *partsReader) Close() error {
	if b.closed.CompareAndSwap(false, true) {
		b.src.release()
	}
	return nil
}
