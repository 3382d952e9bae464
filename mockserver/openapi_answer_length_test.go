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
	status, answer := postMeasured(t, s.URL()+"/openapi/v3/entity/dataset?async=false", bytes.NewReader(body))
	if status != http.StatusOK || len(answer) < 16<<10 {
		t.Fatalf("POST = %d with %d bytes, want 200 with the echo of 200 writes", status, len(answer))
	}
}

// postMeasured posts body to url as JSON and returns the answer's status
// and body, failing the test unless the answer came with its length
// (Content-Length, the header and net/http's reading of it), not in
// chunks.
func postMeasured(t *testing.T, url string, body io.Reader) (int, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.ContentLength != int64(len(answer)) || len(resp.TransferEncoding) > 0 {
		t.Errorf("answer of %d bytes: Content-Length %d (header %q), Transfer-Encoding %q; want its length",
			len(answer), resp.ContentLength, resp.Header.Get("Content-Length"), resp.TransferEncoding)
	}
	if got := resp.Header.Get("Content-Length"); got != strconv.Itoa(len(answer)) {
		t.Errorf("Content-Length = %q, want %d", got, len(answer))
	}
	return resp.StatusCode, answer
}
