package datahub

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/catalogkit/datahub-go/internal/config"
)

// The environment variables FromEnv reads, as DataHub's Python SDK names
// them.
const (
	// EnvGMSURL is the server URL (a GMS root or a front end's /api/gms).
	EnvGMSURL = "DATAHUB_GMS_URL"
	// EnvGMSToken is the access token.
	EnvGMSToken = "DATAHUB_GMS_TOKEN"
	// EnvGMSHost, EnvGMSPort and EnvGMSProtocol are the older way to name
	// the server: with a port, the URL is protocol://host:port (protocol
	// "http" by default); without one, the host is taken as the URL.
	EnvGMSHost     = "DATAHUB_GMS_HOST"
	EnvGMSPort     = "DATAHUB_GMS_PORT"
	EnvGMSProtocol = "DATAHUB_GMS_PROTOCOL"
)

// The variables of DataHub's Python emitter that FromEnv also reads,
// whichever way the server is found.
const (
	// EnvRestEmitterEndpoint picks the write and read path: RESTLI or
	// OPENAPI, in any case ([WithEndpoint]).
	EnvRestEmitterEndpoint = "DATAHUB_REST_EMITTER_DEFAULT_ENDPOINT"
	// EnvEmitMode picks when a write returns: SYNC_PRIMARY, SYNC_WAIT,
	// ASYNC or ASYNC_WAIT, in any case (emitter.WithEmitMode, and the
	// writes of package client).
	EnvEmitMode = "DATAHUB_EMIT_MODE"
)

// emitModes are the names of emitter.EmitMode's values, in order.
var emitModes = []string{"SYNC_PRIMARY", "SYNC_WAIT", "ASYNC", "ASYNC_WAIT"}

// envWriteOptions returns the options of DATAHUB_REST_EMITTER_DEFAULT_ENDPOINT
// and DATAHUB_EMIT_MODE, refusing a value DataHub's Python emitter refuses.
func envWriteOptions(get func(string) string) ([]Option, error) {
	var opts []Option
	switch v := get(EnvRestEmitterEndpoint); {
	case v == "":
	case strings.EqualFold(v, "RESTLI"):
		opts = append(opts, WithEndpoint(EndpointRestli))
	case strings.EqualFold(v, "OPENAPI"):
		opts = append(opts, WithEndpoint(EndpointOpenAPI))
	default:
		return nil, fmt.Errorf("datahub: %s is %q: want RESTLI or OPENAPI: %w", EnvRestEmitterEndpoint, v, ErrValidation)
	}
	if v := get(EnvEmitMode); v != "" {
		i := slices.IndexFunc(emitModes, func(m string) bool { return strings.EqualFold(m, v) })
		if i < 0 {
			return nil, fmt.Errorf("datahub: %s is %q: want one of %s: %w", EnvEmitMode, v, strings.Join(emitModes, ", "), ErrValidation)
		}
		opts = append(opts, Option{func(s *config.Settings) {
			s.EmitMode = &i
			s.Emitter.Mode = i
			s.Emitter.ServerAsync = emitModes[i] == "ASYNC"
		}})
	}
	return opts, nil
}

// EnvSkipConfig, when "true" (in any case), makes FromEnv fail rather
// than read ~/.datahubenv when the environment names no server.
const EnvSkipConfig = "DATAHUB_SKIP_CONFIG"

