package datahub

import (
	"fmt"
	"os"
	"strings"
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

// FromEnv reads the server URL and token from the environment, as DataHub's
// Python SDK does (DataHubClient.from_env, config_utils): the URL is
// DATAHUB_GMS_PROTOCOL://DATAHUB_GMS_HOST:DATAHUB_GMS_PORT when a port and
// a host are set, else DATAHUB_GMS_URL, else DATAHUB_GMS_HOST; the token is
// DATAHUB_GMS_TOKEN, sent with [WithToken] when set. Empty or blank
// variables count as unset. Unlike the Python SDK it reads no
// ~/.datahubenv file, and nothing in this SDK reads the environment unless
// FromEnv is called.
//
// It returns an error wrapping [ErrValidation] when no URL is set; the URL
// itself is checked by the constructor it is given to:
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
	if serverURL == "" {
		if port != "" {
			return "", nil, fmt.Errorf("datahub: %s is set but %s is not (and %s is not set either): %w", EnvGMSPort, EnvGMSHost, EnvGMSURL, ErrValidation)
		}
		return "", nil, fmt.Errorf("datahub: neither %s nor %s is set: %w", EnvGMSURL, EnvGMSHost, ErrValidation)
	}
	if token := get(EnvGMSToken); token != "" {
		opts = append(opts, WithToken(token))
	}
	return serverURL, opts, nil
}
