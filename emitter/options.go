package emitter

import (
	"log/slog"
	"maps"
	"net/http"
	"time"

	"github.com/catalogkit/datahub-go/internal/transport"
)

// Defaults of a REST emitter, as DataHub's Python emitter has them.
const (
	// DefaultTimeout bounds each attempt of a request.
	DefaultTimeout = 30 * time.Second
	// DefaultMaxBatchSize is the most proposals one ingestProposalBatch
	// request carries (DataHub's BATCH_INGEST_MAX_PAYLOAD_LENGTH).
	DefaultMaxBatchSize = 200
	// DefaultMaxBatchBytes is the largest request body sent, 15 MiB
	// (DataHub's INGEST_MAX_PAYLOAD_BYTES; GMS refuses bodies over
	// 16,000,000 bytes).
	DefaultMaxBatchBytes = 15 << 20
)

// RetryPolicy says how often a request is attempted and how long the
// emitter waits in between. Requests answered 429, 500, 502, 503 or 504, and
// requests that got no answer (refused or dropped connections, an attempt's
// timeout), are retried; no other answer is. Waits grow exponentially from
// MinWait, doubling up to MaxWait, each drawn at random from [w/2, w]; a
// Retry-After header on a 429 or 503 sets the wait instead, up to
// RetryAfterCap. Waits end at once when the context is done.
type RetryPolicy struct {
	// MaxAttempts is the number of attempts including the first; 1 or less
	// disables retries.
	MaxAttempts int
	// MinWait is the wait before the first retry.
	MinWait time.Duration
	// MaxWait caps the exponential wait.
	MaxWait time.Duration
	// RetryAfterCap caps a server's Retry-After; zero means MaxWait.
	RetryAfterCap time.Duration
}

// DefaultRetryPolicy returns the policy of DataHub's Python REST emitter:
// 5 attempts (4 retries), waits of about 2, 4, 8 and 16 s (backoff factor
// 2) capped at 30 s, and Retry-After honoured up to a minute. Unlike the
// Python emitter, a 429 costs a whole attempt.
func DefaultRetryPolicy() RetryPolicy {
	d := transport.DefaultRetry()
	return RetryPolicy{MaxAttempts: d.MaxAttempts, MinWait: d.MinWait, MaxWait: d.MaxWait, RetryAfterCap: d.RetryAfterCap}
}

func (p RetryPolicy) transport() transport.RetryPolicy {
	return transport.RetryPolicy{MaxAttempts: p.MaxAttempts, MinWait: p.MinWait, MaxWait: p.MaxWait, RetryAfterCap: p.RetryAfterCap}
}

// Option configures a REST emitter. When an option is given twice the last
// one wins.
type Option func(*config)

type config struct {
	token       string
	headers     map[string]string
	httpClient  *http.Client
	timeout     time.Duration
	retry       RetryPolicy
	logger      *slog.Logger
	serverAsync bool
	maxBatch    int
	maxBytes    int
	isolate     bool
}

func defaultConfig() config {
	return config{
		timeout:  DefaultTimeout,
		retry:    DefaultRetryPolicy(),
		maxBatch: DefaultMaxBatchSize,
		maxBytes: DefaultMaxBatchBytes,
		isolate:  true,
	}
}

// WithToken sends "Authorization: Bearer <token>" with every request; ""
// sends none. The token never appears in errors or logs.
func WithToken(token string) Option {
	return func(c *config) { c.token = token }
}

// WithHeaders sets extra headers on every request. They are set after the
// standard ones, so they override them (an own User-Agent, say).
func WithHeaders(h map[string]string) Option {
	return func(c *config) { c.headers = maps.Clone(h) }
}

// WithHTTPClient sends requests with hc; TLS settings (a private CA, client
// certificates, InsecureSkipVerify), proxies and custom transports come
// through it. The emitter does not modify hc: its timeout applies to a copy.
// Nil restores the default pooled client.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *config) { c.httpClient = hc }
}

// WithTimeout bounds each attempt of a request (connect, send, read the
// answer); the context bounds the whole call, retries included. The default
// is DefaultTimeout (30 s, as DataHub's Python emitter); 0 leaves the HTTP
// client's own timeout.
func WithTimeout(d time.Duration) Option {
	return func(c *config) { c.timeout = d }
}

// WithRetry sets the retry policy; the default is DefaultRetryPolicy().
// RetryPolicy{MaxAttempts: 1} disables retries.
func WithRetry(p RetryPolicy) Option {
	return func(c *config) { c.retry = p }
}

// WithLogger logs attempts (debug), retries (info) and batches split to
// find a rejected proposal (info) to l: methods, redacted URLs, statuses
// and waits, never headers, tokens or bodies. Nil (the default) is silent.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// WithServerAsync sets the "async" flag of every ingest request: true lets
// GMS acknowledge a proposal once it is queued (Kafka) rather than once it
// is stored, like the Python emitter's ASYNC emit mode. The default is false
// (the Python default, SYNC_PRIMARY). Either way the flag is sent, as the
// string "true" or "false".
func WithServerAsync(async bool) Option {
	return func(c *config) { c.serverAsync = async }
}

// WithMaxBatchSize sets the most proposals one ingestProposalBatch request
// carries (default DefaultMaxBatchSize; values below 1 mean 1).
func WithMaxBatchSize(n int) Option {
	return func(c *config) { c.maxBatch = max(n, 1) }
}

// WithMaxBatchBytes sets the largest request body the emitter sends
// (default DefaultMaxBatchBytes; 0 or less restores it). Lower it when a
// proxy in front of GMS limits bodies further (nginx defaults to 1 MiB). A
// proposal that does not fit alone is refused with a *TooLargeError before
// anything is sent.
func WithMaxBatchBytes(n int) Option {
	return func(c *config) {
		if n <= 0 {
			n = DefaultMaxBatchBytes
		}
		c.maxBytes = n
	}
}

// WithIsolateRejected sets what Emit does when the server refuses a batch
// request as a whole with 400, 412, 413 or 422, which in DataHub means one
// of its proposals (or its size) is at fault and none was written. With
// true (the default) Emit splits the request in halves and sends them
// again, down to single proposals, so that the proposals at fault are
// reported with the server's own error and the others are written. With
// false every proposal of the request is reported Rejected with the
// batch's error. Either way Emit goes on with the next request.
func WithIsolateRejected(isolate bool) Option {
	return func(c *config) { c.isolate = isolate }
}
