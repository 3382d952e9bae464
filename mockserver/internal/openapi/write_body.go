package openapi

import (
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
	if !utf8.Valid(body) {
		body = replaceInvalidUTF8(body)
	}
	return body, true
}
