package emitter_test

import (
	"context"
	"crypto/x509"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestEmitUnderFaults sends 10,000 proposals (2,000 datasets written 5
// times each) while about 20% of the requests fail with 503, 429 with
// Retry-After, or a dropped connection. Every write must land exactly once
// and in order: each dataset ends with 5 versions holding writes 0..4.
func TestEmitUnderFaults(t *testing.T) {
	t.Parallel()
	const datasets, writes = 2000, 5
	tests := []struct {
		name string
		emit func(t *testing.T, r *emitter.REST, ps [][]emitter.Proposal) // ps[w] = write w of every dataset
	}{
		{
			name: "async batches",
			emit: func(t *testing.T, r *emitter.REST, ps [][]emitter.Proposal) {
				a := emitter.NewAsync(r, emitter.WithWorkers(4), emitter.WithBatchSize(25), emitter.WithLinger(2*time.Millisecond))
				for w := range ps {
					for _, p := range ps[w] {
						if err := a.Emit(t.Context(), p); err != nil {
							t.Fatal(err)
						}
					}
				}
				if err := a.Close(t.Context()); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name: "sync batches",
			emit: func(t *testing.T, r *emitter.REST, ps [][]emitter.Proposal) {
				for w := range ps {
					for start := 0; start < len(ps[w]); start += 50 {
						if err := r.Emit(t.Context(), ps[w][start:start+50]...); err != nil {
							t.Fatal(err)
						}
					}
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			r, c := newREST(t, s, datahub.WithRetry(fastRetry))
			ps := make([][]emitter.Proposal, writes)
			for w := range writes {
				for i := range datasets {
					ps[w] = append(ps[w], propertiesProposal(t, i, w))
				}
			}
			stop := chaos(t, s, c)
			start := time.Now()
			tt.emit(t, r, ps)
			took := time.Since(start)
			stop()

			attempts := c.attempts.Load()
			failed := int64(c.status(503)+c.status(429)) + c.errs.Load()
			t.Logf("%d proposals in %v: %d attempts, %d failed (%.1f%%): %d×503, %d×429, %d dropped",
				datasets*writes, took.Round(time.Millisecond), attempts, failed, 100*float64(failed)/float64(attempts),
				c.status(503), c.status(429), c.errs.Load())
			if ratio := float64(failed) / float64(attempts); ratio < 0.1 {
				t.Errorf("only %.1f%% of the attempts failed; the test wants about 20%%", 100*ratio)
			}
			if c.status(503) == 0 || c.status(429) == 0 || c.errs.Load() == 0 {
				t.Errorf("want every kind of fault: statuses %v, %d dropped", c.statuses, c.errs.Load())
			}
			accepted := map[string]int{}
			for _, p := range s.Proposals() {
				if p.Err == "" {
					accepted[p.EntityURN+" "+string(p.Aspect)]++
				}
			}
			if len(accepted) != datasets*writes {
				t.Errorf("the server accepted %d distinct proposals, want %d", len(accepted), datasets*writes)
			}
			for k, n := range accepted {
				if n != 1 {
					t.Errorf("accepted %d times: %s", n, k)
				}
			}
			bad := 0
			for i := range datasets {
				if !checkWrites(t, s, i, writes) {
					if bad++; bad > 5 {
						t.Fatal("too many datasets wrong")
					}
				}
			}
		})
	}
}

// TestCancelStopsRetries cancels Emit while it waits to retry, and while a
// request is in flight: Emit returns the context's error and sends nothing
// more. The waits are long (30 s, up to an hour) and the request in flight
// takes 30 s, so an Emit that ignored the cancel would retry and fail
// otherwise, or succeed; nothing is timed.
func TestCancelStopsRetries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fault mockserver.Fault
		wait  bool // cancel once the emitter waits to retry, else once the mock has the request
	}{
		{name: "during a Retry-After wait", fault: mockserver.Fault{Op: opWrite, Times: mockserver.Forever, Status: 503, RetryAfter: 30 * time.Second}, wait: true},
		{name: "during a backoff wait", fault: mockserver.Fault{Op: opWrite, Times: mockserver.Forever, Status: 500}, wait: true},
		{name: "during a request", fault: mockserver.Fault{Op: opWrite, Times: mockserver.Forever, Delay: 30 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			waiting := make(chan struct{})
			var once sync.Once
			long := datahub.ExponentialBackoff(time.Hour, time.Hour, time.Hour)
			slow := datahub.RetryPolicy{MaxAttempts: 10, Backoff: func(attempt int, resp *http.Response) time.Duration {
				once.Do(func() { close(waiting) })
				return long(attempt, resp)
			}}
			s := mockserver.Start(t, mockserver.WithFault(tt.fault))
			r, _ := newREST(t, s, datahub.WithRetry(slow))
			ctx, cancel := context.WithCancel(t.Context())
			errc := make(chan error, 1)
			go func() { errc <- r.Emit(ctx, propertiesProposal(t, 1, 0)) }()
			if tt.wait {
				<-waiting
			} else {
				for s.RequestCount(opWrite) == 0 {
					time.Sleep(time.Millisecond)
				}
			}
			cancel()
			err := <-errc
			t.Logf("Emit after cancel: %v", err)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
			if n := s.RequestCount(opWrite); n != 1 {
				t.Errorf("%d requests, want 1 (no retry after cancel)", n)
			}
		})
	}
}

// TestRetryAfterHonoured checks that a 429's Retry-After (1 s from the
// mock) sets the wait, up to the cap: the policy's Backoff is handed the
// answer and its wait is recorded, not timed.
func TestRetryAfterHonoured(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cap  time.Duration
		want time.Duration
	}{
		{name: "under the cap", cap: 5 * time.Second, want: time.Second},
		{name: "capped", cap: 50 * time.Millisecond, want: 50 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var waits []time.Duration
			b := datahub.ExponentialBackoff(time.Millisecond, time.Millisecond, tt.cap)
			record := func(attempt int, resp *http.Response) time.Duration {
				d := b(attempt, resp)
				mu.Lock()
				waits = append(waits, d)
				mu.Unlock()
				return min(d, time.Millisecond) // record the wait, do not spend it
			}
			s := mockserver.Start(t, mockserver.WithFault(mockserver.Fail(opWrite, mockserver.FailSpec{Status: 429, Times: 1, RetryAfter: time.Second})))
			r, _ := newREST(t, s, datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 2, Backoff: record}))
			if err := r.Emit(t.Context(), propertiesProposal(t, 1, 0)); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff([]time.Duration{tt.want}, waits); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNoRetryOn4xx(t *testing.T) {
	t.Parallel()
	for _, status := range []int{400, 401, 403, 404, 409, 412, 413, 422} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t, mockserver.WithFault(mockserver.Fail(opWrite, mockserver.FailSpec{Status: status, Times: mockserver.Forever})))
			r, _ := newREST(t, s, datahub.WithRetry(fastRetry))
			err := r.Emit(t.Context(), propertiesProposal(t, 1, 0))
			var de *datahub.Error
			if !errors.As(err, &de) || de.StatusCode != status {
				t.Fatalf("err = %v, want a *datahub.Error with status %d", err, status)
			}
			if n := s.RequestCount(opWrite); n != 1 {
				t.Errorf("%d requests for a %d, want 1", n, status)
			}
		})
	}
}

