package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	datahub "github.com/catalogkit/datahub-go"
)

// Limits on what Do reads from a response.
const (
	// DefaultMaxResponseBytes is the largest successful response body Do
	// reads when Config.MaxResponseBytes is zero. DataHub refuses requests
	// over 16,000,000 bytes, so one aspect read is well below it.
	DefaultMaxResponseBytes = 64 << 20
	// maxErrorBody is how much of an error body Do reads to find the
	// Rest.li message in it (Java stack traces can be long).
	maxErrorBody = 1 << 20
)

// UserAgent is the User-Agent header of every request:
// "datahub-go/<version> (go; <Go version>)".
var UserAgent = "datahub-go/" + datahub.Version + " (go; " + runtime.Version() + ")"

// Config is what New needs to build a Client. Only BaseURL is required.
type Config struct {
	// BaseURL is the GMS root (http://gms:8080) or a front end's GMS proxy
	// path (https://datahub.example.com/api/gms); see NormalizeBaseURL.
	BaseURL string
	// Token, when not empty, is sent as "Authorization: Bearer <Token>".
	Token string
	// Headers are set on every request after the standard ones, so they
	// override them.
	Headers map[string]string
	// HTTPClient sends the requests (TLS settings, proxies, transports come
	// through it). Nil means a pooled client of this package's own. The
	// client given is not modified: Timeout applies to a copy.
	HTTPClient *http.Client
	// Timeout bounds each attempt (connect, send, read the answer); zero
	// keeps the HTTPClient's own Timeout. The context bounds the whole call.
	Timeout time.Duration
	// Retry says how often and how long to retry; the zero value means one
	// attempt and no wait (use DefaultRetry for the Python emitter's policy).
	Retry RetryPolicy
	// Logger receives debug records of attempts and info records of
	// retries (method, redacted URL, status, wait; never headers or
	// bodies). Nil is silent.
	Logger *slog.Logger
	// MaxResponseBytes is the largest successful response body read; zero
	// means DefaultMaxResponseBytes.
	MaxResponseBytes int64
}

// Client sends requests to one DataHub server with the standard headers,
// retries and error decoding. It is safe for concurrent use.
type Client struct {
	base    string
	header  http.Header
	rc      *retryablehttp.Client
	maxResp int64
}

// Response is a successful (2xx) answer, its body read in full.
type Response struct {
	// StatusCode is the HTTP status code.
	StatusCode int
	// Header is the response header.
	Header http.Header
	// Body is the response body.
	Body []byte
}

// New checks cfg and returns a Client. The only error is a bad BaseURL,
// which wraps datahub.ErrValidation.
func New(cfg Config) (*Client, error) {
	base, err := NormalizeBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = newPooledClient()
	}
	if cfg.Timeout > 0 {
		copied := *hc
		copied.Timeout = cfg.Timeout
		hc = &copied
	}
	policy := cfg.Retry
	rc := &retryablehttp.Client{
		HTTPClient:   hc,
		Logger:       nil, // retryablehttp's own logger would write to stderr
		RetryWaitMin: policy.MinWait,
		RetryWaitMax: policy.MaxWait,
		RetryMax:     max(policy.MaxAttempts, 1) - 1,
		CheckRetry:   CheckRetry,
		Backoff:      policy.backoff(cfg.Logger),
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
	if log := cfg.Logger; log != nil {
		rc.RequestLogHook = func(_ retryablehttp.Logger, req *http.Request, attempt int) {
			log.LogAttrs(req.Context(), slog.LevelDebug, "datahub: sending request",
				slog.String("method", req.Method), slog.String("url", datahub.RedactURL(req.URL.String())),
				slog.Int("attempt", attempt+1))
		}
		rc.ResponseLogHook = func(_ retryablehttp.Logger, resp *http.Response) {
			log.LogAttrs(resp.Request.Context(), slog.LevelDebug, "datahub: response",
				slog.String("method", resp.Request.Method), slog.String("url", datahub.RedactURL(resp.Request.URL.String())),
				slog.Int("status", resp.StatusCode))
		}
	}
	maxResp := cfg.MaxResponseBytes
	if maxResp <= 0 {
		maxResp = DefaultMaxResponseBytes
	}
	return &Client{base: base, header: standardHeader(cfg.Token, cfg.Headers), rc: rc, maxResp: maxResp}, nil
}

