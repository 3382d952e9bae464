package transport

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/catalogkit/datahub-go/internal/config"
	"github.com/catalogkit/datahub-go/internal/testshared"
)

// benchBody is a request body of the size of one ingestProposal.
var benchBody = bytes.Repeat([]byte("x"), 700)

// benchServer answers every request with `{}` after reading its body.
func benchServer(b *testing.B) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkSendLoopback is Send of a POST whose answer is not kept (as the
// emitter's ingest) to a server on the loopback, with the default
// settings (a 30 s timeout, net/http's pooled transport); BenchmarkRawLoopback
// is the same request made with plain net/http. Run both with -cpu 1; the
// difference is the transport's own cost per request.
func BenchmarkSendLoopback(b *testing.B) {
	srv := benchServer(b)
	c, err := New(srv.URL, config.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Send(ctx, Request{Method: http.MethodPost, Path: "/aspects?action=ingestProposal", Body: benchBody, DiscardBody: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRawLoopback is BenchmarkSendLoopback's request with plain
// net/http: a request made for each call, the header cloned, the answer
// read to its end.
func BenchmarkRawLoopback(b *testing.B) {
	srv := benchServer(b)
	hc := NewPooledClient()
	defer hc.CloseIdleConnections()
	header := standardHeader("", nil)
	url := srv.URL + "/aspects?action=ingestProposal"
	b.ReportAllocs()
	for b.Loop() {
		testshared.RawPost(b, hc, url, header, benchBody)
	}
}

// BenchmarkSendDrop is Send on a transport that drops the request (no
// network), the transport's own cost beside BenchmarkRawDrop.
func BenchmarkSendDrop(b *testing.B) {
	s := config.Defaults()
	s.HTTPClient = &http.Client{Transport: dropTransport{}}
	c, err := New("http://drop.invalid", s)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Send(ctx, Request{Method: http.MethodPost, Path: "/aspects?action=ingestProposal", Body: benchBody, DiscardBody: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRawDrop is BenchmarkSendDrop's request with plain net/http.
func BenchmarkRawDrop(b *testing.B) {
	hc := &http.Client{Transport: dropTransport{}}
	header := standardHeader("", nil)
	b.ReportAllocs()
	for b.Loop() {
		testshared.RawPost(b, hc, "http://drop.invalid/aspects?action=ingestProposal", header, benchBody)
	}
}

// dropTransport reads and drops a request's body and answers `{}`.
type dropTransport struct{}

func (dropTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader([]byte(`{}`))), Request: req}, nil
}