func TestRetriesExhausted(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithFault(mockserver.Fail(opWrite, mockserver.FailSpec{Status: 503, Times: mockserver.Forever, RetryAfter: 7 * time.Second})))
	r, _ := newREST(t, s, datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 3, Backoff: datahub.ExponentialBackoff(time.Millisecond, time.Millisecond, time.Millisecond)}))
	err := r.Emit(t.Context(), propertiesProposal(t, 1, 0))
	var de *datahub.Error
	if !errors.As(err, &de) || de.StatusCode != 503 || de.Message == "" {
		t.Fatalf("err = %v, want the last 503 as a *datahub.Error", err)
	}
	if got := de.Header.Get("Retry-After"); got != "7" {
		t.Errorf("error's Retry-After header = %q, want 7 (the response header is kept)", got)
	}
	var be *emitter.BatchError
	if !errors.As(err, &be) || be.Results[0].Status != emitter.Failed || errors.Is(err, datahub.ErrOutcomeUnknown) {
		t.Errorf("err = %v, want one Failed result: a 503 was not applied", err)
	}
	if n := s.RequestCount(opWrite); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

// TestConcurrentEmit runs single-proposal Emit calls from many goroutines
// with faults, and checks every proposal landed once.
func TestConcurrentEmit(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, c := newREST(t, s, datahub.WithRetry(fastRetry))
	chaos(t, s, c)
	const n, workers = 1000, 8
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				if err := r.Emit(t.Context(), propertiesProposal(t, i, 0)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d attempts, %d×503, %d×429, %d dropped", c.attempts.Load(), c.status(503), c.status(429), c.errs.Load())
	for i := range n {
		if !checkWrites(t, s, i, 1) {
			break
		}
	}
}

// TestTimeoutPerAttempt checks that WithTimeout bounds one attempt and the
// attempt that timed out is retried.
func TestTimeoutPerAttempt(t *testing.T) {
	t.Parallel()
	// The first attempt is held a minute, the limit is a second: the second
	// attempt has a whole second to answer, even on a loaded machine.
	s := mockserver.Start(t, mockserver.WithFault(mockserver.Fault{Op: opWrite, Times: 1, Delay: time.Minute}))
	r, _ := newREST(t, s, datahub.WithTimeout(time.Second), datahub.WithRetry(fastRetry))
	if err := r.Emit(t.Context(), propertiesProposal(t, 1, 0)); err != nil {
		t.Fatal(err)
	}
	// Had the first attempt not been cut, it would have succeeded after a
	// minute, alone.
	if n := s.RequestCount(opWrite); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	checkWrites(t, s, 1, 1)
}

// TestTLS serves the mock over TLS: the emitter reaches it with the TLS
// settings of WithHTTPClient, and without them fails at once (a certificate
// error is not retried).
func TestTLS(t *testing.T) {
	t.Parallel()
	s := mockserver.New()
	t.Cleanup(func() { s.Close() })
	srv := httptest.NewTLSServer(s)
	t.Cleanup(srv.Close)

	r, err := emitter.NewREST(srv.URL+"/api/gms", datahub.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Emit(t.Context(), propertiesProposal(t, 1, 0)); err != nil {
		t.Fatal(err)
	}
	checkWrites(t, s, 1, 1)

	// Without the server's CA: one attempt, no retry.
	c := &counter{next: http.DefaultTransport.(*http.Transport).Clone()}
	t.Cleanup(c.next.CloseIdleConnections)
	untrusted, err := emitter.NewREST(srv.URL,
		datahub.WithHTTPClient(&http.Client{Transport: c}),
		datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 5, Backoff: datahub.ExponentialBackoff(time.Millisecond, time.Millisecond, 0)}))
	if err != nil {
		t.Fatal(err)
	}
	err = untrusted.Emit(t.Context(), propertiesProposal(t, 2, 0))
	var ue x509.UnknownAuthorityError
	if !errors.As(err, &ue) {
		t.Errorf("err = %v, want an x509.UnknownAuthorityError", err)
	}
	if n := c.attempts.Load(); n != 1 {
		t.Errorf("a certificate error was sent %d times, want 1 (never retried)", n)
	}
	var be *emitter.BatchError
	if !errors.As(err, &be) || be.Results[0].Status != emitter.Failed || errors.Is(err, datahub.ErrOutcomeUnknown) {
		t.Errorf("err = %v, want Failed: a request refused at the TLS handshake was not sent", err)
	}
}

// TestLoggerHidesToken runs retries with a logger and a token: the log
// tells what happened and never shows the token.
func TestLoggerHidesToken(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithToken("tok-SECRET"), mockserver.WithFault(mockserver.Fail(opWrite, mockserver.FailSpec{Status: 503, Times: 2})))
	var buf safeBuffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	r, _ := newREST(t, s, datahub.WithToken("tok-SECRET"), datahub.WithLogger(log), datahub.WithRetry(fastRetry))
	if err := r.Emit(t.Context(), propertiesProposal(t, 1, 0)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "SECRET") {
		t.Errorf("the log shows the token:\n%s", out)
	}
	if strings.Count(out, "retrying request") != 2 {
		t.Errorf("want 2 retries logged:\n%s", out)
	}
}

type safeBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
