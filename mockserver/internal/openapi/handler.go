// Package openapi is the mock's adapter for DataHub's OpenAPI servlet: the
// v3 entity API (/openapi/v3/entity/...) and the write trace API
// (/openapi/v1/trace/write/{traceId}). It decodes the wire, hands every read
// and write to the core ([gms.Core]) and answers in the servlet's shapes; the
// rules themselves live in the core. The server routes a request here
// ([ParsePath]) after authentication, faults and counting.
package openapi

import (
	"net/http"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// Hooks are what the server lends the adapter besides the core.
type Hooks struct {
	// Clock is the server's clock.
	Clock func() time.Time
	// Receive records the proposals of a write as the core receives them
	// (before it writes them), async and batch as the request gave them;
	// the function it returns records the write's outcome: "" accepted,
	// else why it was refused.
	Receive func(ps []gms.Proposal, async, batch bool) (outcome func(refusal string))
	// EntityVersioning is DataHub's entityVersioning feature flag: the
	// versioning routes refuse every request without it.
	EntityVersioning bool
	// PoisonBodies (for tests) overwrites the memory of a batch write's
	// body when the request is done with it, so that a value still
	// sharing it shows garbled.
	PoisonBodies bool
}

// Handler serves the OpenAPI routes on one core.
type Handler struct {
	core  *gms.Core
	hooks Hooks
	// general (for tests) makes batch writes take the general decode
	// only, never quickItems.
	general bool
}

// New returns a Handler serving core.
func New(core *gms.Core, hooks Hooks) *Handler {
	return &Handler{core: core, hooks: hooks}
}

// Request is a routed OpenAPI request.
type Request struct {
	// Path is the request's parsed path.
	Path Path
	// TraceID is the request's trace id, also sent in its traceparent
	// response header.
	TraceID string
	// Vars are the path variables of a route of [Routes].
	Vars Vars
}

// clock is the server's clock.
func (s *Handler) clock() time.Time { return s.hooks.Clock() }

// WriteError answers status with the servlet's error body {"error": text},
// with a Retry-After header when retryAfter is not "".
func WriteError(w http.ResponseWriter, status int, text, retryAfter string) {
	writeOpenAPIError(w, &openAPIError{status: status, err: text}, retryAfter)
}
