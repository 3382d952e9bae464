package transport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// TestSendParts sends a body in pieces through retries: every attempt
// sends the whole body with its length, and Done is called once, after
// Send, when every attempt's body was closed.
func TestSendParts(t *testing.T) {
	t.Parallel()
	c, st := newScripted(t, Config{Retry: fastRetry}, step{status: 503}, step{status: 503}, step{status: 200, body: `{}`})
	var done atomic.Int32
	req := Request{Method: http.MethodPost, Path: "/aspects?action=ingestProposalBatch", Body: []byte(`{"proposals":[`),
		Parts: [][]byte{[]byte(`{"a":1}`), []byte(","), []byte(`{"b":2}`), []byte(`]}`)}, Done: func() { done.Add(1) }}
	if _, err := c.Send(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	want := `{"proposals":[{"a":1},{"b":2}]}`
	if diff := cmp.Diff([]string{want, want, want}, st.bodies); diff != "" {
		t.Errorf("bodies (-want +got):\n%s", diff)
	}
	for _, r := range st.seen {
		if r.ContentLength != int64(len(want)) {
			t.Errorf("ContentLength = %d, want %d", r.ContentLength, len(want))
		}
	}
	if n := done.Load(); n != 1 {
		t.Errorf("Done called %d times, want 1", n)
	}
}

// TestSendPartsDoneAfterClose: a body net/http still holds when Send
// returns (closed later) delays Done until it is closed, whether it was
// given in parts or in one slice (which through a RoundTripper of the
// caller's, that may not report its writes to the trace, is held the same
// way).
func TestSendPartsDoneAfterClose(t *testing.T) {
	t.Parallel()
	for name, req := range map[string]Request{
		"parts": {Method: http.MethodPost, Path: "/x", Parts: [][]byte{[]byte("ab"), []byte("cd")}},
		"body":  {Method: http.MethodPost, Path: "/x", Body: []byte("abcd")},
	} {
		t.Run(name, func(t *testing.T) {
			var held io.ReadCloser
			rt := roundTripperFunc(func(req *http.Request) (*http.Response, error) {
				held = req.Body // not read or closed yet, as after an early answer
				return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{}`)), Request: req}, nil
			})
			c, err := newClient(Config{BaseURL: "http://gms.example:8080", HTTPClient: &http.Client{Transport: rt}})
			if err != nil {
				t.Fatal(err)
			}
			var done atomic.Int32
			req.Done = func() { done.Add(1) }
			if _, err := c.Send(t.Context(), req); err != nil {
				t.Fatal(err)
			}
			if n := done.Load(); n != 0 {
				t.Fatalf("Done called %d times while the body is still open", n)
			}
			if err := iotest.TestReader(held, []byte("abcd")); err != nil {
				t.Error(err)
			}
			held.Close()
			held.Close()
			if n := done.Load(); n != 1 {
				t.Errorf("Done called %d times after the body was closed, want 1", n)
			}
		})
	}
}

// TestPartsReaderWriteTo writes the pieces left after a partial read.
func TestPartsReaderWriteTo(t *testing.T) {
	t.Parallel()
	var s partsSource
	s.init(nil, [][]byte{[]byte("abc"), nil, []byte("defg")}, nil)
	if s.n != 7 {
		t.Fatalf("length %d, want 7", s.n)
	}
	var r io.Reader = s.reader()
	p := make([]byte, 4)
	if n, err := r.Read(p); n != 4 || err != nil || string(p) != "abcd" {
		t.Fatalf("Read = %d, %v, %q", n, err, p)
	}
	if n := r.(interface{ Len() int }).Len(); n != 3 {
		t.Errorf("Len = %d after reading 4 of 7", n)
	}
	var out bytes.Buffer
	if n, err := r.(io.WriterTo).WriteTo(&out); n != 3 || err != nil || out.String() != "efg" {
		t.Errorf("WriteTo = %d, %v, %q", n, err, out.String())
	}
}

// TestSendDiscardBody reads a successful answer without keeping it, and
// still refuses one over the size limit.
func TestSendDiscardBody(t *testing.T) {
	t.Parallel()
	c, _ := newScripted(t, Config{MaxResponseBytes: 8}, step{status: 200, body: `{"ok":1}`})
	resp, err := c.Send(t.Context(), Request{Method: http.MethodPost, Path: "/x", Body: []byte("{}"), DiscardBody: true})
	if err != nil || resp.StatusCode != 200 || resp.Body != nil {
		t.Fatalf("Send = %+v, %v; want a 200 without a body", resp, err)
	}
	c, _ = newScripted(t, Config{MaxResponseBytes: 7}, step{status: 200, body: `{"ok":1}`})
	if _, err := c.Send(t.Context(), Request{Method: http.MethodPost, Path: "/x", Body: []byte("{}"), DiscardBody: true}); err == nil || !strings.Contains(err.Error(), "larger than 7 bytes") {
		t.Errorf("Send of an answer over the limit: %v", err)
	}
}

// TestSendDiscardLongBody reads answers longer than one of discard's reads
// without keeping them: one at the size limit passes, one a byte over it
// is refused, one cut short by the connection is an error.
func TestSendDiscardLongBody(t *testing.T) {
	t.Parallel()
	const size = 3*discardSize + 17
	long := strings.Repeat("x", size)
	for _, tc := range []struct {
		name    string
		limit   int64
		body    string
		wantErr string
	}{
		{"at the limit", size, long, ""},
		{"over the limit", size - 1, long, fmt.Sprintf("larger than %d bytes", size-1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, _ := newScripted(t, Config{MaxResponseBytes: tc.limit}, step{status: 200, body: tc.body})
			resp, err := c.Send(t.Context(), Request{Method: http.MethodPost, Path: "/x", Body: []byte("{}"), DiscardBody: true})
			if tc.wantErr == "" {
				if err != nil || resp.StatusCode != 200 || resp.Body != nil {
					t.Fatalf("Send = %+v, %v; want a 200 without a body", resp, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Send = %v, want an error saying %q", err, tc.wantErr)
			}
		})
	}
	t.Run("cut short", func(t *testing.T) {
		t.Parallel()
		rt := roundTripperFunc(func(*http.Request) (*http.Response, error) {
			body := io.MultiReader(strings.NewReader(long), iotest.ErrReader(io.ErrUnexpectedEOF))
			return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(body)}, nil
		})
		c, err := newClient(Config{BaseURL: "http://gms.example:8080/", HTTPClient: &http.Client{Transport: rt}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Send(t.Context(), Request{Method: http.MethodPost, Path: "/x", Body: []byte("{}"), DiscardBody: true})
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("Send = %v, want io.ErrUnexpectedEOF", err)
		}
	})
}
