package transport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
)

// TestTraceOnWritesOnly: a write's context carries the state's trace,
// whose WroteHeaders hook is set; a read's carries none.
func TestTraceOnWritesOnly(t *testing.T) {
	t.Parallel()
	st := &callState{ctx: context.Background(), write: true}
	if httptrace.ContextClientTrace(st.withTrace()) != &st.trace || st.trace.WroteHeaders == nil {
		t.Fatal("a write's context does not carry the state's trace")
	}
	read := &callState{ctx: context.Background()}
	if ctx := read.withTrace(); httptrace.ContextClientTrace(ctx) != nil {
		t.Error("a read's context carries a trace")
	}
}

// TestWriteLostAfterSending: a write whose connection closes after the
// server read it fails as of unknown outcome (the trace saw its headers
// written), with or without a trace of the caller's on the context, whose
// hooks still run; a read sees the caller's hooks too.
func TestWriteLostAfterSending(t *testing.T) {
	t.Parallel()
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		if r.Method == http.MethodGet {
			_, _ = w.Write([]byte(`{}`))
			return
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close() // no answer: applied or not, the client cannot tell
		}
	}))
	t.Cleanup(srv.Close)
	for _, callers := range []bool{false, true} {
		c, err := newClient(Config{BaseURL: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		ctx := t.Context()
		var wrote, got atomic.Int32
		if callers {
			ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
				WroteHeaders: func() { wrote.Add(1) },
				GotConn:      func(httptrace.GotConnInfo) { got.Add(1) },
			})
		}
		for _, r := range []Request{
			{Method: http.MethodPost, Path: "/aspects?action=ingestProposal", Body: []byte(`{"proposal":{}}`)},
			{Method: http.MethodPost, Path: "/aspects?action=ingestProposalBatch", Parts: [][]byte{[]byte(`{"proposals":[`), []byte(`]}`)}},
		} {
			_, err := c.Send(ctx, r)
			if !errors.Is(err, datahub.ErrOutcomeUnknown) {
				t.Errorf("caller's trace %v: %s %s: %v, want an error matching ErrOutcomeUnknown", callers, r.Method, r.Path, err)
			}
		}
		if _, err := c.Send(ctx, Request{Method: http.MethodGet, Path: "/config"}); err != nil {
			t.Fatal(err)
		}
		if callers && (wrote.Load() != 3 || got.Load() != 3) {
			t.Errorf("the caller's hooks ran %d (WroteHeaders) and %d (GotConn) times, want 3 each", wrote.Load(), got.Load())
		}
		c.CloseIdleConnections()
	}
}

// TestPartsRetryAfterPartialSend: an attempt whose body was read in part
// before the connection failed is retried with the whole body, from the
// start, and Done is called once, after every attempt's body was closed.
func TestPartsRetryAfterPartialSend(t *testing.T) {
	t.Parallel()
	var (
		mu     sync.Mutex
		bodies []string
	)
	reset := &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}
	rt := roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		mu.Lock()
		first := len(bodies) == 0
		mu.Unlock()
		// As net/http's transport does, once the headers are written.
		if trace := httptrace.ContextClientTrace(req.Context()); trace != nil && trace.WroteHeaders != nil {
			trace.WroteHeaders()
		}
		var got []byte
		if first {
			got = make([]byte, 5)
			n, _ := io.ReadFull(req.Body, got)
			got = got[:n]
		} else {
			got, _ = io.ReadAll(req.Body)
		}
		req.Body.Close()
		mu.Lock()
		bodies = append(bodies, string(got))
		mu.Unlock()
		if first {
			return nil, reset
		}
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{}`)), Request: req}, nil
	})
	c, err := newClient(Config{BaseURL: "http://gms.example:8080", HTTPClient: &http.Client{Transport: rt}, Retry: fastRetry})
	if err != nil {
		t.Fatal(err)
	}
	var done atomic.Int32
	req := Request{Method: http.MethodPost, Path: "/x", Body: []byte("ab"), Parts: [][]byte{[]byte("cde"), []byte("fgh")},
		Done: func() { done.Add(1) }, DiscardBody: true}
	resp, err := c.Send(t.Context(), req)
	if err != nil || resp.StatusCode != 200 || !resp.Replayed {
		t.Fatalf("Send = %+v, %v; want a 200 marked Replayed", resp, err)
	}
	if want := []string{"abcde", "abcdefgh"}; len(bodies) != 2 || bodies[0] != want[0] || bodies[1] != want[1] {
		t.Errorf("bodies %q, want %q", bodies, want)
	}
	if n := done.Load(); n != 1 {
		t.Errorf("Done called %d times, want 1", n)
	}
}

// TestPartsRedirect: a body in pieces is sent again whole after a 307
// (net/http asks GetBody for it).
func TestPartsRedirect(t *testing.T) {
	t.Parallel()
	var got []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.URL.Path+" "+string(data))
		mu.Unlock()
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusTemporaryRedirect)
			return
		}
		_, _ = w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	c, err := newClient(Config{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	var done atomic.Int32
	body := [][]byte{[]byte("{"), []byte(`"a":1`), []byte("}")}
	if _, err := c.Send(t.Context(), Request{Method: http.MethodPost, Path: "/old", Parts: body, Done: func() { done.Add(1) }}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{`/old {"a":1}`, `/new {"a":1}`}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("server saw %q, want %q", got, want)
	}
	if !bytes.Equal(bytes.Join(body, nil), []byte(`{"a":1}`)) {
		t.Error("the pieces changed")
	}
}
