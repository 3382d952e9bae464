package transport

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/internal/config"
)

// policy is a resolved retry policy: no nil functions, at least one
// attempt.
type policy struct {
	attempts int
	check    datahub.CheckRetry
	backoff  datahub.Backoff
}

// resolve fills the defaults of a configured retry policy.
func resolve(r config.Retry) policy {
	p := policy{attempts: r.MaxAttempts, check: r.CheckRetry, backoff: r.Backoff}
	if !r.Set || p.attempts == 0 {
		p.attempts = datahub.DefaultMaxAttempts
	}
	p.attempts = max(p.attempts, 1)
	if p.check == nil {
		p.check = datahub.DefaultCheckRetry
	}
	if p.backoff == nil {
		p.backoff = datahub.DefaultBackoff
	}
	return p
}

// callState is what the retry loop learns about one call, and what it
// needs for each attempt; it travels in the requests' context so that
// checkRetry, which the loop calls on the caller's goroutine with that
// context, can see and update it.
type callState struct {
	// ctx is the caller's context, which the state extends (see Value).
	ctx context.Context
	// noReplay and failFast are the call's Request.NoReplay and
	// Request.FailFast.
	noReplay, failFast bool
	// write reports a method that may change something on the server
	// (POST, PUT, DELETE, PATCH); only such a request can have an unknown
	// outcome.
	write bool
	// sent is set, through an httptrace hook, once the current attempt
	// has written its request headers; checkRetry reads and clears it.
	sent atomic.Bool
	// maybeApplied is set once an attempt may have reached the server and
	// been applied without a definite answer.
	maybeApplied bool
	// stoppedUnsafe is set when a retry was refused because the request
	// is not safe to replay.
	stoppedUnsafe bool
	// bodyDone, when set, is the Done of a write's body in one slice,
	// called when bodyHolds falls to zero (see holdBody).
	bodyDone  func()
	bodyHolds atomic.Int64
	// trace is the call's httptrace hooks (WroteHeaders sets sent), kept
	// here to save an allocation a call; a write's only (see withTrace).
	trace httptrace.ClientTrace
	// limit reads the answer's body (see limited).
	limit io.LimitedReader
	// tctx is the context of the call's requests: the state (see
	// withTrace).
	tctx context.Context
	// br reads the first attempt's body, when it is one slice.
	br bytes.Reader
	// resp is the Response of a call that discards the answer's body.
	resp Response
	// watch is the watchdog's record of the current attempt, which wd,
	// when not nil, watches (see Client.startAttempt).
	watch watch
	wd    *watchdog
	// actx is the first watched attempt's context.
	actx attemptCtx
}

// wroteHeaders is the trace's WroteHeaders: the current attempt has
// written its request headers.
func (st *callState) wroteHeaders() { st.sent.Store(true) }

type stateKey struct{}

// noReplayKey marks a context whose requests through StandardClient must
// not be replayed; see NoReplayContext.
type noReplayKey struct{}

// NoReplayContext returns ctx marked so that a request sent with it
// through [Client.StandardClient] (a GraphQL mutation, say) is treated as
// Request.NoReplay: replayed only after an attempt that provably did not
// apply it.
func NoReplayContext(ctx context.Context) context.Context {
	return context.WithValue(ctx, noReplayKey{}, true)
}

func stateOf(ctx context.Context) *callState {
	st, _ := ctx.Value(stateKey{}).(*callState)
	return st
}

// checkRetry wraps the policy's decision with the rules no policy can
// lift: a request that is not safe to send twice is replayed only after
// an attempt that provably did not apply it (DialError, 429, 503), and a
// FailFast request is not retried when the server cannot be reached.
func (c *Client) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	st := stateOf(ctx)
	sent := false
	if st != nil {
		sent = st.sent.Swap(false)
		if st.write && ambiguous(resp, err, sent) {
			st.maybeApplied = true
		}
	}
	retry, cerr := c.policy.check(ctx, resp, err)
	if !retry || cerr != nil {
		return retry, cerr
	}
	if st == nil { // through StandardClient
		// No trace here: a failure after connecting counts as sent.
		if ctx.Value(noReplayKey{}) != nil && ambiguous(resp, err, true) {
			return false, nil
		}
		return true, nil
	}
	if st.failFast && err != nil && DialError(err) {
		return false, nil
	}
	if st.noReplay && st.write && ambiguous(resp, err, sent) {
		st.stoppedUnsafe = true
		return false, nil
	}
	return true, nil
}

// ambiguous reports whether an attempt of a write that ended with resp or
// err may have been applied without the caller learning so: no answer
// after its request headers were sent (sent), or a 5xx other than 501 (not
// implemented) and 503 (not available, so not applied). A request that was
// never sent (a context done before sending, a header net/http refused, a
// connection that could not be made) was not applied.
func ambiguous(resp *http.Response, err error, sent bool) bool {
	if err != nil {
		return sent && !DialError(err)
	}
	return resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented && resp.StatusCode != http.StatusServiceUnavailable
}

// DialError reports whether err is a failure to connect (refused, no
// route, a name that does not resolve, the context done while dialling, a
// server certificate that is not trusted): the request was not sent, so it
// was not applied.
func DialError(err error) bool {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return true
	}
	var (
		de  *net.DNSError
		cve *tls.CertificateVerificationError
		uae x509.UnknownAuthorityError
		he  x509.HostnameError
		cie x509.CertificateInvalidError
	)
	return errors.As(err, &de) || errors.As(err, &cve) || errors.As(err, &uae) || errors.As(err, &he) || errors.As(err, &cie)
}

// wait returns how long to wait after attempt i (from 0), which ended
// with resp (nil for none), before the next: the policy's Backoff, logged
// to log at level Info.
func (p policy) wait(log *slog.Logger, i int, resp *http.Response) time.Duration {
	d := max(p.backoff(i+1, resp), 0)
	if log != nil {
		attrs := []slog.Attr{slog.Int("attempt", i+1), slog.Duration("wait", d)}
		ctx := context.Background()
		if resp != nil {
			attrs = append(attrs, slog.Int("status", resp.StatusCode))
			ctx = resp.Request.Context()
		}
		log.LogAttrs(ctx, slog.LevelInfo, "datahub: retrying request", attrs...)
	}
	return d
}

// retryableBackoff adapts wait to go-retryablehttp, for StandardClient.
func (p policy) retryableBackoff(log *slog.Logger) retryablehttp.Backoff {
	return func(_, _ time.Duration, attempt int, resp *http.Response) time.Duration {
		return p.wait(log, attempt, resp)
	}
}

// unknownError is the error of a call whose last attempt may have been
// applied: it matches datahub.ErrOutcomeUnknown and the cause, and
// datahub.ErrStopped too when the caller's context ended first.
type unknownError struct {
	err         error
	notReplayed bool
	stopped     bool
}

func (e *unknownError) Error() string {
	switch {
	case e.stopped:
		return e.err.Error() + " (stopped by its caller: the request may have been applied)"
	case e.notReplayed:
		return e.err.Error() + " (outcome unknown: the request may have been applied and is not safe to send again)"
	}
	return e.err.Error() + " (outcome unknown: the request may have been applied)"
}

func (e *unknownError) Unwrap() []error {
	if e.stopped {
		return []error{datahub.ErrStopped, datahub.ErrOutcomeUnknown, e.err}
	}
	return []error{datahub.ErrOutcomeUnknown, e.err}
}
