package datahub

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Defaults of [DefaultRetryPolicy], those of DataHub's Python REST emitter.
const (
	// DefaultMaxAttempts is the number of attempts of a request, the first
	// included (4 retries).
	DefaultMaxAttempts = 5
	// DefaultMinWait is the wait before the first retry (before jitter).
	DefaultMinWait = 2 * time.Second
	// DefaultMaxWait caps the exponential wait.
	DefaultMaxWait = 30 * time.Second
	// DefaultRetryAfterCap caps the wait a server asks for with
	// Retry-After.
	DefaultRetryAfterCap = time.Minute
)

// CheckRetry decides whether a failed attempt is retried, in
// go-retryablehttp's form: resp is the answer (nil when the attempt got
// none) and err the transport error. Returning a non-nil error stops the
// retries with that error. It is called for every attempt, successful or
// not, and must not read or close resp.Body.
type CheckRetry func(ctx context.Context, resp *http.Response, err error) (bool, error)

// Backoff returns how long to wait before the next attempt, after attempt
// attempts (1 after the first) of which the last was answered resp (nil
// when it got no answer). Waits end early when the context is done.
type Backoff func(attempt int, resp *http.Response) time.Duration

// RetryPolicy says which failed attempts of a request are retried and how
// long to wait in between, as go-retryablehttp's CheckRetry and Backoff
// do. Zero fields take the defaults: MaxAttempts 0 is DefaultMaxAttempts,
// a nil CheckRetry is [DefaultCheckRetry], a nil Backoff [DefaultBackoff];
// so a policy with attempts but no backoff still waits.
//
// Whatever the policy says, a request that is not safe to send twice (a
// conditional write, a CREATE) is replayed only when it provably did not
// reach the server (the connection was refused) or the server said it did
// not apply it (429, 503); after any other failure its outcome is reported
// as unknown ([ErrOutcomeUnknown]).
type RetryPolicy struct {
	// MaxAttempts is the number of attempts including the first: 0 means
	// DefaultMaxAttempts, 1 disables retries; a negative value is refused
	// by the constructor (see [WithRetry]).
	MaxAttempts int
	// CheckRetry decides whether to retry; nil means DefaultCheckRetry.
	CheckRetry CheckRetry
	// Backoff decides how long to wait; nil means DefaultBackoff.
	Backoff Backoff
}

// DefaultRetryPolicy returns the policy of DataHub's Python REST emitter:
// 5 attempts, retrying what [DefaultCheckRetry] retries after the waits of
// [DefaultBackoff] (about 2, 4, 8 and 16 s). Unlike the Python emitter, a
// 429 costs a whole attempt.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxAttempts: DefaultMaxAttempts, CheckRetry: DefaultCheckRetry, Backoff: DefaultBackoff}
}

// RetryableStatus reports whether an answer with this status is retried
// by DefaultCheckRetry: 429, 500, 502, 503 and 504, as DataHub's Python
// emitter (urllib3's status_forcelist).
func RetryableStatus(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// DefaultCheckRetry retries a [RetryableStatus] and network errors
// (refused or dropped connections, resets, an attempt's timeout) for every
// method, POST included, as DataHub's Python emitter does. It never
// retries another status, nor errors that cannot heal (bad scheme, bad
// header, untrusted certificate, too many redirects). Once ctx is done it
// stops with ctx's error; an answer that needs no retry is returned as is
// even then.
func DefaultCheckRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if err == nil && !RetryableStatus(resp.StatusCode) {
		return false, nil
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		// The transport-error half of go-retryablehttp's policy: it
		// refuses only the errors that cannot heal.
		return retryablehttp.DefaultRetryPolicy(ctx, nil, err)
	}
	return true, nil
}

// DefaultBackoff is ExponentialBackoff(DefaultMinWait, DefaultMaxWait,
// DefaultRetryAfterCap): waits of about 2, 4, 8, 16 s capped at 30 s, a
// Retry-After honoured up to a minute.
func DefaultBackoff(attempt int, resp *http.Response) time.Duration {
	return defaultBackoff(attempt, resp)
}

var defaultBackoff = ExponentialBackoff(DefaultMinWait, DefaultMaxWait, DefaultRetryAfterCap)

// ExponentialBackoff returns a Backoff that waits min before the first
// retry and doubles the wait per attempt up to max, each wait drawn at
// random from [w/2, w] (jitter). A Retry-After header (delay seconds or
// an HTTP date) on a 429 or 503 sets the wait instead, up to
// retryAfterCap (0 means max). A min of 0 or less never waits.
func ExponentialBackoff(min, max, retryAfterCap time.Duration) Backoff {
	if retryAfterCap <= 0 {
		retryAfterCap = max
	}
	return func(attempt int, resp *http.Response) time.Duration {
		if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
			if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
				if d > retryAfterCap {
					d = retryAfterCap
				}
				if d < 0 {
					d = 0
				}
				return d
			}
		}
		d := min
		if d <= 0 {
			return 0
		}
		for i := 1; i < attempt && (max <= 0 || d < max); i++ {
			d *= 2
		}
		if max > 0 && d > max {
			d = max
		}
		half := d / 2
		return half + rand.N(d-half+1)
	}
}

// parseRetryAfter reads a Retry-After header value, delay seconds or an
// HTTP date (compared with now), as a wait; ok is false for a value that
// is neither. Delays are capped at a day.
func parseRetryAfter(v string, now time.Time) (wait time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	const day = int64(24 * time.Hour / time.Second)
	// A delay too large for an int64 is a range error with n at the
	// limit: it is huge, not garbage, so it is capped like any long delay.
	if n, err := strconv.ParseInt(v, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if n < 0 {
			return 0, false
		}
		return time.Duration(min(n, day)) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}
