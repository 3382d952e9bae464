// Package serverconfig reads the answer of GMS's GET /config: the server's
// version, type and capabilities, with the rules DataHub's Python client
// applies to them (server_config_util.py). The emitter picks its write path
// with it; the client reports it.
package serverconfig

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/transport"
)

// Info is what GET /config says about the server.
type Info struct {
	// Version is versions["acryldata/datahub"].version as reported
	// ("v1.2.0"); "" when absent.
	Version string
	// Parts are the version's numbers (major, minor, patch, build); all 0
	// when the version does not parse.
	Parts [4]int
	// ServerType is datahub.serverType ("unknown" when absent);
	// ServerEnv is datahub.serverEnv ("core" for open-source DataHub).
	ServerType, ServerEnv string
	// NoCode reports noCode == "true": the server is GMS (DataHub's front
	// end answers /config otherwise).
	NoCode bool
	// PatchCapable, StatefulIngestion, ImpactAnalysis and CLITelemetry are
	// patchCapable, statefulIngestionCapable, supportsImpactAnalysis and
	// telemetry.enabledCli.
	PatchCapable, StatefulIngestion, ImpactAnalysis, CLITelemetry bool
}

// versionRE is the Python client's version pattern.
var versionRE = regexp.MustCompile(`^(\d+)\.(\d+)\.(\d+)(?:\.(\d+))?(?:rc\d+|-.*)?`)

// Parse reads a /config answer. It fails only when body is not a JSON
// object.
func Parse(body []byte) (Info, error) {
	var raw struct {
		NoCode                   any  `json:"noCode"`
		PatchCapable             bool `json:"patchCapable"`
		StatefulIngestionCapable bool `json:"statefulIngestionCapable"`
		SupportsImpactAnalysis   bool `json:"supportsImpactAnalysis"`
		Versions                 map[string]struct {
			Version *string `json:"version"`
		} `json:"versions"`
		Datahub struct {
			ServerType string `json:"serverType"`
			ServerEnv  string `json:"serverEnv"`
		} `json:"datahub"`
		Telemetry struct {
			EnabledCLI bool `json:"enabledCli"`
		} `json:"telemetry"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return Info{}, fmt.Errorf("the /config answer is not a JSON object: %w", err)
	}
	in := Info{
		NoCode:            raw.NoCode == "true",
		PatchCapable:      raw.PatchCapable,
		StatefulIngestion: raw.StatefulIngestionCapable,
		ImpactAnalysis:    raw.SupportsImpactAnalysis,
		CLITelemetry:      raw.Telemetry.EnabledCLI,
		ServerType:        raw.Datahub.ServerType,
		ServerEnv:         raw.Datahub.ServerEnv,
	}
	if in.ServerType == "" {
		in.ServerType = "unknown"
	}
	if v := raw.Versions["acryldata/datahub"].Version; v != nil {
		in.Version = *v
		in.Parts = ParseVersion(*v)
	}
	return in, nil
}

// ParseVersion reads a DataHub version as the Python client does: an
// optional "v", then major.minor.patch[.build], then an optional rcN or
// -suffix; anything else (or "null") is 0.0.0.0.
func ParseVersion(v string) [4]int {
	var out [4]int
	m := versionRE.FindStringSubmatch(strings.TrimPrefix(strings.TrimSpace(v), "v"))
	if m == nil {
		return out
	}
	for i := range 4 {
		out[i], _ = strconv.Atoi(m[i+1])
	}
	return out
}

// Cloud reports a DataHub Cloud server: serverEnv set and not "core".
func (in Info) Cloud() bool { return in.ServerEnv != "" && in.ServerEnv != "core" }

// AtLeast reports whether the version is at least want.
func (in Info) AtLeast(want [4]int) bool {
	for i := range 4 {
		if in.Parts[i] != want[i] {
			return in.Parts[i] > want[i]
		}
	}
	return true
}

// OpenAPI reports whether the server takes writes through the OpenAPI v3
// entity API and traces them, as DataHub's Python client decides
// (OPEN_API_SDK, API_TRACING): core 1.0.1 or later, Cloud 0.3.11 or later.
func (in Info) OpenAPI() bool {
	if in.Cloud() {
		return in.AtLeast([4]int{0, 3, 11, 0})
	}
	return in.AtLeast([4]int{1, 0, 1, 0})
}

// Resolver decides once, from GET /config, whether a server takes the
// OpenAPI v3 entity API (for datahub.EndpointAuto), and remembers the
// answer. It is safe for concurrent use.
type Resolver struct {
	mu      sync.Mutex
	decided bool
	openAPI bool
}

// OpenAPI reports whether the server tc talks to supports OpenAPI, reading
// GET /config on the first call. A server whose /config cannot be read is
// taken as one without (the decision is kept), except when ctx ended first
// (then nothing is decided).
func (r *Resolver) OpenAPI(ctx context.Context, tc *transport.Client, log *slog.Logger) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.decided {
		return r.openAPI
	}
	resp, err := tc.Send(ctx, transport.Request{Method: http.MethodGet, Path: "/config"})
	if err != nil {
		if ctx.Err() != nil {
			return false
		}
		if log != nil {
			log.LogAttrs(ctx, slog.LevelWarn, "datahub: GET /config failed; talking Rest.li", slog.String("error", err.Error()))
		}
		r.decided = true
		return false
	}
	in, perr := Parse(resp.Body)
	r.decided, r.openAPI = true, perr == nil && in.OpenAPI()
	return r.openAPI
}
