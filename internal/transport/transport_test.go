package transport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	datahub "github.com/catalogkit/datahub-go"
)

// step is one scripted answer of a scriptTransport: a response or an error.
type step struct {
	status int
	header http.Header
	body   string
	err    error
}

// scriptTransport is an http.RoundTripper that answers from a script and
// records what it was sent. Once the script runs out it repeats the last
// step.
type scriptTransport struct {
	mu     sync.Mutex
	steps  []step
	seen   []*http.Request
	bodies []string
}

func (s *scriptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body.Close()
	}
	s.mu.Lock()
	i := min(len(s.seen), len(s.steps)-1)
	s.seen = append(s.seen, req)
	s.bodies = append(s.bodies, string(body))
	st := s.steps[i]
	s.mu.Unlock()
	// Like net/http's transport, report the headers written once connected.
	if trace := httptrace.ContextClientTrace(req.Context()); trace != nil && trace.WroteHeaders != nil && !DialError(st.err) {
		trace.WroteHeaders()
	}
	if st.err != nil {
		return nil, st.err
	}
	h := st.header
	if h == nil {
		h = http.Header{}
	}
	return &http.Response{StatusCode: st.status, Header: h, Body: io.NopCloser(strings.NewReader(st.body)), Request: req}, nil
}

func (s *scriptTransport) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}

// fastRetry retries quickly so that tests do not wait.
var fastRetry = datahub.RetryPolicy{MaxAttempts: 4, Backoff: datahub.ExponentialBackoff(time.Millisecond, 2*time.Millisecond, 5*time.Millisecond)}

// Config is what the tests configure a Client with: a base URL and the
// settings the datahub options write.
type Config struct {
	BaseURL          string
	Token            string
	Headers          map[string]string
	HTTPClient       *http.Client
	Timeout          time.Duration
	Retry            datahub.RetryPolicy
	Logger           *slog.Logger
	MaxResponseBytes int64
}

// newClient builds a Client from cfg through the public options, as the
// emitter and the client do.
func newClient(cfg Config) (*Client, error) {
	opts := []datahub.Option{datahub.WithToken(cfg.Token), datahub.WithHeaders(cfg.Headers),
		datahub.WithHTTPClient(cfg.HTTPClient), datahub.WithTimeout(cfg.Timeout), datahub.WithLogger(cfg.Logger)}
	if cfg.Retry.MaxAttempts == 0 {
		cfg.Retry.MaxAttempts = 1 // one attempt unless a test says otherwise
	}
	opts = append(opts, datahub.WithRetry(cfg.Retry))
	s, err := Settings("test", opts)
	if err != nil {
		return nil, err
	}
	s.MaxResponseBytes = cfg.MaxResponseBytes
	return New(cfg.BaseURL, s)
}

func newScripted(t *testing.T, cfg Config, steps ...step) (*Client, *scriptTransport) {
	t.Helper()
	st := &scriptTransport{steps: steps}
	cfg.HTTPClient = &http.Client{Transport: st}
	if cfg.BaseURL == "" {
		cfg.BaseURL = "http://gms.example:8080/"
	}
	c, err := newClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, st
}

func TestNormalizeBaseURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{in: "http://localhost:8080", want: "http://localhost:8080"},
		{in: "http://localhost:8080/", want: "http://localhost:8080"},
		{in: " https://datahub.example.com/api/gms// ", want: "https://datahub.example.com/api/gms"},
		{in: "HTTPS://gms:8080", want: "HTTPS://gms:8080"},
		{in: "", wantErr: true},
		{in: "localhost:8080", wantErr: true},
		{in: "gms.example.com", wantErr: true},
		{in: "ftp://gms", wantErr: true},
		{in: "http://", wantErr: true},
		{in: "http://gms:8080?token=x", wantErr: true},
		{in: "http://gms:8080/#frag", wantErr: true},
		{in: "http://gms:bad port", wantErr: true},
		{in: "http://admin:s3cret@gms:bad port", wantErr: true},
		{in: "http://admin:s3cret@gms:8080/%zz", wantErr: true},
		{in: "admin:s3cret@gms:8080", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := NormalizeBaseURL(tt.in)
			if tt.wantErr {
				if !errors.Is(err, datahub.ErrValidation) {
					t.Fatalf("NormalizeBaseURL(%q) = %q, %v; want an ErrValidation", tt.in, got, err)
				}
				if strings.Contains(err.Error(), "token=x") || strings.Contains(err.Error(), "s3cret") {
					t.Errorf("error shows the token: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("NormalizeBaseURL(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		token string
		extra map[string]string
		want  http.Header
	}{
		{
			name: "no token",
			want: http.Header{
				"X-Restli-Protocol-Version": {"2.0.0"}, "Content-Type": {"application/json"},
				"Accept": {"application/json"}, "User-Agent": {UserAgent},
			},
		},
		{
			name:  "token and extra headers override",
			token: "s3cret",
			extra: map[string]string{"X-Custom": "1", "user-agent": "mine/1.0", "Accept": "*/*"},
			want: http.Header{
				"X-Restli-Protocol-Version": {"2.0.0"}, "Content-Type": {"application/json"},
				"Accept": {"*/*"}, "User-Agent": {"mine/1.0"}, "Authorization": {"Bearer s3cret"},
				"X-Custom": {"1"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, st := newScripted(t, Config{Token: tt.token, Headers: tt.extra}, step{status: 200, body: `{}`})
			if _, err := c.Do(t.Context(), http.MethodGet, "/config", nil); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, st.seen[0].Header); diff != "" {
				t.Errorf("headers (-want +got):\n%s", diff)
			}
			if got, want := st.seen[0].URL.String(), "http://gms.example:8080/config"; got != want {
				t.Errorf("URL = %q, want %q", got, want)
			}
		})
	}
}

func TestUserAgent(t *testing.T) {
	t.Parallel()
	if !strings.HasPrefix(UserAgent, "datahub-go/"+datahub.Version+" (go; go") {
		t.Errorf("UserAgent = %q", UserAgent)
	}
}

func TestDecodeError(t *testing.T) {
	t.Parallel()
	longTrace := strings.Repeat("\\tat com.linkedin.Foo.bar(Foo.java:1)\\n", 2000)
	tests := []struct {
		name   string
		status int
		body   string
		want   *datahub.Error
	}{
		{
			name:   "rest.li 422",
			status: 422,
			body:   `{"exceptionClass":"com.linkedin.restli.server.RestLiServiceException","stackTrace":"com.linkedin.restli.server.RestLiServiceException [HTTP Status:422]: Unknown aspect foo for entity dataset\n\tat x","message":"Unknown aspect foo for entity dataset","status":422}`,
			want:   &datahub.Error{StatusCode: 422, Message: "Unknown aspect foo for entity dataset", ExceptionClass: "com.linkedin.restli.server.RestLiServiceException"},
		},
		{
			name:   "message before a cut stack trace",
			status: 500,
			body:   `{"message":"boom","exceptionClass":"java.lang.RuntimeException","stackTrace":"` + longTrace[:1000],
			want:   &datahub.Error{StatusCode: 500, Message: "boom", ExceptionClass: "java.lang.RuntimeException"},
		},
		{
			name:   "no message",
			status: 403,
			body:   `{"status":403}`,
			want:   &datahub.Error{StatusCode: 403, Message: "Forbidden"},
		},
		{name: "empty", status: 502, want: &datahub.Error{StatusCode: 502, Message: "Bad Gateway"}},
		{name: "html", status: 413, body: "<html><body>413 Request Entity Too Large</body></html>", want: &datahub.Error{StatusCode: 413, Message: "Request Entity Too Large"}},
		{name: "plain text", status: 401, body: "Unauthorized to perform this action.\nmore", want: &datahub.Error{StatusCode: 401, Message: "Unauthorized to perform this action."}},
		{name: "long plain text", status: 400, body: strings.Repeat("é", 150), want: &datahub.Error{StatusCode: 400, Message: strings.Repeat("é", 100) + "..."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, DecodeError(tt.status, []byte(tt.body))); diff != "" {
				t.Errorf("DecodeError (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDo(t *testing.T) {
	t.Parallel()
	reset := &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}
	tests := []struct {
		name       string
		steps      []step
		wantStatus int // 0: want an error
		wantBody   string
		wantErr    *datahub.Error
		wantIs     error
		wantTries  int
	}{
		{name: "ok", steps: []step{{status: 200, body: `{"value":"success"}`}}, wantStatus: 200, wantBody: `{"value":"success"}`, wantTries: 1},
		{name: "503 then ok", steps: []step{{status: 503}, {status: 503}, {status: 200, body: `{}`}}, wantStatus: 200, wantBody: `{}`, wantTries: 3},
		{name: "dropped then ok", steps: []step{{err: io.EOF}, {err: reset}, {status: 201, body: `x`}}, wantStatus: 201, wantBody: `x`, wantTries: 3},
		{
			name: "429 with Retry-After then ok", steps: []step{{status: 429, header: http.Header{"Retry-After": {"1"}}}, {status: 200}},
			wantStatus: 200, wantTries: 2,
		},
		{
			name: "422 not retried", steps: []step{{status: 422, body: `{"message":"Unknown aspect foo for entity dataset","status":422}`}},
			wantErr: &datahub.Error{StatusCode: 422, Message: "Unknown aspect foo for entity dataset", Method: "POST", URL: "http://gms.example:8080/aspects?action=ingestProposal"},
			wantIs:  datahub.ErrValidation, wantTries: 1,
		},
		{
			name: "503 until out of attempts", steps: []step{{status: 503, body: `{"message":"down"}`}},
			wantErr:   &datahub.Error{StatusCode: 503, Message: "down", Method: "POST", URL: "http://gms.example:8080/aspects?action=ingestProposal"},
			wantTries: 4,
		},
		{name: "network error until out of attempts", steps: []step{{err: reset}}, wantIs: reset.Err, wantTries: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, st := newScripted(t, Config{Retry: fastRetry}, tt.steps...)
			resp, err := c.Do(t.Context(), http.MethodPost, "/aspects?action=ingestProposal", []byte(`{"a":1}`))
			if got := st.count(); got != tt.wantTries {
				t.Errorf("attempts = %d, want %d", got, tt.wantTries)
			}
			for i, b := range st.bodies {
				if b != `{"a":1}` {
					t.Errorf("attempt %d sent body %q", i+1, b)
				}
			}
			if tt.wantStatus != 0 {
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff([]any{tt.wantStatus, tt.wantBody}, []any{resp.StatusCode, string(resp.Body)}); diff != "" {
					t.Errorf("response (-want +got):\n%s", diff)
				}
				return
			}
			if err == nil {
				t.Fatal("want an error")
			}
			if tt.wantErr != nil {
				var de *datahub.Error
				if !errors.As(err, &de) {
					t.Fatalf("err = %v (%T), want *datahub.Error", err, err)
				}
				if de.Header == nil {
					t.Error("error has no response header")
				}
				if diff := cmp.Diff(tt.wantErr, de, cmpopts.IgnoreFields(datahub.Error{}, "Header")); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("err = %v, want it to wrap %v", err, tt.wantIs)
			}
		})
	}
}

func TestDoRedactsURL(t *testing.T) {
	t.Parallel()
	c, _ := newScripted(t, Config{BaseURL: "http://user:pw@gms.example:8080"}, step{status: 404})
	_, err := c.Do(t.Context(), http.MethodGet, "/aspects/x?token=abc", nil)
	if err == nil || strings.Contains(err.Error(), "pw") || strings.Contains(err.Error(), "abc") {
		t.Errorf("err = %v: want an error without secrets", err)
	}
	// A path that does not parse fails before sending; net/url's error
	// quotes the whole URL, user info included.
	if _, err := c.Do(t.Context(), http.MethodGet, "/aspects/%zz", nil); err == nil || strings.Contains(err.Error(), "pw") {
		t.Errorf("bad path: err = %v: want an error without secrets", err)
	}
	if !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
}

func TestDoResponseLimit(t *testing.T) {
	t.Parallel()
	c, _ := newScripted(t, Config{MaxResponseBytes: 10}, step{status: 200, body: strings.Repeat("x", 11)})
	if _, err := c.Do(t.Context(), http.MethodGet, "/config", nil); err == nil {
		t.Error("want an error for a body over the limit")
	}
}

// TestDoCancelDuringWait checks that cancelling the context ends a retry
// wait at once (the wait is an hour: a wait that ignored the context would
// hang the test), that no attempt follows, and that the error says why.
func TestDoCancelDuringWait(t *testing.T) {
	t.Parallel()
	waiting := make(chan struct{})
	var once sync.Once
	hour := func(int, *http.Response) time.Duration {
		once.Do(func() { close(waiting) })
		return time.Hour
	}
	c, st := newScripted(t, Config{Retry: datahub.RetryPolicy{MaxAttempts: 10, Backoff: hour}}, step{status: 503, header: http.Header{"Retry-After": {"30"}}})
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Do(ctx, http.MethodPost, "/aspects?action=ingestProposal", []byte(`{}`))
		errc <- err
	}()
	<-waiting
	cancel()
	err := <-errc
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if n := st.count(); n != 1 {
		t.Errorf("%d attempts, want 1", n)
	}
}

// TestLoggerNeverLogsToken checks that a configured logger sees retries but
// never the token or the headers.
func TestLoggerNeverLogsToken(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	var mu sync.Mutex
	log := slog.New(slog.NewTextHandler(lockedWriter{&mu, &buf}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, _ := newScripted(t, Config{Token: "tok-SECRET", Headers: map[string]string{"X-Api-Key": "key-SECRET"}, Retry: fastRetry, Logger: log},
		step{status: 503}, step{status: 200})
	if _, err := c.Do(t.Context(), http.MethodPost, "/aspects?action=ingestProposal", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	out := buf.String()
	mu.Unlock()
	if strings.Contains(out, "SECRET") {
		t.Errorf("log shows a secret:\n%s", out)
	}
	for _, want := range []string{"retrying request", "status=503", "attempt=2"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestNewKeepsCallersClient(t *testing.T) {
	t.Parallel()
	hc := &http.Client{Timeout: time.Minute}
	if _, err := newClient(Config{BaseURL: "http://gms", HTTPClient: hc, Timeout: time.Second}); err != nil {
		t.Fatal(err)
	}
	if hc.Timeout != time.Minute {
		t.Errorf("New changed the caller's client timeout to %v", hc.Timeout)
	}
	if _, err := newClient(Config{BaseURL: "gms:8080"}); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("New with a bad URL: err = %v", err)
	}
}

func TestStandardClient(t *testing.T) {
	t.Parallel()
	c, st := newScripted(t, Config{Token: "tok", Retry: fastRetry}, step{status: 503}, step{status: 200, body: `{"data":{}}`})
	hc := c.StandardClient()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, "http://gms.example:8080/api/graphql", strings.NewReader(`{"query":"{}"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/graphql-response+json")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != `{"data":{}}` {
		t.Errorf("answer %d %s", resp.StatusCode, body)
	}
	if st.count() != 2 || st.bodies[1] != `{"query":"{}"}` {
		t.Errorf("%d attempts, bodies %q: want a retry with the same body", st.count(), st.bodies)
	}
	got := st.seen[1].Header
	if got.Get("Authorization") != "Bearer tok" || got.Get("Accept") != "application/graphql-response+json" || got.Get("User-Agent") != UserAgent {
		t.Errorf("headers %v: want the client's headers without overriding the request's", got)
	}
	if req.Header.Get("Authorization") != "" {
		t.Error("StandardClient modified the caller's request")
	}
}

// closeRecorder is a response body that records whether it was closed.
type closeRecorder struct {
	io.Reader
	closed atomic.Bool
}

func (c *closeRecorder) Close() error { c.closed.Store(true); return nil }

// cancelTransport answers 503 and cancels the request's context as it
// does, as when the caller gives up while the answer arrives.
type cancelTransport struct {
	cancel context.CancelFunc
	body   *closeRecorder
}

func (c *cancelTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.cancel()
	return &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{}, Body: c.body, Request: req}, nil
}

// TestStandardClientCancelledOnRetryableAnswer cancels the context as a
// retryable answer arrives: the retry loop returns that answer with the
// context's error, and the *http.Client must get the error alone, the
// answer's body closed (net/http would log and leak it otherwise).
// It is not parallel: it swaps the standard logger.
func TestStandardClientCancelledOnRetryableAnswer(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	ct := &cancelTransport{cancel: cancel, body: &closeRecorder{Reader: strings.NewReader("busy")}}
	c, err := newClient(Config{BaseURL: "http://gms.example:8080", Retry: fastRetry, HTTPClient: &http.Client{Transport: ct}})
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	log.SetOutput(&logged)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://gms.example:8080/api/graphql", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.StandardClient().Do(req)
	if resp != nil {
		resp.Body.Close()
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if !ct.body.closed.Load() {
		t.Error("the 503's body was left open")
	}
	if logged.Len() > 0 {
		t.Errorf("net/http logged: %s", logged.String())
	}
}
