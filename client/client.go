package client

import (
	"context"
	"log/slog"

	datahub "github.com/catalogkit/datahub-go"
	"time"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/serverconfig"
	"github.com/catalogkit/datahub-go/internal/transport"
)

// Client reads and writes one DataHub GMS. It is safe for concurrent use.
type Client struct {
	tc       *transport.Client // reads (GET is always safe to retry) and deletes
	em       *emitter.REST     // writes, one attempt each: Modify decides replays
	actor    string
	conflict ConflictPolicy
	// strategy is how the helpers write lists (WithWriteStrategy).
	strategy WriteStrategy
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
// http or https URL, or when an option meant only for another package (such
// as emitter.WithServerAsync) is given. New sends nothing.
//
// It takes the module's shared options (datahub.WithToken, WithHeaders,
// WithHTTPClient, WithTimeout, WithRetry, WithLogger), which apply to reads
// and writes alike, and its own: WithActor, WithConflictPolicy and WithWriteStrategy. Reads
// are retried as the retry policy says; writes too, but a conditional
// write only when it provably was not applied (see Modify).
func New(serverURL string, opts ...datahub.Option) (*Client, error) {
	s, err := transport.Settings("client", opts)
	if err != nil {
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
	// Writes go through the emitter with the same settings. The emitter
	// replays a conditional write only when it provably was not applied
	// (refused connection, 429, 503) and otherwise reports
	// datahub.ErrOutcomeUnknown, which Modify resolves by reading.
	emOpts := []datahub.Option{
		datahub.WithToken(s.Token),
		datahub.WithHeaders(s.Headers),
		datahub.WithHTTPClient(s.HTTPClient),
		datahub.WithTimeout(s.Timeout),
		datahub.WithLogger(s.Logger),
		datahub.WithEndpoint(datahub.Endpoint(s.Endpoint)),
	}
	if s.Retry.Set {
		emOpts = append(emOpts, datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: s.Retry.MaxAttempts, CheckRetry: s.Retry.CheckRetry, Backoff: s.Retry.Backoff}))
	}
	em, err := emitter.NewREST(serverURL, emOpts...)
	if err != nil {
		return nil, err
	}
	c := &Client{tc: tc, em: em, actor: DefaultActor, conflict: DefaultConflictPolicy(), now: time.Now, sleep: sleepCtx,
		ep: datahub.Endpoint(s.Endpoint), auto: &serverconfig.Resolver{}, log: s.Logger}
	if s.Client.Actor != "" {
		c.actor = s.Client.Actor
	}
	if c.gql, err = newGQLClient(tc, s.Client.GraphQLURL); err != nil {
		return nil, err
	}
	c.strategy = WriteStrategy(s.Client.WriteStrategy)
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
