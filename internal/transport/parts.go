package transport

import (
	"io"
	"sync"
	"sync/atomic"
)

// partsBody returns the body of a request whose body is r.Parts (and
// r.Body, when set, as its first piece): body makes a new reader over the
// pieces for each attempt, n is their length. done is Send's own hold on
// the pieces: once it has been called and every reader made has been
// closed (net/http closes a request's body when it no longer reads it,
// which may be after the call returns), r.Done is called. body is nil for
// an empty body.
func partsBody(r *Request) (body func() io.ReadCloser, n int, done func()) {
	parts := r.Parts
	if len(r.Body) > 0 {
		parts = append([][]byte{r.Body}, parts...)
	}
	for _, p := range parts {
		n += len(p)
	}
	var holds atomic.Int64
	holds.Store(1)
	release := func() {
		if holds.Add(-1) == 0 && r.Done != nil {
			r.Done()
		}
	}
	if n == 0 {
		return nil, 0, release
	}
	body = func() io.ReadCloser {
		holds.Add(1)
		return &partsReader{parts: parts, left: n, release: release}
	}
	return body, n, release
}

// partsReader reads the pieces of a body one after the other; the pieces
// (shared by every attempt's reader) are not changed.
type partsReader struct {
	parts   [][]byte
	off     int // in parts[0], bytes already read
	left    int // bytes not read yet
	once    sync.Once
	release func()
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
	b.once.Do(b.release)
	return nil
}
