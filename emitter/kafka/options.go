package kafka

import (
	"log/slog"
	"time"

	"github.com/catalogkit/datahub-go/emitter"

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

// Option configures an [Emitter] and a [Bridge] alike (topic, franz-go
// and schema registry options). It is both an [EmitterOption] and a
// [BridgeOption].
type Option struct{ f func(*config) }

func (o Option) emitterOption(c *config) {
	if o.f != nil {
		o.f(c)
	}
}

func (o Option) bridgeOption(c *config) {
	if o.f != nil {
		o.f(c)
	}
}

// EmitterOption configures an [Emitter]; [New] takes them. An option only
// a Bridge reads (WithGroup, WithOnApply, WithRESTOptions) is not an
// EmitterOption: giving one to New does not compile. A nil EmitterOption
// is ignored.
type EmitterOption interface{ emitterOption(*config) }

// BridgeOption configures a [Bridge]; [NewBridge] takes them. An option
// only an Emitter reads (WithMCETopic, WithAutoRegister, WithSchemaID,
// WithOnAck, WithClock) is not a BridgeOption: giving one to NewBridge
// does not compile. A nil BridgeOption is ignored.
type BridgeOption interface{ bridgeOption(*config) }

type emitterOnly func(*config)

func (f emitterOnly) emitterOption(c *config) { f(c) }

type bridgeOnly func(*config)

func (f bridgeOnly) bridgeOption(c *config) { f(c) }

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
	restOpts []emitter.Option
	group    string
	onApply  func(Applied)
	logger   *slog.Logger
}

func defaultConfig() config {
	return config{mcpTopic: DefaultMCPTopic, mceTopic: DefaultMCETopic, autoRegister: true, now: time.Now}
}

func newEmitterConfig(opts []EmitterOption) config {
	cfg := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o.emitterOption(&cfg)
		}
	}
	return cfg
}

func newBridgeConfig(opts []BridgeOption) config {
	cfg := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o.bridgeOption(&cfg)
		}
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.DiscardHandler)
	}
	return cfg
}

// WithTopic sets the topic of metadata change proposals
// (DefaultMCPTopic). The value schema's subject is "<topic>-value", as
// Confluent's TopicNameStrategy names it.
func WithTopic(topic string) Option { return Option{func(c *config) { c.mcpTopic = topic }} }

// WithMCETopic sets the topic of DataHub's older metadata change events
// (DefaultMCETopic), as DataHub's Python emitter's topic_routes does. This
// emitter writes proposals only, so the name is reported by
// [Emitter.MCETopic] and otherwise unused.
func WithMCETopic(topic string) EmitterOption {
	return emitterOnly(func(c *config) { c.mceTopic = topic })
}

// WithAutoRegister sets whether the Emitter registers [MCPSchema] under the
// subject "<topic>-value" before its first message (the default, as
// DataHub's Python emitter does). Off, it uses the latest schema registered
// under the subject, or the one WithSchemaID names.
func WithAutoRegister(on bool) EmitterOption {
	return emitterOnly(func(c *config) { c.autoRegister = on })
}

// WithSchemaID makes the Emitter write with the registered schema id,
// neither registering nor looking up the subject: proposals are encoded
// with the schema the registry holds under id, which must be a version of
// DataHub's MetadataChangeProposal record. Fields that schema lacks are
// not written (the schema of DataHub's Java client has no headers), and a
// change type it lacks (CREATE_ENTITY there) makes the proposal Rejected.
// It turns automatic registration off.
func WithSchemaID(id int) EmitterOption {
	return emitterOnly(func(c *config) { c.schemaID, c.autoRegister = id, false })
}

// WithKgoOptions passes options to the franz-go client: TLS
// (kgo.DialTLSConfig), SASL (kgo.SASL with franz-go's pkg/sasl
// mechanisms), client id, batching, timeouts. They are applied after the
// Emitter's own (seed brokers, default topic, all-ISR acknowledgements,
// idempotent writes), so they can change them.
func WithKgoOptions(opts ...kgo.Opt) Option {
	return Option{func(c *config) { c.kgoOpts = append(c.kgoOpts, opts...) }}
}

// WithRegistryOptions passes options to the schema registry client, such
// as sr.BasicAuth, sr.BearerToken or sr.DialTLSConfig.
func WithRegistryOptions(opts ...sr.ClientOpt) Option {
	return Option{func(c *config) { c.srOpts = append(c.srOpts, opts...) }}
}

// WithOnAck sets a function the Emitter calls once for every proposal it
// handed to the producer, when the brokers acknowledged it or it failed.
// It runs on the producer's goroutine, so it must not block or call Flush
// or Close.
func WithOnAck(f func(Ack)) EmitterOption { return emitterOnly(func(c *config) { c.onAck = f }) }

// WithClock sets the clock of systemMetadata.lastObserved (time.Now).
func WithClock(now func() time.Time) EmitterOption {
	return emitterOnly(func(c *config) { c.now = now })
}

// WithRESTOptions passes options to the REST emitter the Bridge applies
// proposals with, such as datahub.WithRetry (its retries are bounded by
// the policy's MaxAttempts), datahub.WithTimeout, datahub.WithToken (the
// bearer token sent to GMS) or datahub.WithHTTPClient.
func WithRESTOptions(opts ...emitter.Option) BridgeOption {
	return bridgeOnly(func(c *config) { c.restOpts = append(c.restOpts, opts...) })
}

// WithGroup makes the Bridge consume as a member of the consumer group
// name and commit the offset of every message it handled, so that a Bridge
// started again with the same group resumes after them instead of reading
// the topic from its start.
func WithGroup(name string) BridgeOption { return bridgeOnly(func(c *config) { c.group = name }) }

// WithOnApply sets a function the Bridge calls for every message it
// consumed, with its outcome (see [Applied]): applied, refused, of unknown
// outcome or not decodable. A caller that keeps a dead-letter list keeps
// the messages whose Status is not emitter.Written.
func WithOnApply(f func(Applied)) BridgeOption { return bridgeOnly(func(c *config) { c.onApply = f }) }

// WithLogger sets the logger a Bridge reports fetch failures to, at level
// Warn, before it retries them (nil, the default, discards). A Bridge
// whose fetches keep failing returns the error (see [Bridge]).
func WithLogger(l *slog.Logger) BridgeOption { return bridgeOnly(func(c *config) { c.logger = l }) }
