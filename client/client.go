package client

import (
	"context"
	"log/slog"

	datahub "github.com/catalogkit/datahub-go"
	"time"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/config"
	"github.com/catalogkit/datahub-go/internal/serverconfig"
	"github.com/catalogkit/datahub-go/internal/transport"
)

// Client reads and writes one DataHub GMS. It is safe for concurrent use.
type Client struct {
	tc *transport.Client // reads (GET is always safe to retry) and deletes
	em *emitter.REST     // writes, one attempt each: Modify decides replays
	// mode is em's emit mode; emitters makes the emitters of other modes
	// (WithEmitMode); emErr, when set, fails every write (a refused mode).
	mode     emitter.EmitMode
	emitters *modeEmitters
	emErr    error
	actor    string
	conflict ConflictPolicy
	// strategy is how the helpers write lists (WithWriteStrategy).
	strategy WriteStrategy
	// requireEntity makes Modify refuse a missing entity (WithRequireEntity).
	requireEntity bool
	// incremental makes Ensure add lineage edges by PATCH (WithIncrementalLineage).
	incremental bool
	// now is the clock of audit stamps and systemMetadata.lastObserved.
	now func() time.Time
	// sleep waits d or until ctx is done (injectable for tests).
	sleep func(ctx context.Context, d time.Duration) error
	// gql is the GraphQL endpoint's client (graphql.go).
	gql *gqlClient
	// ep is the endpoint of reads (datahub.WithEndpoint); auto decides
	// datahub.EndpointAuto; log receives its warning.
	ep   datahub.Endpoint
	auto *serverconfig.Resolver
	log  *slog.Logger
}

// New returns a client for the GMS at serverURL: a GMS root
// (http://localhost:8080) or a front end's GMS proxy path
// (https://datahub.example.com/api/gms); trailing slashes are dropped. It
// fails, wrapping datahub.ErrValidation, when serverURL is not an absolute
// http or https URL or an option was given a value it refuses. New sends
// nothing.
//
// It takes the module's shared options (datahub.WithToken, WithHeaders,
// WithHTTPClient, WithTimeout, WithRetry, WithLogger, WithEndpoint), which apply to reads
// and writes alike, and its own: WithActor, WithConflictPolicy, WithWriteStrategy and
// WithRequireEntity. Reads
// are retried as the retry policy says; writes too, but a conditional
// write only when it provably was not applied (see Modify).
func New(serverURL string, opts ...Option) (*Client, error) {
	s := config.Defaults()
	config.ApplyClient(&s, opts)
	if err := transport.Check(s); err != nil {
		return nil, err
	}
	if s.HTTPClient == nil {
		// One pool for reads and writes.
		s.HTTPClient = transport.NewPooledClient()
	}
	tc, err := transport.New(serverURL, s)
	if err != nil {
		return nil, err
	}
	// Writes go through the emitter with the same settings, handed over
	// whole so that none is dropped. The emitter replays a conditional write
	// only when it provably was not applied (refused connection, 429, 503)
	// and otherwise reports datahub.ErrOutcomeUnknown, which Modify resolves
	// by reading.
	emOpts := []emitter.Option{
		config.Shared(s.Shared().Apply),
		// Each Emit of the client is one change: a request the server
		// refuses is refused whole, not split to write the rest.
		emitter.WithIsolateRejected(false),
	}
	mode := emitter.EmitSyncPrimary
	if s.EmitMode != nil {
		mode = emitter.EmitMode(*s.EmitMode)
		if err := checkEmitMode(mode); err != nil {
			return nil, err
		}
	}
	emitters := &modeEmitters{opts: emOpts, url: serverURL, ems: map[emitter.EmitMode]*emitter.REST{}}
	em, err := emitters.get(mode)
	if err != nil {
		return nil, err
	}
	c := &Client{tc: tc, em: em, mode: mode, emitters: emitters, actor: DefaultActor, conflict: DefaultConflictPolicy(), now: time.Now, sleep: sleepCtx,
		ep: datahub.Endpoint(s.Endpoint), auto: &serverconfig.Resolver{}, log: s.Logger}
	if s.Client.Actor != "" {
		c.actor = s.Client.Actor
	}
	if c.gql, err = newGQLClient(tc, s.Client.GraphQLURL); err != nil {
		return nil, err
	}
	c.strategy = WriteStrategy(s.Client.WriteStrategy)
	c.requireEntity = s.Client.RequireEntity
	c.incremental = s.Client.IncrementalLineage
	if err := c.checkStrategy(); err != nil {
		return nil, err
	}
	if s.Client.ConflictSet {
		c.conflict = ConflictPolicy{MaxAttempts: s.Client.ConflictAttempts, MinWait: s.Client.ConflictMinWait, MaxWait: s.Client.ConflictMaxWait}
	}
	return c, nil
}

// WithWriteStrategy returns a copy of c that writes with strategy (see the
// option WithWriteStrategy); c is unchanged. The copy shares c's
// connections and settings, so it is cheap enough to make per call:
//
//	err := c.WithWriteStrategy(client.Patch).AddTag(ctx, ds, tag)
func (c *Client) WithWriteStrategy(strategy WriteStrategy) *Client {
	cp := *c
	cp.strategy = strategy
	return &cp
}

// WithRequireEntity returns a copy of c whose Modify refuses, or not, to
// write to an entity that does not exist (see the option
// WithRequireEntity); c is unchanged. Like [Client.WithWriteStrategy], the
// copy shares c's connections and is cheap enough to make per call:
//
//	err := client.Modify(ctx, c.WithRequireEntity(true), model, fn)
func (c *Client) WithRequireEntity(require bool) *Client {
	cp := *c
	cp.requireEntity = require
	return &cp
}

// WriteStrategy returns the strategy the helpers write with.
func (c *Client) WriteStrategy() WriteStrategy { return c.strategy }

// ServerURL returns the normalised server URL requests are sent under.
func (c *Client) ServerURL() string { return c.tc.BaseURL() }

// CloseIdleConnections closes the connections kept open for later
// requests (see http.Client.CloseIdleConnections).
func (c *Client) CloseIdleConnections() { c.tc.CloseIdleConnections() }

// sleepCtx waits d, or returns ctx's error once ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// FromEnv returns a client for the server that the environment or
// ~/.datahubenv names, as DataHub's Python SDK's DataHubClient.from_env
// finds it (see datahub.FromEnv for the variables, the file and their
// precedence), with opts applied after the settings read there. Unlike
// Python's from_env it sends nothing (Python checks the connection with
// GET /config); the first call reports an unreachable server.
func FromEnv(opts ...Option) (*Client, error) {
	server, envOpts, err := datahub.FromEnv()
	if err != nil {
		return nil, err
	}
	all := make([]Option, 0, len(envOpts)+len(opts))
	for _, o := range envOpts {
		all = append(all, o)
	}
	return New(server, append(all, opts...)...)
}
