// Package config holds the settings that the options of package datahub
// (shared) and of packages client and emitter (their own) write and that
// those packages read to build their transport.
//
// It imports nothing of this module, so that the root package can declare
// its Option type over [Settings] without an import cycle. Settings is not
// part of the public API: users only see datahub.Option, client.Option and
// emitter.Option values. The option types are declared here, with
// unexported methods, so that an option of one package given to another
// package's constructor is a compile error.
package config

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"strings"
	"time"
)

// DefaultTimeout bounds each attempt of a request unless an option says
// otherwise (30 s, as DataHub's Python emitter); datahub.DefaultTimeout
// documents it.
const DefaultTimeout = 30 * time.Second

// Retry is a retry policy as the transport reads it. Nil functions mean
// the defaults of package datahub; MaxAttempts 0 means the default count.
type Retry struct {
	// Set reports whether an option gave the policy; false means the
	// default policy of datahub.DefaultRetryPolicy.
	Set         bool
	MaxAttempts int
	CheckRetry  func(ctx context.Context, resp *http.Response, err error) (bool, error)
	Backoff     func(attempt int, resp *http.Response) time.Duration
}

// Emitter holds the settings only a REST emitter reads.
type Emitter struct {
	ServerAsync bool
	// Mode is emitter.WithEmitMode's value (0: SYNC_PRIMARY).
	Mode            int
	MaxBatchSize    int // 0: the emitter's default
	MaxBatchBytes   int // 0: the emitter's default
	IsolateRejected *bool
}

// Client holds the settings only package client reads.
type Client struct {
	// GraphQLURL is client.WithGraphQLURL's endpoint ("" derives it).
	GraphQLURL string
	// Actor is the actor URN of the audit stamps the helpers write; ""
	// means the client's default.
	Actor string
	// ConflictSet reports whether an option gave the conflict policy.
	ConflictSet      bool
	ConflictAttempts int
	ConflictMinWait  time.Duration
	ConflictMaxWait  time.Duration
	// WriteStrategy is client.WithWriteStrategy's value (0: conditional).
	WriteStrategy int
	// RequireEntity is client.WithRequireEntity's value.
	RequireEntity bool
	// IncrementalLineage is client.WithIncrementalLineage's value.
	IncrementalLineage bool
}

// Settings is what the options of every package write.
type Settings struct {
	Token      string
	Headers    map[string]string
	HTTPClient *http.Client
	// Timeout bounds each attempt; 0 keeps the HTTP client's own.
	Timeout time.Duration
	Retry   Retry
	Logger  *slog.Logger

	// MaxResponseBytes is the largest successful response body read; 0
	// means the transport's default.
	MaxResponseBytes int64

	// Endpoint is datahub.WithEndpoint's value (0: Rest.li).
	Endpoint int
	// EmitMode, when not nil, is the emit mode (emitter.EmitMode's value)
	// of the writes of every package: DATAHUB_EMIT_MODE through
	// datahub.FromEnv, or client.WithEmitMode.
	EmitMode *int

	Emitter Emitter
	Client  Client

	// invalid holds the reasons options refused their values.
	invalid []string
}

// Invalid records that an option was given a value it refuses; Err
// reports it at construction.
func (s *Settings) Invalid(reason string) {
	s.invalid = append(s.invalid, reason)
}

// Err returns an error listing the values options refused, nil when there
// were none.
func (s *Settings) Err() error {
	if len(s.invalid) == 0 {
		return nil
	}
	return fmt.Errorf("invalid options: %s", strings.Join(s.invalid, "; "))
}

// Defaults returns the settings before any option: DefaultTimeout, the
// default retry policy, no token, no logger.
func Defaults() Settings {
	return Settings{Timeout: DefaultTimeout}
}

// Shared returns the settings every package reads (token, headers, HTTP
// client, timeout, retry policy, logger, endpoint, limits), without the
// package-specific ones.
// A package that builds another with its own settings (the client its
// emitter) passes them whole (an option whose body is [Settings.Apply]), so that no setting
// is dropped on the way.
func (s Settings) Shared() Settings {
	s.Emitter, s.Client = Emitter{}, Client{}
	s.invalid = nil
	if s.Headers != nil {
		s.Headers = maps.Clone(s.Headers)
	}
	return s
}

// Apply sets dst to s: the body of an option that hands resolved settings
// to another package's constructor.
func (s Settings) Apply(dst *Settings) { *dst = s }

// Shared is an option every package reads (those of package datahub).
// A nil Shared does nothing.
type Shared func(*Settings)

func (f Shared) clientOption(s *Settings) {
	if f != nil {
		f(s)
	}
}

func (f Shared) emitterOption(s *Settings) {
	if f != nil {
		f(s)
	}
}

// ClientOnly is an option only package client reads.
type ClientOnly func(*Settings)

func (f ClientOnly) clientOption(s *Settings) { f(s) }

// EmitterOnly is an option only package emitter reads.
type EmitterOnly func(*Settings)

func (f EmitterOnly) emitterOption(s *Settings) { f(s) }

// ClientOption is what package client's constructor takes: a Shared or a
// ClientOnly option. Its method is unexported, so only this package's
// types satisfy it and an emitter option given to the client does not
// compile.
type ClientOption interface{ clientOption(*Settings) }

// EmitterOption is what package emitter's constructor takes: a Shared or
// an EmitterOnly option.
type EmitterOption interface{ emitterOption(*Settings) }

// ApplyClient applies opts (nil ones skipped) to s.
func ApplyClient[O ClientOption](s *Settings, opts []O) {
	for _, o := range opts {
		if any(o) != nil {
			o.clientOption(s)
		}
	}
}

// ApplyEmitter applies opts (nil ones skipped) to s.
func ApplyEmitter[O EmitterOption](s *Settings, opts []O) {
	for _, o := range opts {
		if any(o) != nil {
			o.emitterOption(s)
		}
	}
}
