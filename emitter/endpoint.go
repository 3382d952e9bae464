package emitter

import (
	"context"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/internal/config"
)

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
	// queueing it is Rejected with a *TraceError; one whose trace could not
	// be read (the trace route failing after the retries) is Unknown, and
	// one still pending when the context ends is Stopped, never Written.
	// The first poll comes after 0.5 ms, each later wait doubles up to 5 s,
	// and one poll asks for every proposal of a request (one trace id).
	// Rest.li has no trace: there
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

// WithEmitMode sets when Emit returns (default EmitSyncPrimary), and so
// the "async" flag of every Rest.li ingest request: "true" for EmitAsync
// (GMS acknowledges a proposal once it is queued), "false" otherwise; the
// flag is always sent.
func WithEmitMode(m EmitMode) Option {
	return config.EmitterOnly(func(s *config.Settings) {
		if m < EmitSyncPrimary || m > EmitAsyncWait {
			s.Invalid(fmt.Sprintf("emitter.WithEmitMode: unknown mode %d", int(m)))
			return
		}
		s.Emitter.Mode = int(m)
		s.Emitter.ServerAsync = m == EmitAsync
	})
}

// openAPI reports whether this emitter writes through OpenAPI, deciding
// from GET /config once for datahub.EndpointAuto.
func (r *REST) openAPI(ctx context.Context) bool {
	switch r.ep {
	case datahub.EndpointOpenAPI:
		return true
	case datahub.EndpointAuto:
		return r.auto.OpenAPI(ctx, r.tc, r.log)
	}
	return false
}
