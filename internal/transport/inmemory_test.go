package transport

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writesConn records the bytes of each Write on a connection.
type writesConn struct {
	net.Conn
	mu     *sync.Mutex
	writes *[][]byte
}

func (c writesConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	*c.writes = append(*c.writes, bytes.Clone(p))
	c.mu.Unlock()
	return c.Conn.Write(p)
}

// TestSendBodyInMemory sends a write's body in one slice with a Done
// through net/http's transport, retried once: every attempt writes its
// headers and its whole body in one Write on the connection, as net/http
// writes an in-memory body (a body it does not know is in memory has its
// headers written alone first), the server reads the whole body each
// time, and Done is called once, after both attempts' bodies were
// written.
func TestSendBodyInMemory(t *testing.T) {
	t.Parallel()
	body := []byte(`{"proposals":[{"a":1},{"b":2}],"async":"false"}`)
	var calls atomic.Int32
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, string(data))
		mu.Unlock()
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	var writes [][]byte
	var wmu sync.Mutex
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return writesConn{Conn: conn, mu: &wmu, writes: &writes}, nil
	}
	t.Cleanup(tr.CloseIdleConnections)
	c, err := newClient(Config{BaseURL: srv.URL, HTTPClient: &http.Client{Transport: tr}, Retry: fastRetry})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}, 2)
	if _, err := c.Send(t.Context(), Request{Method: http.MethodPost, Path: "/aspects?action=ingestProposalBatch", Body: body,
		Done: func() { done <- struct{}{} }}); err != nil {
		t.Fatal(err)
	}
	<-done // the test's deadline ends a Done never called
	if len(done) != 0 {
		t.Error("Done called twice")
	}
	mu.Lock()
	if diff := cmp.Diff([]string{string(body), string(body)}, got); diff != "" {
		t.Errorf("bodies the server read (-want +got):\n%s", diff)
	}
	mu.Unlock()
	wmu.Lock()
	defer wmu.Unlock()
	var requests int
	for _, w := range writes {
		if !bytes.HasPrefix(w, []byte("POST ")) {
			continue
		}
		requests++
		if !bytes.HasSuffix(w, body) {
			t.Errorf("a request's first Write ends %q, want its headers and whole body in it", w[max(0, len(w)-40):])
		}
	}
	if requests != 2 {
		t.Errorf("%d requests written, want 2", requests)
	}
}
