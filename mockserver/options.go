package mockserver

import (
	"io"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"
)

// DefaultMaxBodyBytes is the default request body limit, DataHub's
// 16,000,000-byte limit on a serialized proposal; larger bodies get 413.
const DefaultMaxBodyBytes = 16_000_000

// Option configures a [Server]. Options are applied in order; when an option
// is given twice the last one wins.
type Option struct{ apply func(*config) }

type config struct {
	tokens        []string
	dataDir       string
	clock         func() time.Time // baseClock plus the offset of FastForward and SetTime
	baseClock     func() time.Time // WithClock's clock, or time.Now
	clockOffset   *atomic.Int64    // nanoseconds added to baseClock
	asyncLag      time.Duration
	maxBodyBytes  int64
	logger        *slog.Logger
	faults        []Fault
	record        bool
	control       bool
	indexPaused   bool            // see WithIndexPaused
	lax           map[string]bool // see WithAcceptUnknownMembers
	timeouts      Timeouts        // see WithTimeouts, defaults filled in
	serverVersion string          // see WithServerVersion
	poisonBodies  bool            // tests: overwrite a released ingest body (see releaseBody)
	versioning    bool            // see WithEntityVersioning
	// noDefaultAspects and lenientMCPValidation: see WithDefaultAspects
	// and WithAlternateMCPValidation (options_fidelity.go).
	noDefaultAspects, lenientMCPValidation bool
	bootstrap                              bool // see WithBootstrap
}

func newConfig(opts []Option) config {
	c := config{
		clock:         time.Now,
		maxBodyBytes:  DefaultMaxBodyBytes,
		logger:        slog.New(slog.NewTextHandler(io.Discard, nil)),
		record:        true,
		timeouts:      DefaultTimeouts,
		serverVersion: DefaultServerVersion,
	}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&c)
		}
	}
	base, offset := c.clock, new(atomic.Int64)
	c.baseClock, c.clockOffset = base, offset
	c.clock = func() time.Time { return base().Add(time.Duration(offset.Load())) }
	return c
}

// WithToken requires every request except GET /config to carry
// "Authorization: Bearer T" for one of tokens, or for an access token the
// GraphQL mutation createAccessToken issued that is neither revoked nor
// expired, as GMS does with metadata service authentication enabled. No
// tokens (the default) disables authentication.
//
// A request's writes are its actor's: an issued access token's actor; for
// a configured token that is a DataHub token (a JWT whose claims carry
// actorId; its signature is not checked) urn:li:corpuser:<actorId>, for
// any other configured token urn:li:corpuser:datahub. Without tokens the
// actor is the user the X-DataHub-Actor header names (a header that is not
// a URN is refused with 401), else the system actor.
func WithToken(tokens ...string) Option {
	tokens = slices.Clone(tokens)
	return Option{func(c *config) { c.tokens = tokens }}
}

// WithDataDir keeps the aspects in a bbolt file in dir (created if missing),
// so that they survive a restart: every acknowledged synchronous write is
// committed to disk before its 200. "" (the default) keeps them in memory.
func WithDataDir(dir string) Option {
	return Option{func(c *config) { c.dataDir = dir }}
}

// WithClock sets the clock used for created-on times, lastObserved defaults
// and async visibility. nil restores time.Now. [Server.FastForward] and
// [Server.SetTime] move the server's clock relative to it.
func WithClock(now func() time.Time) Option {
	return Option{func(c *config) {
		if now == nil {
			now = time.Now
		}
		c.clock = now
	}}
}

// WithAsyncLag makes proposals sent with "async": "true" visible to reads
// only once d has passed on the server's clock, as GMS's asynchronous ingest
// through Kafka does. Zero (the default) applies them at once.
func WithAsyncLag(d time.Duration) Option {
	return Option{func(c *config) { c.asyncLag = max(d, 0) }}
}

// WithMaxBodyBytes sets the request body limit; a larger body gets 413. n <= 0
// removes the limit. The default is [DefaultMaxBodyBytes].
func WithMaxBodyBytes(n int64) Option {
	return Option{func(c *config) { c.maxBodyBytes = n }}
}

// WithLogger sets the logger that receives one debug line per request. nil
// (the default) discards.
func WithLogger(l *slog.Logger) Option {
	return Option{func(c *config) {
		if l == nil {
			l = slog.New(slog.NewTextHandler(io.Discard, nil))
		}
		c.logger = l
	}}
}

