package transport

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/mockserver"
)

// timeoutPair returns two clients of the server at base that send through
// one transport: timed, whose attempts the watchdog bounds (WithTimeout(d)),
// and netHTTP, whose attempts net/http's client timeout bounds (an
// http.Client with Timeout d and WithTimeout(0), which keeps it), as every
// attempt was bounded before the watchdog.
func timeoutPair(t *testing.T, base string, rt http.RoundTripper, d time.Duration, retry datahub.RetryPolicy) (timed, netHTTP *Client) {
	t.Helper()
	timed, err := newClient(Config{BaseURL: base, HTTPClient: &http.Client{Transport: rt}, Timeout: d, Retry: retry})
	if err != nil {
		t.Fatal(err)
	}
	if timed.wd == nil {
		t.Fatal("no watchdog with a timeout")
	}
	netHTTP, err = newClient(Config{BaseURL: base, HTTPClient: &http.Client{Transport: rt, Timeout: d}, Retry: retry})
	if err != nil {
		t.Fatal(err)
	}
	if netHTTP.wd != nil {
		t.Fatal("a watchdog without a timeout")
	}
	return timed, netHTTP
}

// sameTimeoutError fails unless got, Send's error under the watchdog, is
// want, its error under net/http's client timeout: the same text, both or
// neither matching context.DeadlineExceeded, datahub.ErrOutcomeUnknown and
// a net.Error whose Timeout is true.
func sameTimeoutError(t *testing.T, got, want error) {
	t.Helper()
	if got == nil || want == nil {
		t.Fatalf("errors %v and %v, want two", got, want)
	}
	if got.Error() != want.Error() {
		t.Errorf("error\n%v\nwant (net/http's client timeout)\n%v", got, want)
	}
	for _, target := range []error{context.DeadlineExceeded, context.Canceled, datahub.ErrOutcomeUnknown, datahub.ErrStopped} {
		if errors.Is(got, target) != errors.Is(want, target) {
			t.Errorf("errors.Is(%v, %v) = %v, want %v", got, target, errors.Is(got, target), errors.Is(want, target))
		}
	}
	var gn, wn net.Error
	if errors.As(got, &gn) != errors.As(want, &wn) || (gn != nil && gn.Timeout() != wn.Timeout()) {
		t.Errorf("net.Error %v, want %v", gn, wn)
	}
}

// TestTimeoutMatchesNetHTTP holds the watchdog's timeout to net/http's
// client timeout, which bounded every attempt before: against a mock that
// stalls its answers, a read and a write fail with the same error, marked
// alike (a write whose headers went out may have been applied), once each
// attempt is retried; and the watchdog ends every watch it started.
func TestTimeoutMatchesNetHTTP(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithFault(mockserver.Latency(mockserver.OpConfig, time.Minute),
		mockserver.Latency(mockserver.OpIngestProposal, time.Minute)))
	rt := NewPooledClient().Transport
	retry := datahub.RetryPolicy{MaxAttempts: 2, Backoff: datahub.ExponentialBackoff(time.Millisecond, time.Millisecond, 0)}
	timed, netHTTP := timeoutPair(t, s.URL(), rt, 50*time.Millisecond, retry)
	for _, r := range []Request{
		{Method: http.MethodGet, Path: "/config"},
		{Method: http.MethodPost, Path: "/aspects?action=ingestProposal", Body: []byte(`{"proposal":{}}`)},
		{Method: http.MethodPost, Path: "/aspects?action=ingestProposal", Parts: [][]byte{[]byte(`{"proposal":`), []byte(`{}}`)}},
	} {
		gotCtx, gotAttempts := countAttempts(t.Context())
		_, got := timed.Send(gotCtx, r)
		wantCtx, wantAttempts := countAttempts(t.Context())
		_, want := netHTTP.Send(wantCtx, r)
		sameTimeoutError(t, got, want)
		if a, b := gotAttempts.Load(), wantAttempts.Load(); a != 2 || b != 2 {
			t.Errorf("%s %s: %d attempts under the watchdog, %d under net/http's timeout; want 2 each", r.Method, r.Path, a, b)
		}
		if !strings.Contains(got.Error(), "Client.Timeout exceeded while awaiting headers") {
			t.Errorf("%s %s: %v, want the client timeout's message", r.Method, r.Path, got)
		}
	}
	checkNoWatch(t, timed)
}

// countAttempts returns ctx with a trace that counts the attempts of a
// request sent with it, as they leave the client (the mock does not see
// an attempt whose 50 ms ran out before its request was through, on a
// loaded machine).
func countAttempts(ctx context.Context) (context.Context, *atomic.Int32) {
	n := new(atomic.Int32)
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GetConn: func(string) { n.Add(1) }}), n
}

