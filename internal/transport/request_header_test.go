package transport

import (
	"context"
	"net/http"
	"reflect"
	"testing"

	"github.com/catalogkit/datahub-go/internal/config"
)

// TestNewRequestHeaderMatchesRetryablehttp holds Send's first request given a
// header, as Send gives it, first (parsing) and later (copying the template) calls, to
// retryablehttp.NewRequestWithContext with the given header set: the same
// request, whose Header is the very map given.
func TestNewRequestHeaderMatchesRetryablehttp(t *testing.T) {
	t.Parallel()
	for _, base := range []string{"http://localhost:8080", "https://u:p@example.com:443/api/gms"} {
		c, err := New(base, config.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []struct {
			method, path string
			body         []byte
		}{
			{http.MethodPost, "/aspects?action=ingestProposal", []byte(`{"a":1}`)},
			{http.MethodGet, "/aspects?action=ingestProposal", nil},
			{http.MethodDelete, "/entities/urn%3Ali%3Acorpuser%3Aa%20b?x=%2F#frag", []byte("x")},
			{http.MethodPost, "/%zz", nil},
		} {
			target := c.base + r.path
			var raw any
			if len(r.body) > 0 {
				raw = r.body
			}
			for i := range 3 {
				ctx := context.WithValue(context.Background(), requestTestKey{}, r.path)
				header := c.Header()
				header.Set("X-Call", string(rune('a'+i)))
				got, gotErr := firstAttempt(c, ctx, r.method, r.path, r.body, header)
				want, wantErr := retryableFirst(ctx, r.method, target, raw)
				if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
					t.Fatalf("%s %s: error %v, want %v", r.method, target, gotErr, wantErr)
				}
				if gotErr != nil {
					continue
				}
				want.Header = header
				compareRequests(t, got, want)
				if reflect.ValueOf(got.Header).UnsafePointer() != reflect.ValueOf(header).UnsafePointer() {
					t.Fatalf("%s %s: the request has a header map of its own, not the one given", r.method, target)
				}
			}
		}
	}
}
