package openapi

import (
	"encoding/binary"
	"net/http"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// batchBodies are the buffers Write reads batch bodies into, kept for the
// next request: nothing the core or the recorder keeps shares them (see
// wire.DetachBody).
var batchBodies wire.BodyPool

// readBatchBody is readV3Body reading into *buf's memory (a buffer of
// batchBodies, sized from the request's Content-Length when it has too
// little room); *buf is left holding the memory read into, for
// batchBodies.Put.
func readBatchBody(buf *[]byte, w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, rerr := wire.ReadBody(*buf, r)
	if rerr != nil {
		writeOpenAPIError(w, &openAPIError{status: rerr.Status, err: rerr.Message}, "")
		return nil, false
	}
	if cap(body) > cap(*buf) {
		*buf = body[:0]
	}
	if !isASCII(body) && !utf8.Valid(body) {
		body = replaceInvalidUTF8(body)
	}
	return body, true
}

// isASCII reports whether b is all ASCII (and so valid UTF-8), 32 bytes at
// a time: a batch body most often is, and utf8.Valid takes eight bytes at
// a time.
func isASCII(b []byte) bool {
	var seen uint64
	for ; len(b) >= 32; b = b[32:] {
		seen |= binary.LittleEndian.Uint64(b) | binary.LittleEndian.Uint64(b[8:]) |
			binary.LittleEndian.Uint64(b[16:]) | binary.LittleEndian.Uint64(b[24:])
	}
	for ; len(b) >= 8; b = b[8:] {
		seen |= binary.LittleEndian.Uint64(b)
	}
	for _, c := range b {
		seen |= uint64(c)
	}
	return seen&swarHigh == 0
}
