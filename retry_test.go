package datahub_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
)

func TestDefaultCheckRetry(t *testing.T) {
	t.Parallel()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name      string
		ctx       context.Context
		status    int
		err       error
		want      bool
		wantCtxEr bool
	}{
		{name: "200", ctx: context.Background(), status: 200},
		{name: "429", ctx: context.Background(), status: 429, want: true},
		{name: "500", ctx: context.Background(), status: 500, want: true},
		{name: "502", ctx: context.Background(), status: 502, want: true},
		{name: "503", ctx: context.Background(), status: 503, want: true},
		{name: "504", ctx: context.Background(), status: 504, want: true},
		{name: "501", ctx: context.Background(), status: 501},
		{name: "505", ctx: context.Background(), status: 505},
		{name: "400", ctx: context.Background(), status: 400},
		{name: "401", ctx: context.Background(), status: 401},
		{name: "403", ctx: context.Background(), status: 403},
		{name: "404", ctx: context.Background(), status: 404},
		{name: "408", ctx: context.Background(), status: 408},
		{name: "412", ctx: context.Background(), status: 412},
		{name: "413", ctx: context.Background(), status: 413},
		{name: "422", ctx: context.Background(), status: 422},
		{name: "connection reset", ctx: context.Background(), err: &net.OpError{Op: "read", Err: errors.New("connection reset by peer")}, want: true},
		{name: "EOF", ctx: context.Background(), err: io.EOF, want: true},
		{name: "503 after cancel", ctx: done, status: 503, wantCtxEr: true},
		{name: "network error after cancel", ctx: done, err: io.EOF, wantCtxEr: true},
		{name: "200 after cancel", ctx: done, status: 200},
		{name: "400 after cancel", ctx: done, status: 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var resp *http.Response
			if tt.err == nil {
				resp = &http.Response{StatusCode: tt.status}
			}
			got, err := datahub.DefaultCheckRetry(tt.ctx, resp, tt.err)
			if got != tt.want {
				t.Errorf("retry = %v, want %v", got, tt.want)
			}
			if tt.wantCtxEr != (err != nil && errors.Is(err, context.Canceled)) {
				t.Errorf("err = %v, want context error: %v", err, tt.wantCtxEr)
			}
		})
	}
}

func TestExponentialBackoff(t *testing.T) {
	t.Parallel()
	b := datahub.ExponentialBackoff(100*time.Millisecond, time.Second, 3*time.Second)
	retryAfter := func(status int, v string) *http.Response {
		return &http.Response{StatusCode: status, Header: http.Header{"Retry-After": {v}}}
	}
	tests := []struct {
		name     string
		attempt  int
		resp     *http.Response
		min, max time.Duration
	}{
		{name: "first retry", attempt: 1, min: 50 * time.Millisecond, max: 100 * time.Millisecond},
		{name: "second retry", attempt: 2, min: 100 * time.Millisecond, max: 200 * time.Millisecond},
		{name: "fourth retry", attempt: 4, min: 400 * time.Millisecond, max: 800 * time.Millisecond},
		{name: "capped", attempt: 30, min: 500 * time.Millisecond, max: time.Second},
		{name: "huge attempt", attempt: 1 << 30, min: 500 * time.Millisecond, max: time.Second},
		{name: "503 without Retry-After", attempt: 1, resp: &http.Response{StatusCode: 503, Header: http.Header{}}, min: 50 * time.Millisecond, max: 100 * time.Millisecond},
		{name: "429 Retry-After 2", attempt: 1, resp: retryAfter(429, "2"), min: 2 * time.Second, max: 2 * time.Second},
		{name: "503 Retry-After 0", attempt: 4, resp: retryAfter(503, "0"), min: 0, max: 0},
		{name: "429 Retry-After over the cap", attempt: 1, resp: retryAfter(429, "3600"), min: 3 * time.Second, max: 3 * time.Second},
		{name: "429 Retry-After date", attempt: 1, resp: retryAfter(429, time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)), min: 3 * time.Second, max: 3 * time.Second},
		{name: "429 Retry-After beyond int64", attempt: 1, resp: retryAfter(429, "99999999999999999999"), min: 3 * time.Second, max: 3 * time.Second},
		{name: "429 Retry-After negative", attempt: 1, resp: retryAfter(429, "-5"), min: 50 * time.Millisecond, max: 100 * time.Millisecond},
		{name: "429 Retry-After garbage", attempt: 1, resp: retryAfter(429, "soon"), min: 50 * time.Millisecond, max: 100 * time.Millisecond},
		{name: "500 Retry-After ignored", attempt: 1, resp: retryAfter(500, "2"), min: 50 * time.Millisecond, max: 100 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for range 50 {
				if got := b(tt.attempt, tt.resp); got < tt.min || got > tt.max {
					t.Fatalf("backoff(%d) = %v, want in [%v, %v]", tt.attempt, got, tt.min, tt.max)
				}
			}
		})
	}
	if got := datahub.ExponentialBackoff(0, 0, 0)(3, nil); got != 0 {
		t.Errorf("zero backoff waits %v", got)
	}
	if got := datahub.ExponentialBackoff(time.Millisecond, time.Second, 0)(1, retryAfter(429, "10")); got != time.Second {
		t.Errorf("retryAfterCap 0 should cap at max, got %v", got)
	}
}

func TestDefaultRetryPolicy(t *testing.T) {
	t.Parallel()
	p := datahub.DefaultRetryPolicy()
	if p.MaxAttempts != 5 {
		t.Errorf("MaxAttempts = %d, want 5 (4 retries as DataHub's Python emitter)", p.MaxAttempts)
	}
	if p.CheckRetry == nil || p.Backoff == nil {
		t.Error("default policy has nil functions")
	}
	// Waits of about 2, 4, 8, 16 s.
	for attempt, want := range []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second} {
		if got := p.Backoff(attempt+1, nil); got < want/2 || got > want {
			t.Errorf("wait after attempt %d = %v, want in [%v, %v]", attempt+1, got, want/2, want)
		}
	}
}

func ExampleExponentialBackoff() {
	b := datahub.ExponentialBackoff(time.Second, 10*time.Second, 30*time.Second)
	resp := &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"120"}}}
	fmt.Println(b(1, resp))
	// Output: 30s
}

func ExampleRetryPolicy() {
	// Retry 409 too, on top of the default rule, with the default waits.
	policy := datahub.RetryPolicy{
		MaxAttempts: 8,
		CheckRetry: func(ctx context.Context, resp *http.Response, err error) (bool, error) {
			if err == nil && resp.StatusCode == http.StatusConflict {
				return true, nil
			}
			return datahub.DefaultCheckRetry(ctx, resp, err)
		},
	}
	_ = datahub.WithRetry(policy)
	fmt.Println(policy.Backoff == nil) // nil means DefaultBackoff
	// Output: true
}
