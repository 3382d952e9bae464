package wire

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// DataHub: the texts of a body that cannot be read (Rest.li's
// "Error parsing entity body"). Mock: the size limit's.
const (
	MsgBadBody      = "Error parsing entity body: %s"
	MsgBodyTooLarge = "Request body exceeds the limit of %d bytes"
)

// BodyError is a request body that could not be read: the status and the
// text of the answer.
type BodyError struct {
	Status  int
	Message string
}

// ReadBody reads a request body within the size limit the server set
// (an [http.MaxBytesReader]), into buf's memory when it has room (see
// ReadAll).
func ReadBody(buf []byte, r *http.Request) ([]byte, *BodyError) {
	body, err := readAllInto(buf, r.Body, r.ContentLength)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &BodyError{http.StatusRequestEntityTooLarge, fmt.Sprintf(MsgBodyTooLarge, mbe.Limit)}
		}
		return nil, &BodyError{http.StatusBadRequest, fmt.Sprintf(MsgBadBody, gms.JSONErrorText(err))}
	}
	return body, nil
}

// ReadAll is io.ReadAll with the buffer sized for a body of n bytes (n < 0:
// unknown), up to preallocMax, so that a body of the announced length is
// read into one allocation. A larger announced length is not trusted: the
// buffer grows with what arrives, so that a client announcing 60 MB and
// sending nothing costs no 60 MB.
func ReadAll(r io.Reader, n int64) ([]byte, error) {
	if n < 0 {
		return io.ReadAll(r)
	}
	return readAllInto(nil, r, n)
}

// ReadAllInto is ReadAll reading into buf's memory (see readAllInto).
func ReadAllInto(buf []byte, r io.Reader, n int64) ([]byte, error) {
	return readAllInto(buf, r, n)
}

// readAllInto is ReadAll reading into buf's memory (from its start) when it
// has room for the announced length (512 bytes when unknown), else into a
// buffer of its own, growing either as it must.
func readAllInto(buf []byte, r io.Reader, n int64) ([]byte, error) {
	room := 512
	if n >= 0 {
		room = int(min(n, preallocMax)) + 1 // +1: room to see EOF without growing
	}
	b := buf[:0]
	if cap(b) < room {
		b = make([]byte, 0, room)
	}
	for {
		m, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// preallocMax is the largest buffer readAll allocates on the strength of a
// Content-Length alone.
const preallocMax = 1 << 20
