package testshared

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
)

// RawPost is the benchmarks' baseline request: a plain net/http POST of
// body to url with a clone of header, the answer read to its end and
// closed. It fails tb unless the answer is a 200.
func RawPost(tb testing.TB, hc *http.Client, url string, header http.Header, body []byte) {
	tb.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header = header.Clone()
	resp, err := hc.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("status %d", resp.StatusCode)
	}
}