// TestTimeoutCallerDeadlineFirst checks that a caller's deadline before
// the timeout ends the attempt as the caller's context, not as the
// timeout, as with net/http's client timeout, and without a watch.
func TestTimeoutCallerDeadlineFirst(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithFault(mockserver.Latency(mockserver.OpConfig, time.Minute)))
	timed, netHTTP := timeoutPair(t, s.URL(), NewPooledClient().Transport, time.Hour, datahub.RetryPolicy{})
	var errs [2]error
	for i, c := range []*Client{timed, netHTTP} {
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		_, errs[i] = c.Send(ctx, Request{Method: http.MethodGet, Path: "/config"})
		cancel()
	}
	sameTimeoutError(t, errs[0], errs[1])
	if strings.Contains(errs[0].Error(), "Client.Timeout") {
		t.Errorf("err = %v, want the caller's deadline", errs[0])
	}
	checkNoWatch(t, timed)
}

// stallBody is a transport whose answers are a 200 whose body stalls
// after its first bytes until the request's context is done, then fails
// with the context's cause, as net/http's transport does.
type stallBody struct{}

func (stallBody) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	ctx := req.Context()
	body := io.MultiReader(strings.NewReader(`{"value":`), readerFunc(func([]byte) (int, error) {
		<-ctx.Done()
		return 0, context.Cause(ctx)
	}))
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(body), Request: req}, nil
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// TestTimeoutWhileReadingBody checks that the timeout still bounds an
// attempt while Send reads its answer's body, and fails it as net/http's
// client timeout does with its own transport (which marks a read that
// fails after the deadline; with another transport its mark races with the
// transport's own end of the body): the body's error followed by "(Client.
// Timeout or context cancellation while reading body)", a net.Error whose
// Timeout is true, matching context.DeadlineExceeded. A write's answer
// lost so is of unknown outcome.
func TestTimeoutWhileReadingBody(t *testing.T) {
	t.Parallel()
	c, err := newClient(Config{BaseURL: "http://gms.example:8080", HTTPClient: &http.Client{Transport: stallBody{}}, Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Request{
		{Method: http.MethodGet, Path: "/config"},
		{Method: http.MethodPost, Path: "/aspects?action=ingestProposal", Body: []byte(`{}`)},
		{Method: http.MethodPost, Path: "/aspects?action=ingestProposal", Body: []byte(`{}`), DiscardBody: true},
	} {
		_, err := c.Send(t.Context(), r)
		want := "datahub: " + r.Method + " http://gms.example:8080" + r.Path + ": context deadline exceeded (Client.Timeout or context cancellation while reading body)"
		if r.Method == http.MethodPost {
			want += " (outcome unknown: the request may have been applied)"
		}
		if err == nil || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
		var ne net.Error
		if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &ne) || !ne.Timeout() {
			t.Errorf("err = %v, want a net.Error that is a timeout and matches context.DeadlineExceeded", err)
		}
		if got := errors.Is(err, datahub.ErrOutcomeUnknown); got != (r.Method == http.MethodPost) {
			t.Errorf("errors.Is(%v, datahub.ErrOutcomeUnknown) = %v", err, got)
		}
	}
	checkNoWatch(t, c)
}

// TestWatchEndsEveryAttempt sends calls that end every way a call can (an
// answer, a retried answer, an error status, a network error, a context
// done during a retry wait) and checks that the watchdog watches none
// afterwards, its timer idle.
func TestWatchEndsEveryAttempt(t *testing.T) {
	t.Parallel()
	reset := &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}
	for _, steps := range [][]step{
		{{status: 200, body: `{}`}},
		{{status: 503}, {status: 200, body: `{}`}},
		{{status: 422, body: `{"message":"no"}`}},
		{{status: 503}},
		{{err: reset}},
		{{err: reset}, {status: 200}},
	} {
		c, _ := newScripted(t, Config{Timeout: time.Hour, Retry: fastRetry}, steps...)
		for _, r := range []Request{
			{Method: http.MethodGet, Path: "/config"},
			{Method: http.MethodPost, Path: "/x", Body: []byte(`{}`)},
			{Method: http.MethodPost, Path: "/x", Parts: [][]byte{[]byte(`{`), []byte(`}`)}, DiscardBody: true},
		} {
			_, _ = c.Send(t.Context(), r)
		}
		checkNoWatch(t, c)
	}
	// A context done during a retry wait.
	c, _ := newScripted(t, Config{Timeout: time.Hour, Retry: datahub.RetryPolicy{MaxAttempts: 3, Backoff: func(int, *http.Response) time.Duration { return time.Hour }}}, step{status: 503})
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Send(ctx, Request{Method: http.MethodGet, Path: "/config"})
		errc <- err
	}()
	for {
		c.wd.mu.Lock()
		armed := c.wd.armed
		c.wd.mu.Unlock()
		if armed {
			break // the attempt was watched
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	checkNoWatch(t, c)
}

// checkNoWatch fails when c's watchdog still watches an attempt.
func checkNoWatch(t *testing.T, c *Client) {
	t.Helper()
	c.wd.mu.Lock()
	defer c.wd.mu.Unlock()
	if c.wd.head != nil || c.wd.tail != nil {
		t.Errorf("the watchdog still watches an attempt")
	}
}

// TestWatchdogFire checks the watchdog's list: a firing cancels the
// attempts past their deadline, oldest first, with
// context.DeadlineExceeded as the cause, and no other; it arms the timer
// again for the oldest left, and leaves it idle once none is left.
func TestWatchdogFire(t *testing.T) {
	t.Parallel()
	w := &watchdog{timeout: time.Hour}
	var (
		es   [3]watch
		ctxs [3]context.Context
	)
	for i := range es {
		ctx, cancel := context.WithCancelCause(t.Context())
		ctxs[i] = ctx
		w.start(&es[i], cancel)
	}
	if !w.armed || w.head != &es[0] || w.tail != &es[2] {
		t.Fatal("the attempts are not watched in order, or the timer is not armed")
	}
	// The first two are overdue; the timer fires (called here, not
	// waited for).
	w.mu.Lock()
	es[0].deadline, es[1].deadline = time.Now().Add(-time.Second), time.Now().Add(-time.Millisecond)
	w.mu.Unlock()
	w.fire()
	for i, want := range []bool{true, true, false} {
		if got := ctxs[i].Err() != nil; got != want {
			t.Errorf("attempt %d cancelled: %v, want %v", i, got, want)
		}
	}
	if cause := context.Cause(ctxs[0]); cause != context.DeadlineExceeded {
		t.Errorf("cause %v, want context.DeadlineExceeded", cause)
	}
	if !w.armed || w.head != &es[2] {
		t.Error("the timer is not armed for the attempt left")
	}
	for i, want := range []bool{true, true, false} {
		if got := w.stop(&es[i]); got != want {
			t.Errorf("stop(%d) = %v, want %v (fired)", i, got, want)
		}
	}
	if context.Cause(ctxs[2]) != context.Canceled {
		t.Errorf("a stopped attempt's context: cause %v, want context.Canceled", context.Cause(ctxs[2]))
	}
	w.fire() // the timer's firing for the attempt stopped
	if w.armed || w.head != nil {
		t.Error("the timer is still armed with nothing watched")
	}
}

// deadlineSeen is a transport that records the deadline of each request's
// context and answers 503 to the first request, 200 to the others.
type deadlineSeen struct {
	mu  sync.Mutex
	got []time.Time
}

func (d *deadlineSeen) RoundTrip(req *http.Request) (*http.Response, error) {
	dl, ok := req.Context().Deadline()
	if !ok {
		dl = time.Time{}
	}
	d.mu.Lock()
	d.got = append(d.got, dl)
	status := http.StatusOK
	if len(d.got) == 1 {
		status = http.StatusServiceUnavailable
	}
	d.mu.Unlock()
	return &http.Response{StatusCode: status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{}`)), Request: req}, nil
}

// TestAttemptDeadline checks that a transport sees each attempt's deadline
// in its request's context, as net/http's client timeout gave it: within
// the timeout of the call's start and end, on every attempt.
func TestAttemptDeadline(t *testing.T) {
	t.Parallel()
	for _, netHTTP := range []bool{false, true} {
		rt := &deadlineSeen{}
		cfg := Config{BaseURL: "http://gms.example:8080", HTTPClient: &http.Client{Transport: rt}, Timeout: time.Hour, Retry: fastRetry}
		if netHTTP {
			cfg.HTTPClient.Timeout, cfg.Timeout = time.Hour, 0
		}
		c, err := newClient(cfg)
		if err != nil {
			t.Fatal(err)
		}
		before := time.Now()
		_, err = c.Send(t.Context(), Request{Method: http.MethodPost, Path: "/x", Body: []byte(`{}`)})
		after := time.Now()
		if err != nil {
			t.Fatal(err)
		}
		if len(rt.got) != 2 {
			t.Fatalf("%d attempts, want 2", len(rt.got))
		}
		for i, dl := range rt.got {
			if dl.Before(before.Add(time.Hour)) || dl.After(after.Add(time.Hour)) {
				t.Errorf("net/http's timeout %v: attempt %d's deadline %v, want between %v and %v", netHTTP, i, dl, before.Add(time.Hour), after.Add(time.Hour))
			}
		}
	}
}
