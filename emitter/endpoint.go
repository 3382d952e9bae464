package emitter

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/internal/config"
	"github.com/catalogkit/datahub-go/internal/serverconfig"
	"github.com/catalogkit/datahub-go/internal/transport"
)

// Endpoint is the write path of a REST emitter: DataHub's Rest.li
// ingestProposal actions, or its OpenAPI v3 entity API.
type Endpoint int

// The write paths.
const (
	// EndpointRestli writes through POST /aspects?action=ingestProposal
	// and ingestProposalBatch (the default).
	EndpointRestli Endpoint = iota
	// EndpointOpenAPI writes through /openapi/v3/entity (DataHub 1.0.1 and
	// later): see [REST.Emit] for how each change type is sent.
	EndpointOpenAPI
	// EndpointAuto reads GET /config before the first write and picks
	// OpenAPI for a server that supports it (DataHub 1.0.1 or later, Cloud
	// 0.3.11 or later), Rest.li otherwise or when /config cannot be read,
	// as DataHub's Python emitter decides.
	EndpointAuto
)

// String returns the endpoint's name: "RESTLI", "OPENAPI" or "AUTO".
func (e Endpoint) String() string {
	switch e {
	case EndpointRestli:
		return "RESTLI"
	case EndpointOpenAPI:
		return "OPENAPI"
	case EndpointAuto:
		return "AUTO"
	}
	return fmt.Sprintf("Endpoint(%d)", int(e))
}

// EnvEndpoint is the environment variable [EndpointFromEnv] reads, as
// DataHub's Python emitter names it.
const EnvEndpoint = "DATAHUB_REST_EMITTER_DEFAULT_ENDPOINT"

// EndpointFromEnv returns the write path DATAHUB_REST_EMITTER_DEFAULT_ENDPOINT
// names, as DataHub's Python emitter reads it: "OPENAPI" or "RESTLI" (in
// any case) force that path, and anything else, or the variable unset,
// gives EndpointAuto. Pass it to [WithEndpoint]; the emitter reads no
// environment variable on its own.
func EndpointFromEnv() Endpoint {
	switch strings.ToUpper(strings.TrimSpace(os.Getenv(EnvEndpoint))) {
	case "OPENAPI":
		return EndpointOpenAPI
	case "RESTLI":
		return EndpointRestli
	}
	return EndpointAuto
}

// WithEndpoint sets the write path (default EndpointRestli). Unlike
// DataHub's Python emitter, which picks the path from GET /config unless
// told otherwise, the emitter asks /config only with EndpointAuto;
// WithEndpoint(EndpointFromEnv()) gives the Python emitter's rule with its
// environment override. Both paths take the same proposals and report the
// same outcomes.
func WithEndpoint(e Endpoint) datahub.Option {
	return func(s *config.Settings) {
		s.Scope("emitter", "WithEndpoint")
		if e < EndpointRestli || e > EndpointAuto {
			s.Invalid(fmt.Sprintf("emitter.WithEndpoint: unknown endpoint %d", int(e)))
			return
		}
		s.Emitter.Endpoint = int(e)
	}
}

// EmitMode says when Emit returns, as DataHub's Python emitter's EmitMode.
type EmitMode int

// The emit modes.
const (
	// EmitSyncPrimary returns once GMS has stored each proposal; the search
	// index follows later (async=false). The default.
	EmitSyncPrimary EmitMode = iota
	// EmitSyncWait returns once GMS has stored each proposal and updated the
	// search index (async=false and, on OpenAPI, the aspect header
	// X-DataHub-Sync-Index-Update: true). On Rest.li it is EmitSyncPrimary.
	EmitSyncWait
	// EmitAsync returns once GMS has queued each proposal (async=true): a
	// proposal refused later is not reported.
	EmitAsync
	// EmitAsyncWait sends as EmitAsync does and then, on OpenAPI, polls DataHub's write
	// trace until each proposal is stored and indexed or failed, and
	// reports that final outcome: a proposal the server refused after
	// queueing it is Rejected with a *TraceError. Rest.li has no trace: there
	// it sends synchronously (async=false), which also gives each
	// proposal's final outcome in primary storage.
	EmitAsyncWait
)

// String returns the mode's name as DataHub spells it: "SYNC_PRIMARY",
// "SYNC_WAIT", "ASYNC" or "ASYNC_WAIT".
func (m EmitMode) String() string {
	switch m {
	case EmitSyncPrimary:
		return "SYNC_PRIMARY"
	case EmitSyncWait:
		return "SYNC_WAIT"
	case EmitAsync:
		return "ASYNC"
	case EmitAsyncWait:
		return "ASYNC_WAIT"
	}
	return fmt.Sprintf("EmitMode(%d)", int(m))
}

// WithEmitMode sets when Emit returns (default EmitSyncPrimary). WithServerAsync
// sets the same setting (true: EmitAsync, false: EmitSyncPrimary); the last given
// wins.
func WithEmitMode(m EmitMode) datahub.Option {
	return func(s *config.Settings) {
		s.Scope("emitter", "WithEmitMode")
		if m < EmitSyncPrimary || m > EmitAsyncWait {
			s.Invalid(fmt.Sprintf("emitter.WithEmitMode: unknown mode %d", int(m)))
			return
		}
		s.Emitter.Mode = int(m)
		s.Emitter.ServerAsync = m == EmitAsync
	}
}

// endpoint returns the write path of this emitter, reading GET /config
// once for EndpointAuto (a server whose /config cannot be read gets
// Rest.li, as the Python emitter's).
func (r *REST) endpoint(ctx context.Context) Endpoint {
	if r.ep != EndpointAuto {
		return r.ep
	}
	r.epMu.Lock()
	defer r.epMu.Unlock()
	if r.resolved != EndpointAuto {
		return r.resolved
	}
	resp, err := r.tc.Send(ctx, transport.Request{Method: http.MethodGet, Path: pathConfig})
	if err != nil {
		if ctx.Err() != nil {
			return EndpointRestli // not decided: the caller's context ended; ask again next time
		}
		if r.log != nil {
			r.log.LogAttrs(ctx, slog.LevelWarn, "emitter: GET /config failed; writing through Rest.li", slog.String("error", err.Error()))
		}
		r.resolved = EndpointRestli
		return r.resolved
	}
	r.resolved = EndpointRestli
	if in, err := serverconfig.Parse(resp.Body); err == nil && in.OpenAPI() {
		r.resolved = EndpointOpenAPI
	}
	return r.resolved
}
