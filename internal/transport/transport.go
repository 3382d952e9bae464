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
	"sync"

	"github.com/hashicorp/go-retryablehttp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/internal/config"
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

// Check fails, wrapping datahub.ErrValidation, when an option was given
// a value it refuses (a negative timeout, a header value net/http would not
// send).
func Check(s config.Settings) error {
	if err := s.Err(); err != nil {
		return fmt.Errorf("datahub: %w: %w", err, datahub.ErrValidation)
	}
	return nil
}

// Client sends requests to one DataHub server with the standard headers,
// retries and error decoding. It is safe for concurrent use.
type Client struct {
	base   string
	header http.Header
	// hc sends Send's attempts: the HTTP client of the settings without
	// the settings' timeout, which wd enforces (wd is nil when they set
	// none: hc's own timeout, if any, applies then).
	hc *http.Client
	wd *watchdog
	// rc is StandardClient's go-retryablehttp client, whose HTTP client
	// (hc's transport) has the timeout.
	rc *retryablehttp.Client
	// log is the settings' logger; logRequest and logResponse, set when
	// it is, log each attempt and each answer at level Debug.
	log         *slog.Logger
	logRequest  func(req *http.Request, attempt int)
	logResponse func(resp *http.Response)
	policy      policy
	maxResp     int64
	// shared says that requests may share c's header (see
	// sharesRequests): the HTTP client neither keeps cookies nor has a
	// transport other than net/http's, so nothing writes to it.
	shared bool
	// traced says that the HTTP client sends through net/http's own
	// transport, which reports each written request to the trace's
	// WroteRequest (see callState.holdBody); a RoundTripper of the
	// caller's may not.
	traced bool

	// templates holds, by path, a request http.NewRequest made for the
	// path (no body, no context), at most maxTemplates of them: Send copies
	// it instead of parsing the URL again.
	mu        sync.RWMutex
	templates map[string]*http.Request
}

// maxTemplates bounds Client.templates: the emitter's paths are few, the
// client's (which carry URNs) many.
const maxTemplates = 64

// Response is a successful (2xx) answer, its body read in full.
type Response struct {
	// StatusCode is the HTTP status code.
	StatusCode int
	// Header is the response header.
	Header http.Header
	// Body is the response body.
	Body []byte
	// Replayed reports that an earlier attempt of this write may have been
	// applied (its answer was lost, or was a 500, 502 or 504) before the
	// attempt that got this answer: the answer then describes only the
	// last attempt.
	Replayed bool
}

