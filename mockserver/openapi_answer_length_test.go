package mockserver

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"testing"
)

// TestOpenAPIBatchAnswerLength: a batch write's answer, longer than
// net/http measures by itself, goes with its Content-Length, not in chunks.
func TestOpenAPIBatchAnswerLength(t *testing.T) {
	t.Parallel()
	s := Start(t, WithRecording(false))
	_, body := emitterBatchBodies(200, 0)
	resp, err := http.Post(s.URL()+"/openapi/v3/entity/dataset?async=false", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || len(answer) < 16<<10 {
		t.Fatalf("POST = %d with %d bytes, want 200 with the echo of 200 writes", resp.StatusCode, len(answer))
	}
	if resp.ContentLength != int64(len(answer)) || len(resp.TransferEncoding) > 0 {
		t.Errorf("answer of %d bytes: Content-Length %d (header %q), Transfer-Encoding %q; want its length",
			len(answer), resp.ContentLength, resp.Header.Get("Content-Length"), resp.TransferEncoding)
	}
	if got := resp.Header.Get("Content-Length"); got != strconv.Itoa(len(answer)) {
		t.Errorf("Content-Length = %q, want %d", got, len(answer))
	}
}
