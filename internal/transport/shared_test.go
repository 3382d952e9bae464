package transport

import (
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
)

// TestSharedHeader sends requests concurrently through net/http's
// transport, where they share the client's header, and through a client
// with a cookie jar, which writes its cookies into each request's header:
// every request carries the standard headers and exactly one cookie, and
// the client's own header stays as it was.
func TestSharedHeader(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Clone())
		mu.Unlock()
		w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(srv.URL)
	jar.SetCookies(u, []*http.Cookie{{Name: "session", Value: "s1"}})
	for _, tc := range []struct {
		name   string
		hc     *http.Client
		shared bool
		cookie string
	}{
		{"net/http's transport", &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}, true, ""},
		{"a cookie jar", &http.Client{Jar: jar}, false, "session=s1"},
		{"another transport", &http.Client{Transport: roundTripperFunc(http.DefaultTransport.RoundTrip)}, false, ""},
		{"a CheckRedirect", &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone(),
			CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}, false, ""},
	} {
		c, err := newClient(Config{BaseURL: srv.URL, Token: "tok", HTTPClient: tc.hc})
		if err != nil {
			t.Fatal(err)
		}
		if c.shared != tc.shared {
			t.Errorf("%s: shared %v, want %v", tc.name, c.shared, tc.shared)
		}
		before := c.Header()
		got = nil
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for range 4 {
					if _, err := c.Send(t.Context(), Request{Method: http.MethodPost, Path: "/aspects?action=ingestProposal", Body: []byte(`{}`)}); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		if len(got) != 32 {
			t.Fatalf("%s: %d requests, want 32", tc.name, len(got))
		}
		for _, h := range got {
			if h.Get("Authorization") != "Bearer tok" || h.Get("X-RestLi-Protocol-Version") != "2.0.0" || len(h.Values("Cookie")) > 1 || h.Get("Cookie") != tc.cookie {
				t.Fatalf("%s: request headers %v", tc.name, h)
			}
		}
		if after := c.Header(); len(after) != len(before) || after.Get("Cookie") != "" {
			t.Errorf("%s: the client's header changed: %v, was %v", tc.name, after, before)
		}
	}
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestSharedURL checks that the requests of a path seen before share the
// template's URL only where they may share the header, and that no
// request changes it.
func TestSharedURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		hc     *http.Client
		shared bool
	}{
		{"net/http's transport", &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}, true},
		{"another transport", &http.Client{Transport: roundTripperFunc(http.DefaultTransport.RoundTrip)}, false},
	} {
		c, err := newClient(Config{BaseURL: "https://u:p@gms.example:8443/api/gms", HTTPClient: tc.hc})
		if err != nil {
			t.Fatal(err)
		}
		const path = "/entities/urn%3Ali%3Acorpuser%3Aa?x=1"
		first, err := c.newRequest(t.Context(), http.MethodGet, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := first.URL.String()
		var urls []*url.URL
		for range 3 {
			req, err := c.newRequest(t.Context(), http.MethodGet, path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := req.URL.String(); got != want {
				t.Fatalf("%s: URL %s, want %s", tc.name, got, want)
			}
			urls = append(urls, req.URL)
		}
		if shared := urls[0] == urls[1] && urls[1] == urls[2]; shared != tc.shared {
			t.Errorf("%s: the requests share their URL: %v, want %v", tc.name, shared, tc.shared)
		}
		if got := c.templates[path].URL.String(); got != want {
			t.Errorf("%s: the template's URL changed: %s, want %s", tc.name, got, want)
		}
	}
}