// New checks baseURL (see NormalizeBaseURL) and returns a Client that
// sends under it with settings s. The only error is a bad baseURL, which
// wraps datahub.ErrValidation.
func New(baseURL string, s config.Settings) (*Client, error) {
	base, err := NormalizeBaseURL(baseURL)
	if err != nil {
		return nil, err
	}
	hc := s.HTTPClient
	if hc == nil {
		hc = NewPooledClient()
	}
	timed := hc
	if s.Timeout > 0 {
		// Send's attempts are bounded by a watchdog rather than by
		// net/http's client timeout, which sets a timer and a context for
		// each request; StandardClient's keep it.
		untimed, copied := *hc, *hc
		untimed.Timeout, copied.Timeout = 0, s.Timeout
		hc, timed = &untimed, &copied
	}
	c := &Client{base: base, header: standardHeader(s.Token, s.Headers), hc: hc, log: s.Logger, policy: resolve(s.Retry),
		maxResp: s.MaxResponseBytes, shared: sharesRequests(hc), traced: netHTTPTransport(hc)}
	if s.Timeout > 0 {
		c.wd = &watchdog{timeout: s.Timeout}
	}
	if c.maxResp <= 0 {
		c.maxResp = DefaultMaxResponseBytes
	}
	c.rc = &retryablehttp.Client{
		HTTPClient:   timed,
		Logger:       nil, // retryablehttp's own logger would write to stderr
		RetryMax:     c.policy.attempts - 1,
		CheckRetry:   c.checkRetry,
		Backoff:      c.policy.retryableBackoff(s.Logger),
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
	if log := s.Logger; log != nil {
		c.logRequest = func(req *http.Request, attempt int) {
			log.LogAttrs(req.Context(), slog.LevelDebug, "datahub: sending request",
				slog.String("method", req.Method), slog.String("url", datahub.RedactURL(req.URL.String())),
				slog.Int("attempt", attempt+1))
		}
		c.logResponse = func(resp *http.Response) {
			log.LogAttrs(resp.Request.Context(), slog.LevelDebug, "datahub: response",
				slog.String("method", resp.Request.Method), slog.String("url", datahub.RedactURL(resp.Request.URL.String())),
				slog.Int("status", resp.StatusCode))
		}
		c.rc.RequestLogHook = func(_ retryablehttp.Logger, req *http.Request, attempt int) { c.logRequest(req, attempt) }
		c.rc.ResponseLogHook = func(_ retryablehttp.Logger, resp *http.Response) { c.logResponse(resp) }
	}
	return c, nil
}

// NewPooledClient returns a client whose pool keeps as many idle
// connections per host as DataHub's Python emitter (100), so that
// concurrent callers do not open a connection per request.
func NewPooledClient() *http.Client {
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
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// Request is one REST call.
type Request struct {
	// Method and Path (which starts with "/" and carries its own query)
	// say what to call under the base URL.
	Method, Path string
	// Body is sent as is; nil sends none.
	Body []byte
	// Parts, when set, are sent after Body, one after the other, without
	// being joined into one slice first.
	Parts [][]byte
	// DiscardBody reads a successful answer's body without keeping it:
	// the Response has no Body.
	DiscardBody bool
	// Done, when set, is called once Body and Parts are no longer read:
	// after Send has returned and net/http has closed every attempt's
	// body (which it may do after the answer came, when the server
	// answered before reading the whole request). Until then their memory
	// must not change. Done may run on another goroutine; it is not called
	// when a body is never closed, leaving the memory to the collector.
	// A write (POST, PUT, DELETE, PATCH) with a Body and no Parts, sent
	// through net/http's own transport, goes as its in-memory body, whose
	// closing cannot be seen: its Done is called after Send has returned
	// and every attempt's body has been written whole, and not at all
	// when one was not (it is left to the collector then).
	Done func()
	// NoReplay marks a request that is not safe to send twice (a
	// conditional write, a CREATE): it is retried only after an attempt
	// that provably did not apply it (a DialError, 429, 503). After any
	// other failure the call ends with an error matching
	// datahub.ErrOutcomeUnknown.
	NoReplay bool
	// FailFast ends the call at once when the server cannot be reached (a
	// DialError) instead of retrying: for connection checks.
	FailFast bool
}

// Do sends body (nil for none) with method to the base URL followed by path
// (which starts with "/" and carries its own query), retrying as configured.
// It is Send of a Request that may be replayed.
func (c *Client) Do(ctx context.Context, method, path string, body []byte) (*Response, error) {
	return c.Send(ctx, Request{Method: method, Path: path, Body: body})
}

// Send sends req, retrying as the policy and req say.
//
// A 2xx answer is returned as a Response. Any other answer is a
// *datahub.Error filled from the Rest.li error body, with the response's
// header. A request that got no answer returns an error that wraps the
// cause: the context's error when it was cancelled or timed out, else the
// network error of the last attempt. When an attempt of a write (POST, PUT,
// DELETE, PATCH) may have been applied without a definite answer (no answer
// after its request headers were sent; a 500, 502 or 504) and the call
// fails, its error also matches datahub.ErrOutcomeUnknown, and
// datahub.ErrStopped as well when ctx ended before the call got an answer.
// A read, or a request that was never sent (the context done before, a
// header net/http refuses), never does.
func (c *Client) Send(ctx context.Context, r Request) (*Response, error) {
	st := &callState{ctx: ctx, write: writeMethod(r.Method), noReplay: r.NoReplay, failFast: r.FailFast}
	var b body
	switch {
	case len(r.Parts) == 0 && len(r.Body) > 0 && r.Done != nil && st.write && c.traced:
		// A write's body in one slice goes as net/http's in-memory body,
		// its headers and first bytes in one segment (a body net/http
		// does not know is in memory has its headers flushed alone); its
		// holds end with the attempts' writes (see holdBody).
		b.data, b.n = r.Body, int64(len(r.Body))
		st.holdBody(r.Done)
		defer st.releaseBody()
	case len(r.Parts) > 0 || r.Done != nil:
		parts := new(partsSource)
		parts.init(r.Body, r.Parts, r.Done)
		defer parts.release()
		if parts.n > 0 {
			b.parts, b.n = parts, int64(parts.n)
		}
	case len(r.Body) > 0:
		b.data, b.n = r.Body, int64(len(r.Body))
	}
	st.tctx = st.withTrace()
	var header http.Header
	if c.shared {
		header = c.header // see sharesRequests
	} else {
		header = c.header.Clone()
	}
	req, err := c.newRequest(c.startAttempt(st), r.Method, r.Path, header)
	if err != nil {
		st.endAttempt(nil)
		return nil, requestError(r.Method, c.base+r.Path, err)
	}
	resp, err := c.do(st, req, &b)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		st.endAttempt(nil)
		return nil, st.outcome(ctx, requestError(r.Method, c.base+r.Path, err), 0)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, rerr := io.ReadAll(st.limited(resp.Body, maxErrorBody))
		st.endAttempt(nil)
		if rerr != nil && ctx.Err() != nil {
			return nil, st.outcome(ctx, requestError(r.Method, c.base+r.Path, ctx.Err()), 0)
		}
		e := DecodeError(resp.StatusCode, data)
		e.Method, e.URL, e.Header = r.Method, datahub.RedactURL(c.base+r.Path), resp.Header
		return nil, st.outcome(ctx, e, resp.StatusCode)
	}
	var data []byte
	var size int64
	if r.DiscardBody {
		size, err = discard(st.limited(resp.Body, c.maxResp+1))
	} else {
		data, err = io.ReadAll(st.limited(resp.Body, c.maxResp+1))
		size = int64(len(data))
	}
	st.endAttempt(&err)
	if err != nil {
		if !st.write {
			return nil, requestError(r.Method, c.base+r.Path, err)
		}
		// The server answered 2xx, so a write was applied, but its answer
		// (counts, a created key) is lost.
		return nil, &unknownError{err: requestError(r.Method, c.base+r.Path, err)}
	}
	if size > c.maxResp {
		return nil, fmt.Errorf("datahub: %s %s: response body larger than %d bytes", r.Method, datahub.RedactURL(c.base+r.Path), c.maxResp)
	}
	if r.DiscardBody {
		// No body to keep alive with the state: the answer is the state's.
		st.resp = Response{StatusCode: resp.StatusCode, Header: resp.Header, Replayed: st.maybeApplied}
		return &st.resp, nil
	}
	return &Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: data, Replayed: st.maybeApplied}, nil
}

