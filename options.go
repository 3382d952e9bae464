package datahub

import (
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/catalogkit/datahub-go/internal/config"
)

// DefaultTimeout bounds each attempt of a request (connect, send, read the
// answer) unless [WithTimeout] says otherwise: 30 s, as DataHub's Python
// emitter.
const DefaultTimeout = 30 * time.Second

// Option is a shared option: how the SDK connects to DataHub (token,
// headers, HTTP client, timeout, retry policy, logger, endpoint). Every
// constructor that talks to DataHub takes it: client.New takes
// client.Option values and emitter.NewREST emitter.Option values, and an
// Option is both. Each of those packages has options of its own
// (client.WithActor, emitter.WithEmitMode, ...) that only its own
// constructor takes: giving one to the other package's constructor does
// not compile. The constructor refuses, with an error wrapping
// [ErrValidation], a value an option cannot take (a negative timeout, a
// header value with a line break). When an option is given twice the last
// one wins. The zero Option does nothing.
//
// emitter.NewAsync wraps a *emitter.REST built with these options and is
// configured by emitter.AsyncOption values of its own (queue size,
// workers, ...). The file emitter (emitter.NewFile) takes none, and the
// Kafka emitter (module emitter/kafka) has options of its own; its Bridge
// passes these to the REST emitter it writes with.
type Option struct{ shared }

// shared is unexported so that the settings an Option writes stay
// internal.
type shared = config.Shared

// WithToken sends "Authorization: Bearer <token>" with every request; ""
// (the default) sends none. The token never appears in errors or logs. A
// token with a character an HTTP header value cannot hold (a control
// character such as a line break) is refused by the constructor with an
// error wrapping [ErrValidation] that names the header, not the token.
func WithToken(token string) Option {
	return Option{func(s *config.Settings) {
		if !validHeaderValue(token) {
			s.Invalid("WithToken: the token has a character an HTTP header value (Authorization) cannot hold")
		}
		s.Token = token
	}}
}

// WithHeaders sets extra headers on every request. They are set after the
// standard ones (X-RestLi-Protocol-Version, Content-Type, Accept,
// Authorization, User-Agent), so they override them. The map is copied. A
// name that is not an HTTP token (RFC 9110: letters, digits and
// !#$%&'*+-.^_`|~) or a value with a control character (a line break, say)
// is refused by the constructor with an error wrapping [ErrValidation]
// that names the header, not its value.
func WithHeaders(h map[string]string) Option {
	h = maps.Clone(h)
	return Option{func(s *config.Settings) {
		for _, k := range slices.Sorted(maps.Keys(h)) {
			switch {
			case !validHeaderName(k):
				s.Invalid(fmt.Sprintf("WithHeaders: %q is not a valid HTTP header name", k))
			case !validHeaderValue(h[k]):
				s.Invalid(fmt.Sprintf("WithHeaders: the value of header %s has a character an HTTP header value cannot hold", k))
			}
		}
		s.Headers = h
	}}
}

// validHeaderName reports whether name is an RFC 9110 token.
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// validHeaderValue reports whether v holds only field-value characters
// (RFC 9110): no control character other than horizontal tab, no DEL.
func validHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// WithHTTPClient sends requests with hc: TLS settings (a private CA,
// client certificates), proxies and custom transports come through it. hc
// is not modified: [WithTimeout] applies to a copy. Nil (the default, so
// WithHTTPClient(nil) is the same as not giving the option) is a pooled
// client of the SDK's own.
func WithHTTPClient(hc *http.Client) Option {
	return Option{func(s *config.Settings) { s.HTTPClient = hc }}
}

// WithTimeout bounds each attempt of a request (connect, send, read the
// answer); the context bounds the whole call, retries included. The
// default is [DefaultTimeout]; 0 keeps the HTTP client's own timeout. A
// negative d is refused by the constructor with an error wrapping
// [ErrValidation].
func WithTimeout(d time.Duration) Option {
	return Option{func(s *config.Settings) {
		if d < 0 {
			s.Invalid(fmt.Sprintf("WithTimeout(%v): the timeout is negative", d))
		}
		s.Timeout = max(d, 0)
	}}
}

// WithRetry sets which failed attempts are retried and how long to wait in
// between; the default is [DefaultRetryPolicy]. Fields left zero take
// their defaults, so RetryPolicy{MaxAttempts: 10} waits as the default
// does; RetryPolicy{MaxAttempts: 1} disables retries. A negative
// MaxAttempts is refused by the constructor with an error wrapping
// [ErrValidation].
func WithRetry(p RetryPolicy) Option {
	return Option{func(s *config.Settings) {
		if p.MaxAttempts < 0 {
			s.Invalid(fmt.Sprintf("WithRetry: MaxAttempts %d is negative", p.MaxAttempts))
		}
		s.Retry = config.Retry{Set: true, MaxAttempts: p.MaxAttempts, CheckRetry: p.CheckRetry, Backoff: p.Backoff}
	}}
}

// WithLogger logs attempts (debug) and retries (info) to l: methods,
// redacted URLs, statuses and waits, never headers, tokens or bodies.
// Packages may log more of their own (the emitter logs batches it splits).
// Nil (the default) is silent.
func WithLogger(l *slog.Logger) Option {
	return Option{func(s *config.Settings) { s.Logger = l }}
}
