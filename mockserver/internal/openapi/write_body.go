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

// readBatchBody is readV3Bytes reading into *buf's memory (a buffer of
// batchBodies, sized from the request's Content-Length when it has too
// little room); *buf is left holding the memory read into, for
// batchBodies.Put. The body's bytes are as they came: writeBatch checks
// them as text (see validText) where its decode reads them.
func readBatchBody(buf *[]byte, w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, rerr := wire.ReadBody(*buf, r)
	if rerr != nil {
		writeOpenAPIError(w, &openAPIError{status: rerr.Status, err: rerr.Message}, "")
		return nil, false
	}
	if cap(body) > cap(*buf) {
		*buf = body[:0]
	}
	return body, true
}

// validText is body as readV3Body makes it: every byte that is not valid
// UTF-8 becomes U+FFFD (in new memory; a valid body is returned as it
// came).
func validText(body []byte) []byte {
	if !utf8.Valid(body) {
		return replaceInvalidUTF8(body)
	}
	return body
}
