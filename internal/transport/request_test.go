package transport

import (
	"context"
	"io"
	"net/http"
	"reflect"
	"testing"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/catalogkit/datahub-go/internal/config"
)

type requestTestKey struct{}

// TestNewRequestMatchesRetryablehttp holds the request of Send's first
// attempt (newRequest, then setBody), first (parsing) and later (copying
// the template) calls, to the one go-retryablehttp's loop, which Send used
// before, hands to the HTTP client: retryablehttp.NewRequestWithContext's,
// its Body set for the attempt. Given a header (as Send gives one), the
// request is the same with that header set, and its Header is the very map
// given.
func TestNewRequestMatchesRetryablehttp(t *testing.T) {
	for _, base := range []string{"http://localhost:8080", "https://u:p@example.com:443/api/gms", "http://[::1]:80"} {
		c, err := New(base, config.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []struct {
			method, path string
			body         []byte
		}{
			{http.MethodPost, "/aspects?action=ingestProposal", []byte(`{"a":1}`)},
			{http.MethodPost, "/aspects?action=ingestProposal", nil},
			{http.MethodGet, "/aspects?action=ingestProposal", nil},
			{http.MethodGet, "/config", nil},
			{http.MethodDelete, "/entities/urn%3Ali%3Acorpuser%3Aa%20b?x=%2F#frag", []byte("x")},
			{http.MethodPost, "/%zz", nil},
			{"BAD METHOD", "/config", nil},
		} {
			target := c.base + r.path
			var raw any
			if len(r.body) > 0 {
				raw = r.body
			}
			for _, given := range []bool{false, true} {
				for i := range 3 {
					ctx := context.WithValue(context.Background(), requestTestKey{}, r.path)
					var header http.Header
					if given {
						header = c.Header()
						header.Set("X-Call", string(rune('a'+i)))
					}
					got, gotErr := firstAttempt(c, ctx, r.method, r.path, r.body, header)
					want, wantErr := retryableFirst(ctx, r.method, target, raw)
					if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
						t.Fatalf("%s %s: error %v, want %v", r.method, target, gotErr, wantErr)
					}
					if gotErr != nil {
						continue
					}
					if given {
						want.Header = header
					}
					compareRequests(t, got, want)
					if given && reflect.ValueOf(got.Header).UnsafePointer() != reflect.ValueOf(header).UnsafePointer() {
						t.Fatalf("%s %s: the request has a header map of its own, not the one given", r.method, target)
					}
				}
			}
		}
	}
}

// firstAttempt is the request Send hands to the HTTP client first for a
// body data (nil: none) with header.
func firstAttempt(c *Client, ctx context.Context, method, path string, data []byte, header http.Header) (*http.Request, error) {
	req, err := c.newRequest(ctx, method, path, header)
	if err != nil {
		return nil, err
	}
	b := body{n: int64(len(data))}
	if len(data) > 0 {
		b.data = data
	}
	b.setBody(&callState{}, req, 0)
	return req, nil
}

// retryableFirst is the request go-retryablehttp's loop hands to the HTTP
// client first for a body raw.
func retryableFirst(ctx context.Context, method, target string, raw any) (*retryablehttp.Request, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, method, target, raw)
	if err == nil && raw != nil {
		// As its Do does: a reader from the request's body function, which
		// GetBody wraps the same way.
		req.Body, err = req.GetBody()
	}
	return req, err
}

func compareRequests(t *testing.T, g *http.Request, want *retryablehttp.Request) {
	t.Helper()
	w := want.Request
	if g.Context() != w.Context() || g.Method != w.Method || g.Host != w.Host || g.Proto != w.Proto ||
		g.ProtoMajor != w.ProtoMajor || g.ProtoMinor != w.ProtoMinor || g.ContentLength != w.ContentLength ||
		g.Close != w.Close || g.RequestURI != w.RequestURI || g.RemoteAddr != w.RemoteAddr || g.Pattern != w.Pattern ||
		!reflect.DeepEqual(g.URL, w.URL) || !reflect.DeepEqual(g.Header, w.Header) || !reflect.DeepEqual(g.Trailer, w.Trailer) ||
		!reflect.DeepEqual(g.TransferEncoding, w.TransferEncoding) || !reflect.DeepEqual(g.Form, w.Form) ||
		(g.Body == nil) != (w.Body == nil) || reflect.TypeOf(g.Body) != reflect.TypeOf(w.Body) || g.Response != w.Response || g.TLS != w.TLS || g.MultipartForm != w.MultipartForm ||
		(g.GetBody == nil) != (w.GetBody == nil) {
		t.Fatalf("request\n%+v\nwant\n%+v", g, w)
	}
	if g.URL == w.URL {
		t.Fatal("the URL is shared")
	}
	gb, err1 := g.GetBody()
	wb, err2 := w.GetBody()
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	gd, _ := io.ReadAll(gb)
	wd, _ := io.ReadAll(wb)
	if string(gd) != string(wd) || reflect.TypeOf(gb) != reflect.TypeOf(wb) {
		t.Fatalf("body %q (%T), want %q (%T)", gd, gb, wd, wb)
	}
	if g.Body != nil {
		gd, _ = io.ReadAll(g.Body)
		wd, _ = io.ReadAll(w.Body)
		if string(gd) != string(wd) {
			t.Fatalf("the attempt's body %q, want %q", gd, wd)
		}
	}
	if reflect.TypeFor[retryablehttp.Request]().NumField() != 3 {
		t.Fatal("retryablehttp.Request changed: check newRequest")
	}
}
