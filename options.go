package datahub

import (
	"log/slog"
	"maps"
	"net/http"
	"time"

	"github.com/catalogkit/datahub-go/internal/config"
)

// DefaultTimeout bounds each attempt of a request (connect, send, read the
// answer) unless [WithTimeout] says otherwise: 30 s, as DataHub's Python
// emitter.
const DefaultTimeout = 30 * time.Second

// Option configures how an SDK package talks to DataHub. The options of
// this package (token, headers, HTTP client, timeout, retry policy,
// logger) are accepted alike by emitter.NewREST and client.New; options
// that only one package reads (emitter.WithServerAsync, say) are values of
// this same type, so one list mixes both, and a package refuses, with an
// error wrapping [ErrValidation], an option meant for another. When an
// option is given twice the last one wins. A nil Option is ignored.
//
// Option values are made only by this module's With functions; the
// settings they write are internal.
type Option func(*config.Settings)

// WithToken sends "Authorization: Bearer <token>" with every request; ""
// (the default) sends none. The token never appears in errors or logs.
func WithToken(token string) Option {
	return func(s *config.Settings) { s.Token = token }
}

// WithHeaders sets extra headers on every request. They are set after the
// standard ones (X-RestLi-Protocol-Version, Content-Type, Accept,
// Authorization, User-Agent), so they override them. The map is copied.
func WithHeaders(h map[string]string) Option {
	h = maps.Clone(h)
	return func(s *config.Settings) { s.Headers = h }
}

// WithHTTPClient sends requests with hc: TLS settings (a private CA,
// client certificates), proxies and custom transports come through it. hc
// is not modified: [WithTimeout] applies to a copy. Nil (the default) is a
// pooled client of the SDK's own.
func WithHTTPClient(hc *http.Client) Option {
	return func(s *config.Settings) { s.HTTPClient = hc }
}

// WithTimeout bounds each attempt of a request (connect, send, read the
// answer); the context bounds the whole call, retries included. The
// default is [DefaultTimeout]; 0 keeps the HTTP client's own timeout.
func WithTimeout(d time.Duration) Option {
	return func(s *config.Settings) { s.Timeout = max(d, 0) }
}

// WithRetry sets which failed attempts are retried and how long to wait in
// between; the default is [DefaultRetryPolicy]. Fields left zero take
// their defaults, so RetryPolicy{MaxAttempts: 10} waits as the default
// does; RetryPolicy{MaxAttempts: 1} disables retries.
func WithRetry(p RetryPolicy) Option {
	return func(s *config.Settings) {
		s.Retry = config.Retry{Set: true, MaxAttempts: p.MaxAttempts, CheckRetry: p.CheckRetry, Backoff: p.Backoff}
	}
}

// WithLogger logs attempts (debug) and retries (info) to l: methods,
// redacted URLs, statuses and waits, never headers, tokens or bodies.
// Packages may log more of their own (the emitter logs batches it splits).
// Nil (the default) is silent.
func WithLogger(l *slog.Logger) Option {
	return func(s *config.Settings) { s.Logger = l }
}
