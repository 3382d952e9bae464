package datahub

import (
	"fmt"
	"os"
	"strings"

	"github.com/catalogkit/datahub-go/internal/config"
)

// Endpoint is the API an SDK package talks to DataHub's GMS through:
// its Rest.li resources (the emitter's ingestProposal actions, the
// client's /aspects and /entitiesV2 reads) or its OpenAPI v3 entity API
// (/openapi/v3/entity, DataHub 1.0.1 and later).
type Endpoint int

// The endpoints.
const (
	// EndpointRestli talks Rest.li (the default).
	EndpointRestli Endpoint = iota
	// EndpointOpenAPI talks OpenAPI v3 (DataHub 1.0.1 or later).
	EndpointOpenAPI
	// EndpointAuto reads GET /config once, before the first request that
	// depends on it, and picks OpenAPI for a server that supports it
	// (DataHub 1.0.1 or later, DataHub Cloud 0.3.11 or later), Rest.li
	// otherwise or when /config cannot be read, as DataHub's Python
	// emitter decides.
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

// EndpointFromEnv returns the endpoint DATAHUB_REST_EMITTER_DEFAULT_ENDPOINT
// names, as DataHub's Python emitter reads it: "OPENAPI" or "RESTLI" (in
// any case) force that API, anything else or the variable unset gives
// EndpointAuto. Pass it to [WithEndpoint].
func EndpointFromEnv() Endpoint {
	switch strings.ToUpper(strings.TrimSpace(os.Getenv(EnvEndpoint))) {
	case "OPENAPI":
		return EndpointOpenAPI
	case "RESTLI":
		return EndpointRestli
	}
	return EndpointAuto
}

// WithEndpoint sets the API the emitter writes and the client reads and
// writes through (default EndpointRestli); both take and answer the same
// values either way. Unlike DataHub's Python emitter, which picks its API
// from GET /config unless told otherwise, the SDK asks /config only with
// EndpointAuto; WithEndpoint(EndpointFromEnv()) gives the Python rule with
// its environment override.
func WithEndpoint(e Endpoint) Option {
	return Option{func(s *config.Settings) {
		if e < EndpointRestli || e > EndpointAuto {
			s.Invalid(fmt.Sprintf("datahub.WithEndpoint: unknown endpoint %d", int(e)))
			return
		}
		s.Endpoint = int(e)
	}}
}

// ParseEndpoint reads an endpoint's name in any case: "restli", "openapi"
// or "auto" (as a command-line flag gives it). Another name is an error
// wrapping [ErrValidation].
func ParseEndpoint(s string) (Endpoint, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "RESTLI":
		return EndpointRestli, nil
	case "OPENAPI":
		return EndpointOpenAPI, nil
	case "AUTO":
		return EndpointAuto, nil
	}
	return 0, fmt.Errorf("datahub: unknown endpoint %q (want restli, openapi or auto): %w", s, ErrValidation)
}