// newRequest returns http.NewRequestWithContext(ctx, method, c.base+path,
// nil) with header, when not nil, as its Header (else an empty one); for a
// path seen before, it copies the request made then (its URL deep, unless
// requests may share it: see sharesRequests) instead of parsing the URL
// again, and makes no empty header map to be replaced.
// The body is set for each attempt (see body.setBody).
func (c *Client) newRequest(ctx context.Context, method, path string, header http.Header) (*http.Request, error) {
	c.mu.RLock()
	t := c.templates[path]
	c.mu.RUnlock()
	if t == nil || t.Method != method {
		target := c.base + path
		req, err := http.NewRequestWithContext(ctx, method, target, nil)
		if err != nil {
			return nil, err
		}
		if header != nil {
			req.Header = header
		}
		if t == nil {
			c.remember(method, path, target)
		}
		return req, nil
	}
	req := t.WithContext(ctx)
	if !c.shared { // see sharesRequests
		u := *t.URL
		req.URL = &u
	}
	req.Header = header
	if header == nil {
		req.Header = make(http.Header)
	}
	return req, nil
}

// sharesRequests reports whether the requests sent through hc may share
// one header map and, for a path seen before, one URL, read but never
// written: hc keeps no cookies (http.Client adds a jar's cookies to the
// request's header), has no CheckRedirect of the caller's (which is shown
// the requests made so far) and sends through net/http's own transport,
// which does not change a request (a RoundTripper of the caller's might,
// though its contract forbids it). Neither go-retryablehttp nor Send
// changes them.
func sharesRequests(hc *http.Client) bool {
	if hc.Jar != nil || hc.CheckRedirect != nil {
		return false
	}
	return netHTTPTransport(hc)
}

// netHTTPTransport reports whether hc sends through net/http's own
// transport.
func netHTTPTransport(hc *http.Client) bool {
	rt := hc.Transport
	if rt == nil {
		rt = http.DefaultTransport // which a program may have replaced
	}
	_, ok := rt.(*http.Transport)
	return ok
}

// remember keeps a template request for path, while there is room.
func (c *Client) remember(method, path, target string) {
	t, err := http.NewRequest(method, target, nil)
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.templates == nil {
		c.templates = make(map[string]*http.Request)
	}
	if _, ok := c.templates[path]; !ok && len(c.templates) < maxTemplates {
		c.templates[path] = t
	}
}

// writeMethod reports whether method may change something on the server.
func writeMethod(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch:
		return true
	}
	return false
}

// outcome returns err, the failure of the call, marked as of unknown
// outcome when an attempt may have been applied, unless the last answer
// (status, 0 for none) is a 4xx other than 429: a definite refusal of a
// request that, replayed, would have been refused the first time as well.
// When the caller's ctx ended before an answer (status 0), the mark says
// the caller stopped it.
func (st *callState) outcome(ctx context.Context, err error, status int) error {
	if !st.maybeApplied || (status >= 400 && status < 500 && status != http.StatusTooManyRequests) {
		return err
	}
	return &unknownError{err: err, notReplayed: st.stoppedUnsafe, stopped: status == 0 && ctx.Err() != nil}
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

// discardBufs are the buffers discard reads into.
var discardBufs = sync.Pool{New: func() any { return new([discardSize]byte) }}

// discardSize is the size of discard's reads: a long answer (an OpenAPI
// write's echo of what it wrote) in a few reads, where io.Discard reads
// 8 KiB at a time.
const discardSize = 64 << 10

// discard reads r to its end without keeping what it reads, and returns
// the number of bytes read.
func discard(r io.Reader) (int64, error) {
	buf := discardBufs.Get().(*[discardSize]byte)
	defer discardBufs.Put(buf)
	var n int64
	for {
		m, err := r.Read(buf[:])
		n += int64(m)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