// FromEnv reads the server URL and the settings to reach it as DataHub's
// Python SDK does (DataHubClient.from_env, with the CLI's
// load_client_config), with the same precedence:
//
//   - When the environment names a server, it alone is used: the URL is
//     DATAHUB_GMS_PROTOCOL://DATAHUB_GMS_HOST:DATAHUB_GMS_PORT when a port
//     and a host are set (protocol "http" by default), else
//     DATAHUB_GMS_URL, else DATAHUB_GMS_HOST; the token is
//     DATAHUB_GMS_TOKEN, sent with [WithToken] when set.
//   - Otherwise, unless DATAHUB_SKIP_CONFIG is "true", the file
//     ~/.datahubenv that DataHub's CLI writes (datahub init) is read: its
//     gms section's server and token, and, when set, timeout_sec
//     ([WithTimeout]), extra_headers ([WithHeaders]) and retry_max_times
//     ([WithRetry], that many retries after the first attempt).
//     DATAHUB_GMS_TOKEN is not used then, as in Python. Settings that need
//     an HTTP client of the caller's making (certificates, TLS
//     verification turned off, OAuth) are refused with an error saying so.
//
// Whichever way the server is found, DATAHUB_REST_EMITTER_DEFAULT_ENDPOINT
// (RESTLI or OPENAPI) gives [WithEndpoint], and DATAHUB_EMIT_MODE
// (SYNC_PRIMARY, SYNC_WAIT, ASYNC or ASYNC_WAIT) the emit mode of the
// emitter and of the client's writes, as they do for DataHub's Python
// emitter; a later option overrides either.
//
// Empty or blank variables count as unset. Nothing in this SDK reads the
// environment or the file unless FromEnv is called. It returns an error
// wrapping [ErrValidation] when neither names a server or the file does
// not read; the URL itself is checked by the constructor it is given to:
//
//	server, opts, err := datahub.FromEnv()
//	if err != nil { ... }
//	em, err := emitter.NewREST(server, opts...)
func FromEnv() (serverURL string, opts []Option, err error) {
	get := func(name string) string { return strings.TrimSpace(os.Getenv(name)) }
	host, port := get(EnvGMSHost), get(EnvGMSPort)
	switch {
	case host != "" && port != "":
		protocol := get(EnvGMSProtocol)
		if protocol == "" {
			protocol = "http"
		}
		serverURL = protocol + "://" + host + ":" + port
	case get(EnvGMSURL) != "":
		serverURL = get(EnvGMSURL)
	default:
		serverURL = host
	}
	if serverURL == "" && port != "" {
		return "", nil, fmt.Errorf("datahub: %s is set but %s is not (and %s is not set either): %w", EnvGMSPort, EnvGMSHost, EnvGMSURL, ErrValidation)
	}
	writeOpts, err := envWriteOptions(get)
	if err != nil {
		return "", nil, err
	}
	if serverURL != "" {
		if token := get(EnvGMSToken); token != "" {
			opts = append(opts, WithToken(token))
		}
		return serverURL, append(opts, writeOpts...), nil
	}
	if strings.EqualFold(get(EnvSkipConfig), "true") {
		return "", nil, fmt.Errorf("datahub: %s is true but neither %s nor %s is set: %w", EnvSkipConfig, EnvGMSURL, EnvGMSHost, ErrValidation)
	}
	serverURL, opts, err = fromEnvFile()
	if err != nil {
		return "", nil, err
	}
	return serverURL, append(opts, writeOpts...), nil
}

// fromEnvFile reads ~/.datahubenv.
func fromEnvFile() (string, []Option, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", nil, fmt.Errorf("datahub: neither %s nor %s is set, and there is no home directory to find ~/.datahubenv in (%v): %w", EnvGMSURL, EnvGMSHost, err, ErrValidation)
	}
	path := filepath.Join(home, ".datahubenv")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, fmt.Errorf("datahub: neither %s nor %s is set, and there is no %s (DataHub's CLI writes it with datahub init): %w", EnvGMSURL, EnvGMSHost, path, ErrValidation)
	}
	if err != nil {
		return "", nil, fmt.Errorf("datahub: read %s: %w: %w", path, err, ErrValidation)
	}
	f, err := parseEnvFile(data)
	if err != nil {
		return "", nil, fmt.Errorf("datahub: %s: %w: %w", path, err, ErrValidation)
	}
	if strings.TrimSpace(f.server) == "" {
		return "", nil, fmt.Errorf("datahub: %s has no gms.server: %w", path, ErrValidation)
	}
	var opts []Option
	if f.token != "" {
		opts = append(opts, WithToken(f.token))
	}
	if f.timeoutSec != nil {
		opts = append(opts, WithTimeout(time.Duration(*f.timeoutSec*float64(time.Second))))
	}
	if f.headers != nil {
		opts = append(opts, WithHeaders(f.headers))
	}
	if f.retryMaxTimes != nil {
		opts = append(opts, WithRetry(RetryPolicy{MaxAttempts: *f.retryMaxTimes + 1}))
	}
	return strings.TrimSpace(f.server), opts, nil
}