// newPooledClient returns a client whose pool keeps as many idle
// connections per host as DataHub's Python emitter (100), so that
// concurrent emitters do not open a connection per request.
func newPooledClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 100
	t.MaxIdleConnsPerHost = 100
	return &http.Client{Transport: t}
}

// standardHeader builds the header every request carries: the standard
// ones, then extra, which overrides them.
func standardHeader(token string, extra map[string]string) http.Header {
	h := http.Header{}
	h.Set("X-RestLi-Protocol-Version", "2.0.0")
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	h.Set("User-Agent", UserAgent)
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	for k, v := range extra {
		h.Set(k, v)
	}
	return h
}

// BaseURL returns the normalised base URL requests are sent under.
func (c *Client) BaseURL() string { return c.base }

// Header returns a copy of the headers every request carries.
func (c *Client) Header() http.Header { return c.header.Clone() }

// CloseIdleConnections closes the idle connections of the HTTP client.
func (c *Client) CloseIdleConnections() { c.rc.HTTPClient.CloseIdleConnections() }

// Do sends body (nil for none) with method to the base URL followed by path
// (which starts with "/" and carries its own query), retrying as configured.
//
// A 2xx answer is returned as a Response. Any other answer is a
// *datahub.Error filled from the Rest.li error body. A request that got no
// answer returns an error that wraps the cause: the context's error when it
// was cancelled or timed out, else the network error of the last attempt.
func (c *Client) Do(ctx context.Context, method, path string, body []byte) (*Response, error) {
	target := c.base + path
	var raw any // retryablehttp sends a []byte(nil) as a chunked empty body
	if len(body) > 0 {
		raw = body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, method, target, raw)
	if err != nil {
		return nil, requestError(method, target, err)
	}
	req.Header = c.header.Clone()
	resp, err := c.rc.Do(req)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		return nil, requestError(method, target, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, rerr := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		if rerr != nil && ctx.Err() != nil {
			return nil, requestError(method, target, ctx.Err())
		}
		e := DecodeError(resp.StatusCode, data)
		e.Method, e.URL = method, datahub.RedactURL(target)
		return nil, e
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxResp+1))
	if err != nil {
		return nil, requestError(method, target, err)
	}
	if int64(len(data)) > c.maxResp {
		return nil, fmt.Errorf("datahub: %s %s: response body larger than %d bytes", method, datahub.RedactURL(target), c.maxResp)
	}
	return &Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: data}, nil
}

// requestError wraps the cause of a request that got no usable answer (or
// could not be made: a path that does not parse), keeping only a redacted
// URL; net/url's error, which quotes the whole URL, is unwrapped.
func requestError(method, target string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("datahub: %s %s: %w", method, redactRaw(target), err)
}

// StandardClient returns an *http.Client that sends through c, for
// libraries that take one (a GraphQL client): requests are retried as c's
// policy says, and c's headers are added to every request that does not set
// them itself. Unlike Do, it returns every answer as an *http.Response,
// whatever its status.
func (c *Client) StandardClient() *http.Client {
	return &http.Client{Transport: &headerTransport{header: c.header, next: &retryablehttp.RoundTripper{Client: c.rc}}}
}

// headerTransport adds a header to the requests that lack its keys.
type headerTransport struct {
	header http.Header
	next   http.RoundTripper
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	if r.Header == nil {
		r.Header = http.Header{}
	}
	for k, v := range t.header {
		if _, ok := r.Header[k]; !ok {
			r.Header[k] = v
		}
	}
	resp, err := t.next.RoundTrip(r)
	if err != nil && resp != nil {
		// The retry loop returns the last answer with the context's error
		// when the context ends as a retryable answer arrives; an
		// http.Client would log "RoundTripper returned a response & error"
		// and leave the body open.
		resp.Body.Close()
		resp = nil
	}
	return resp, err
}