// WithFault installs faults from the start, as [Server.Inject] does later.
// [Open] fails (and [New] and [Start] with it) if a fault is invalid.
func WithFault(faults ...Fault) Option {
	faults = slices.Clone(faults)
	return Option{func(c *config) { c.faults = faults }}
}

// WithAcceptUnknownMembers makes the server act, for the named aspects,
// like a newer DataHub whose schema has members this SDK's PDL does not:
// their values get only the structural check (a JSON object, a timeseries
// timestamp) and are stored with every member they carry, instead of being
// refused with "unrecognized field found but not allowed". A test aid for
// code that must keep a newer server's members, such as
// client.Modify. No names (the default) validates every aspect.
func WithAcceptUnknownMembers(aspectNames ...string) Option {
	lax := make(map[string]bool, len(aspectNames))
	for _, n := range aspectNames {
		lax[n] = true
	}
	return Option{func(c *config) { c.lax = lax }}
}

// DefaultServerVersion is the DataHub version the server reports in GET
// /config by default: the DataHub release whose schemas and routes the mock
// follows. Clients that pick their write path by version, such as DataHub's
// Python emitter and this SDK's EndpointAuto, therefore use the OpenAPI v3
// entity API and write tracing (DataHub 1.0.1 and later);
// [WithServerVersion]("v1.0.0") keeps them on Rest.li. The mock serves both
// either way.
const DefaultServerVersion = "v1.6.0"

// WithServerVersion sets the DataHub version GET /config reports (its
// versions["acryldata/datahub"].version), such as "v1.2.0", for clients that
// pick their write path or features by version. "" restores
// [DefaultServerVersion].
func WithServerVersion(v string) Option {
	return Option{func(c *config) {
		if v == "" {
			v = DefaultServerVersion
		}
		c.serverVersion = v
	}}
}

// WithRecording sets whether the server keeps a copy of every proposal it
// receives for [Server.Proposals] (default true). A long-running standalone
// server turns it off to bound its memory.
func WithRecording(on bool) Option {
	return Option{func(c *config) { c.record = on }}
}

// Timeouts bound the connections of a listening server ([Start], [Listen])
// and its shutdown. In [WithTimeouts] a zero field keeps its default (see
// [DefaultTimeouts]) and a negative one means no limit.
type Timeouts struct {
	// ReadHeader bounds the reading of a request's headers.
	ReadHeader time.Duration
	// Read bounds the reading of a whole request, body included: a client
	// that sends its body too slowly has its connection closed.
	Read time.Duration
	// Write bounds the time from the end of a request's headers to the end
	// of its answer. The default exceeds [MaxFaultDelay], so that a delayed
	// answer is still sent.
	Write time.Duration
	// Idle bounds how long a keep-alive connection waits for its next
	// request.
	Idle time.Duration
	// Shutdown bounds how long [Server.Close] waits for the requests in
	// flight; then it closes their connections and goes on.
	Shutdown time.Duration
}

// DefaultTimeouts are the timeouts of a server without [WithTimeouts].
var DefaultTimeouts = Timeouts{
	ReadHeader: 10 * time.Second,
	Read:       time.Minute,
	Write:      MaxFaultDelay + time.Minute,
	Idle:       2 * time.Minute,
	Shutdown:   10 * time.Second,
}

// WithTimeouts sets the server's timeouts: a zero field keeps its value in
// [DefaultTimeouts], a negative one removes the limit.
func WithTimeouts(t Timeouts) Option {
	return Option{func(c *config) {
		pick := func(v, def time.Duration) time.Duration {
			switch {
			case v == 0:
				return def
			case v < 0:
				return 0 // net/http: no limit
			}
			return v
		}
		c.timeouts = Timeouts{
			ReadHeader: pick(t.ReadHeader, DefaultTimeouts.ReadHeader),
			Read:       pick(t.Read, DefaultTimeouts.Read),
			Write:      pick(t.Write, DefaultTimeouts.Write),
			Idle:       pick(t.Idle, DefaultTimeouts.Idle),
			Shutdown:   pick(t.Shutdown, DefaultTimeouts.Shutdown),
		}
	}}
}

// check reports an option value that cannot be served: an invalid fault.
func (c *config) check() error {
	return validateFaults(c.faults)
}
