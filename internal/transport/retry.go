package transport

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// RetryPolicy says how many times a request is attempted and how long to
// wait in between. Waits grow exponentially from MinWait, doubling per
// attempt up to MaxWait, with jitter (each wait is drawn from [d/2, d]). A
// Retry-After header on a 429 or 503 replaces the computed wait, up to
// RetryAfterCap.
type RetryPolicy struct {
	// MaxAttempts is the number of attempts including the first; below 1
	// means 1.
	MaxAttempts int
	// MinWait is the wait before the first retry (before jitter).
	MinWait time.Duration
	// MaxWait caps the exponential wait.
	MaxWait time.Duration
	// RetryAfterCap caps a server's Retry-After; zero means MaxWait.
	RetryAfterCap time.Duration
}

// DefaultRetry returns the policy of DataHub's Python REST emitter: 4
// retries (5 attempts) with backoff factor 2, that is waits of about 2, 4,
// 8 and 16 seconds, capped at 30 s, and Retry-After honoured up to 60 s.
func DefaultRetry() RetryPolicy {
	return RetryPolicy{MaxAttempts: 5, MinWait: 2 * time.Second, MaxWait: 30 * time.Second, RetryAfterCap: time.Minute}
}

// RetryableStatus reports whether an answer with this status is retried:
// 429, 500, 502, 503 and 504, as DataHub's Python emitter does.
func RetryableStatus(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// CheckRetry is the retry decision of every Client, in go-retryablehttp's
// form. It retries a RetryableStatus and network errors (refused or dropped
// connections, resets, timeouts of one attempt) for every method, POST
// included: DataHub's writes are upserts of whole aspects, so replaying one
// is safe. It never retries another status, nor errors that cannot heal
// (bad scheme, bad header, untrusted certificate, too many redirects). Once
// ctx is done it stops and returns ctx's error; an answer that needs no
// retry is returned as is even then.
var CheckRetry retryablehttp.CheckRetry = checkRetry

func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if err == nil && !RetryableStatus(resp.StatusCode) {
		return false, nil
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		// The transport-error half of retryablehttp's policy: it refuses
		// only the errors that cannot heal.
		return retryablehttp.DefaultRetryPolicy(ctx, nil, err)
	}
	return true, nil
}

// Wait returns how long to wait before retry number attempt+1 (attempt
// counts from 0) after resp, which is nil when the attempt got no answer.
func (p RetryPolicy) Wait(attempt int, resp *http.Response) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			limit := p.RetryAfterCap
			if limit <= 0 {
				limit = p.MaxWait
			}
			return min(d, max(limit, 0))
		}
	}
	d := p.MinWait
	if d <= 0 {
		return 0
	}
	for i := 0; i < attempt && d < p.MaxWait; i++ {
		d *= 2
	}
	if p.MaxWait > 0 && d > p.MaxWait {
		d = p.MaxWait
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// backoff adapts Wait to go-retryablehttp, logging each retry to log.
func (p RetryPolicy) backoff(log *slog.Logger) retryablehttp.Backoff {
	return func(_, _ time.Duration, attempt int, resp *http.Response) time.Duration {
		d := p.Wait(attempt, resp)
		if log != nil {
			attrs := []slog.Attr{slog.Int("attempt", attempt+1), slog.Duration("wait", d)}
			ctx := context.Background()
			if resp != nil {
				attrs = append(attrs, slog.Int("status", resp.StatusCode))
				ctx = resp.Request.Context()
			}
			log.LogAttrs(ctx, slog.LevelInfo, "datahub: retrying request", attrs...)
		}
		return d
	}
}

// parseRetryAfter reads a Retry-After value: delay seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	// A delay too large for an int64 is a range error with n at the
	// limit: it is huge, not garbage, so it is capped like any long delay.
	if n, err := strconv.ParseInt(v, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if n < 0 {
			return 0, false
		}
		if n > int64(24*time.Hour/time.Second) {
			n = int64(24 * time.Hour / time.Second)
		}
		return time.Duration(n) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}
