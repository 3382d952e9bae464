package client

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestFromEnvWriteSettings: DATAHUB_EMIT_MODE and
// DATAHUB_REST_EMITTER_DEFAULT_ENDPOINT reach the client's writes, in any
// case, and a value DataHub refuses is refused. It sets environment
// variables, so it does not run in parallel.
func TestFromEnvWriteSettings(t *testing.T) {
	s := mockserver.Start(t)
	for _, k := range []string{datahub.EnvGMSToken, datahub.EnvGMSHost, datahub.EnvGMSPort, datahub.EnvSkipConfig} {
		t.Setenv(k, "")
	}
	t.Setenv(datahub.EnvGMSURL, s.URL())
	for _, mode := range []emitter.EmitMode{emitter.EmitSyncPrimary, emitter.EmitSyncWait, emitter.EmitAsyncWait} {
		t.Setenv(datahub.EnvEmitMode, strings.ToLower(mode.String()))
		t.Setenv(datahub.EnvRestEmitterEndpoint, "openapi")
		c, err := FromEnv()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.CloseIdleConnections)
		if c.EmitMode() != mode {
			t.Errorf("%s=%s: client mode %s", datahub.EnvEmitMode, mode, c.EmitMode())
		}
		before := s.RequestCount(mockserver.OpV3Write)
		if _, err := c.Entities().Ensure(t.Context(), ensureTable(t, "env_"+mode.String(), "d")); err != nil {
			t.Fatal(err)
		}
		if s.RequestCount(mockserver.OpV3Write) == before {
			t.Errorf("%s=openapi: no OpenAPI write", datahub.EnvRestEmitterEndpoint)
		}
		want := mode == emitter.EmitAsyncWait
		for _, p := range s.Proposals()[len(s.Proposals())-1:] {
			if p.Async != want {
				t.Errorf("mode %s: proposal async = %v, want %v", mode, p.Async, want)
			}
		}
	}
	for k, v := range map[string]string{datahub.EnvEmitMode: "FAST", datahub.EnvRestEmitterEndpoint: "grpc"} {
		t.Setenv(datahub.EnvEmitMode, "")
		t.Setenv(datahub.EnvRestEmitterEndpoint, "")
		t.Setenv(k, v)
		if _, err := FromEnv(); !errors.Is(err, datahub.ErrValidation) || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%s: %v, want a validation error naming it", k, v, err)
		}
	}
	t.Setenv(datahub.EnvRestEmitterEndpoint, "")
	t.Setenv(datahub.EnvEmitMode, "ASYNC")
	if _, err := FromEnv(); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("DATAHUB_EMIT_MODE=ASYNC for the client: %v, want a validation error", err)
	}
}

// TestWithEmitModePerCall: a copy of the client writes in another mode and
// the original is unchanged; over Rest.li ASYNC_WAIT writes synchronously
// and says so once in the log.
func TestWithEmitModePerCall(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	var logs bytes.Buffer
	c, err := New(s.URL(), datahub.WithEndpoint(datahub.EndpointRestli), datahub.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	aw := c.WithEmitMode(emitter.EmitAsyncWait)
	if aw.EmitMode() != emitter.EmitAsyncWait || c.EmitMode() != emitter.EmitSyncPrimary {
		t.Fatalf("modes %s, %s", aw.EmitMode(), c.EmitMode())
	}
	for _, name := range []string{"a", "b"} {
		if _, err := aw.Entities().Ensure(t.Context(), ensureTable(t, name, "d")); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(logs.String(), "ASYNC_WAIT over Rest.li writes synchronously"); n != 1 {
		t.Errorf("degraded mode logged %d times, want once:\n%s", n, logs.String())
	}
	for _, p := range s.Proposals() {
		if p.Async {
			t.Errorf("ASYNC_WAIT over Rest.li sent async=true")
		}
	}
	if _, err := c.WithEmitMode(emitter.EmitAsync).Entities().Ensure(t.Context(), ensureTable(t, "c", "d")); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("ASYNC copy: %v, want a validation error", err)
	}
	if _, err := New(s.URL(), WithEmitMode(emitter.EmitAsync)); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("New with ASYNC: %v", err)
	}
}

// TestWithEmitModeOpenAPI: over OpenAPI a per-call ASYNC_WAIT copy writes
// asynchronously (and waits on the trace) while the client stays
// synchronous.
func TestWithEmitModeOpenAPI(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c, err := New(s.URL(), datahub.WithEndpoint(datahub.EndpointOpenAPI))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	if _, err := c.WithEmitMode(emitter.EmitAsyncWait).Entities().Ensure(t.Context(), ensureTable(t, "aw", "d")); err != nil {
		t.Fatal(err)
	}
	if s.RequestCount(mockserver.OpTraceWrite) == 0 {
		t.Error("ASYNC_WAIT over OpenAPI polled no trace")
	}
	n := len(s.Proposals())
	if _, err := c.Entities().Ensure(t.Context(), ensureTable(t, "sp", "d")); err != nil {
		t.Fatal(err)
	}
	for i, p := range s.Proposals() {
		if want := i < n; p.Async != want {
			t.Errorf("proposal %d (%s %s) async = %v, want %v", i, p.EntityURN, p.AspectName, p.Async, want)
		}
	}
}
