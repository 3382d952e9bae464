package client

import (
	"log/slog"
	"maps"
	"net/http"
	"time"
)

// Defaults of a Client.
const (
	// DefaultTimeout bounds each attempt of a request, as the emitter's.
	DefaultTimeout = 30 * time.Second
	// DefaultActor is the actor of the audit stamps the helpers write
	// (link create stamps, lastModified of ownership and glossary terms)
	// unless WithActor says otherwise; DataHub's own default actor.
	DefaultActor = "urn:li:corpuser:datahub"
	// DefaultConflictAttempts is how many times Modify reads, applies its
	// function and writes before it gives up with a *ConflictError.
	DefaultConflictAttempts = 50
	// DefaultConflictMinWait and DefaultConflictMaxWait bound the jittered
	// exponential wait between two attempts of Modify after a conflict.
	DefaultConflictMinWait = 5 * time.Millisecond
	// DefaultConflictMaxWait caps the wait between two attempts of Modify.
	DefaultConflictMaxWait = time.Second
)

// Option configures a Client. When an option is given twice the last one
// wins.
type Option func(*config)

// config is what New needs; it maps onto internal/transport's Config.
type config struct {
	token      string
	headers    map[string]string
	httpClient *http.Client
	timeout    time.Duration
	logger     *slog.Logger
	actor      string
	conflict   ConflictPolicy
}

func defaultConfig() config {
	return config{
		timeout:  DefaultTimeout,
		actor:    DefaultActor,
		conflict: DefaultConflictPolicy(),
	}
}

// ConflictPolicy says how often Modify (and every helper built on it)
// retries after a conflicting concurrent write, and how long it waits in
// between: exponentially from MinWait, doubling up to MaxWait, each wait
// drawn at random from [0, w] ("full jitter", which spreads many
// contending writers out best).
type ConflictPolicy struct {
	// MaxAttempts is the number of read-apply-write rounds, the first
	// included; below 1 means 1.
	MaxAttempts int
	// MinWait is the wait bound before the second round.
	MinWait time.Duration
	// MaxWait caps the wait bound.
	MaxWait time.Duration
}

// DefaultConflictPolicy returns DefaultConflictAttempts rounds with waits
// from DefaultConflictMinWait up to DefaultConflictMaxWait.
func DefaultConflictPolicy() ConflictPolicy {
	return ConflictPolicy{MaxAttempts: DefaultConflictAttempts, MinWait: DefaultConflictMinWait, MaxWait: DefaultConflictMaxWait}
}

// WithToken sends "Authorization: Bearer <token>" with every request; ""
// sends none. The token never appears in errors or logs.
func WithToken(token string) Option {
	return func(c *config) { c.token = token }
}

// WithHeaders sets extra headers on every request, after the standard ones.
func WithHeaders(h map[string]string) Option {
	return func(c *config) { c.headers = maps.Clone(h) }
}

// WithHTTPClient sends requests with hc (TLS, proxies, transports). Nil
// restores the default pooled client.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *config) { c.httpClient = hc }
}

// WithTimeout bounds each attempt of a request; the context bounds the
// whole call. The default is DefaultTimeout; 0 keeps the HTTP client's own.
func WithTimeout(d time.Duration) Option {
	return func(c *config) { c.timeout = d }
}

// WithLogger logs requests (debug) and retries (info) to l: methods,
// redacted URLs, statuses; never headers, tokens or bodies. Nil is silent.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// WithActor sets the actor URN of the audit stamps the helpers write, such
// as "urn:li:corpuser:jdoe"; "" restores DefaultActor.
func WithActor(actor string) Option {
	return func(c *config) {
		if actor == "" {
			actor = DefaultActor
		}
		c.actor = actor
	}
}

// WithConflictPolicy sets how Modify retries after conflicts; the default
// is DefaultConflictPolicy().
func WithConflictPolicy(p ConflictPolicy) Option {
	return func(c *config) { c.conflict = p }
}
