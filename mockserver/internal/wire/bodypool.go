package wire

import "sync"

// BodyPool keeps the buffers an adapter reads request bodies into, for the
// next request. The zero value is ready to use.
type BodyPool struct{ p sync.Pool }

// Get returns a buffer to read a body into (empty, maybe with room).
func (bp *BodyPool) Get() *[]byte {
	if buf, ok := bp.p.Get().(*[]byte); ok {
		return buf
	}
	return new([]byte)
}

// Put gives *buf back for the next request, unless it grew past
// MaxKeptBody. With poison set (for tests) its memory is overwritten
// first, so that a value still sharing it shows garbled.
func (bp *BodyPool) Put(buf *[]byte, poison bool) {
	if cap(*buf) > MaxKeptBody {
		return
	}
	if poison {
		b := (*buf)[:cap(*buf)]
		for i := range b {
			b[i] = '!'
		}
	}
	bp.p.Put(buf)
}
