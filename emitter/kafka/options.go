package kafka

import (
	"log/slog"
	"net/http"
	"time"

	datahub "github.com/catalogkit/datahub-go"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sr"
)

// Default topic names, as DataHub's Python and Java Kafka emitters use
// them.
const (
	// DefaultMCPTopic is the topic of metadata change proposals.
	DefaultMCPTopic = "MetadataChangeProposal_v1"
	// DefaultMCETopic is the topic of DataHub's older metadata change
	// events (snapshots).
	DefaultMCETopic = "MetadataChangeEvent_v4"
)

// Option configures an [Emitter] or a [Bridge]. Options that apply to only
// one of them say so; the other ignores them.
type Option func(*config)

type config struct {
	mcpTopic     string
	mceTopic     string
	autoRegister bool
	schemaID     int
	kgoOpts      []kgo.Opt
	srOpts       []sr.ClientOpt
	onAck        func(Ack)
	now          func() time.Time
	// Bridge only.
	token      string
	httpClient *http.Client
	restOpts   []datahub.Option
	group      string
	onApply    func(Applied)
	logger     *slog.Logger
}

func newConfig(opts []Option) config {
	cfg := config{mcpTopic: DefaultMCPTopic, mceTopic: DefaultMCETopic, autoRegister: true, now: time.Now, httpClient: http.DefaultClient}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.DiscardHandler)
	}
	return cfg
}

// WithTopic sets the topic of metadata change proposals
// (DefaultMCPTopic). The value schema's subject is "<topic>-value", as
// Confluent's TopicNameStrategy names it.
func WithTopic(topic string) Option { return func(c *config) { c.mcpTopic = topic } }

// WithMCETopic sets the topic of DataHub's older metadata change events
// (DefaultMCETopic), as DataHub's Python emitter's topic_routes does. This
// emitter writes proposals only, so the name is reported by
// [Emitter.MCETopic] and otherwise unused.
func WithMCETopic(topic string) Option { return func(c *config) { c.mceTopic = topic } }

// WithAutoRegister sets whether the Emitter registers [MCPSchema] under the
// subject "<topic>-value" before its first message (the default, as
// DataHub's Python emitter does). Off, it uses the latest schema registered
// under the subject, or the one WithSchemaID names.
func WithAutoRegister(on bool) Option { return func(c *config) { c.autoRegister = on } }

// WithSchemaID makes the Emitter write with the registered schema id,
// neither registering nor looking up the subject: proposals are encoded
// with the schema the registry holds under id, which must be a version of
// DataHub's MetadataChangeProposal record. Fields that schema lacks are
// not written (the schema of DataHub's Java client has no headers), and a
// change type it lacks (CREATE_ENTITY there) makes the proposal Rejected.
// It turns automatic registration off.
func WithSchemaID(id int) Option {
	return func(c *config) { c.schemaID, c.autoRegister = id, false }
}

// WithKgoOptions passes options to the franz-go client: TLS
// (kgo.DialTLSConfig), SASL (kgo.SASL with franz-go's pkg/sasl
// mechanisms), client id, batching, timeouts. They are applied after the
// Emitter's own (seed brokers, default topic, all-ISR acknowledgements,
// idempotent writes), so they can change them.
func WithKgoOptions(opts ...kgo.Opt) Option {
	return func(c *config) { c.kgoOpts = append(c.kgoOpts, opts...) }
}

// WithRegistryOptions passes options to the schema registry client, such
// as sr.BasicAuth, sr.BearerToken or sr.DialTLSConfig.
func WithRegistryOptions(opts ...sr.ClientOpt) Option {
	return func(c *config) { c.srOpts = append(c.srOpts, opts...) }
}

// WithOnAck sets a function the Emitter calls once for every proposal it
// handed to the producer, when the brokers acknowledged it or it failed.
// It runs on the producer's goroutine, so it must not block or call Flush
// or Close.
func WithOnAck(f func(Ack)) Option { return func(c *config) { c.onAck = f } }

// WithClock sets the clock of systemMetadata.lastObserved (time.Now).
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }

// WithToken makes the Bridge send Authorization: Bearer token to GMS.
func WithToken(token string) Option { return func(c *config) { c.token = token } }

// WithHTTPClient sets the Bridge's HTTP client (http.DefaultClient).
func WithHTTPClient(hc *http.Client) Option { return func(c *config) { c.httpClient = hc } }

// WithRESTOptions passes options to the REST emitter the Bridge applies
// proposals with, such as datahub.WithRetry (its retries are bounded by
// the policy's MaxAttempts) or datahub.WithTimeout. They come after the
// Bridge's own (WithToken, WithHTTPClient), so they can change them.
func WithRESTOptions(opts ...datahub.Option) Option {
	return func(c *config) { c.restOpts = append(c.restOpts, opts...) }
}

// WithGroup makes the Bridge consume as a member of the consumer group
// name and commit the offset of every message it handled, so that a Bridge
// started again with the same group resumes after them instead of reading
// the topic from its start.
func WithGroup(name string) Option { return func(c *config) { c.group = name } }

// WithOnApply sets a function the Bridge calls for every message it
// consumed, with its outcome (see [Applied]): applied, refused, of unknown
// outcome or not decodable. A caller that keeps a dead-letter list keeps
// the messages whose Status is not emitter.Written.
func WithOnApply(f func(Applied)) Option { return func(c *config) { c.onApply = f } }

// WithLogger sets the logger a Bridge reports fetch failures to, at level
// Warn, before it retries them (nil, the default, discards). A Bridge
// whose fetches keep failing returns the error (see [Bridge]).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }
