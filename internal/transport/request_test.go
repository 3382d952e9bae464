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

// TestNewRequestMatchesRetryablehttp holds newRequest, first (parsing) and
// later (copying the template) calls, to retryablehttp.NewRequestWithContext.
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
			for range 3 {
				ctx := context.WithValue(context.Background(), requestTestKey{}, r.path)
				got, gotErr := c.newRequest(ctx, r.method, r.path, raw, nil)
				want, wantErr := retryablehttp.NewRequestWithContext(ctx, r.method, target, raw)
				if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
					t.Fatalf("%s %s: error %v, want %v", r.method, target, gotErr, wantErr)
				}
				if gotErr != nil {
					continue
				}
				compareRequests(t, got, want)
			}
		}
	}
}

func compareRequests(t *testing.T, got, want *retryablehttp.Request) {
	t.Helper()
	g, w := got.Request, want.Request
	if g.Context() != w.Context() || g.Method != w.Method || g.Host != w.Host || g.Proto != w.Proto ||
		g.ProtoMajor != w.ProtoMajor || g.ProtoMinor != w.ProtoMinor || g.ContentLength != w.ContentLength ||
		g.Close != w.Close || g.RequestURI != w.RequestURI || g.RemoteAddr != w.RemoteAddr || g.Pattern != w.Pattern ||
		!reflect.DeepEqual(g.URL, w.URL) || !reflect.DeepEqual(g.Header, w.Header) || !reflect.DeepEqual(g.Trailer, w.Trailer) ||
		!reflect.DeepEqual(g.TransferEncoding, w.TransferEncoding) || !reflect.DeepEqual(g.Form, w.Form) ||
		g.Body != w.Body || g.Response != w.Response || g.TLS != w.TLS || g.MultipartForm != w.MultipartForm ||
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
	if reflect.TypeFor[retryablehttp.Request]().NumField() != 3 {
		t.Fatal("retryablehttp.Request changed: check newRequest")
	}
}
