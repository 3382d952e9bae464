// Command datahub-mock runs the DataHub mock metadata service of package
// mockserver as a standalone HTTP server, for tests in any language.
//
// Usage:
//
//	datahub-mock [-addr 127.0.0.1:8080] [-data DIR] [-token T]... [-seed FILE]
//	             [-async-lag 0s] [-control] [-log-level info]
//
// It prints its base URL (for example http://127.0.0.1:8080) as the first
// line on standard output once it listens, so that -addr 127.0.0.1:0 (a free
// port) can be used from scripts:
//
//	url=$(datahub-mock -addr 127.0.0.1:0 | head -n 1)
//
// Flags:
//
//	-addr       listen address; port 0 picks a free port
//	-data       keep aspects durably in DIR (bbolt); default in memory
//	-token      require "Authorization: Bearer T" on every route but /config
//	            (repeatable: any of the tokens is accepted)
//	-seed       preload a DataHub file-sink JSON array of proposals
//	-async-lag  delay before "async": "true" proposals become visible
//	-control    serve the control API under /__datahub_mock (faults, reset,
//	            received proposals, request counts; see mockserver.WithControl)
//	-log-level  debug (one line per request), info, warn or error
//
// SIGINT or SIGTERM stops it gracefully: requests in flight finish and
// pending async writes are applied before it exits.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/catalogkit/datahub-go/mockserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// tokenFlags collects repeated -token flags.
type tokenFlags []string

func (t *tokenFlags) String() string { return fmt.Sprintf("%d token(s)", len(*t)) }

func (t *tokenFlags) Set(v string) error {
	if v == "" {
		return errors.New("empty token")
	}
	*t = append(*t, v)
	return nil
}

// run is main without the process: it serves until ctx is done and returns
// the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("datahub-mock", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address; port 0 picks a free port")
	dataDir := fs.String("data", "", "keep aspects durably in this directory (bbolt); default in memory")
	var tokens tokenFlags
	fs.Var(&tokens, "token", "require `T` as a bearer token on every route but /config (repeatable)")
	seed := fs.String("seed", "", "preload this DataHub file-sink JSON `file` of proposals")
	asyncLag := fs.Duration("async-lag", 0, "delay before async proposals become visible")
	control := fs.Bool("control", false, "serve the control API under /__datahub_mock (faults, reset, proposals, request counts)")
	logLevel := fs.String("log-level", "info", "log level: debug (one line per request), info, warn or error")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "datahub-mock: unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "datahub-mock: -log-level: %v\n", err)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	s, err := mockserver.Open(
		mockserver.WithDataDir(*dataDir),
		mockserver.WithToken(tokens...),
		mockserver.WithAsyncLag(*asyncLag),
		mockserver.WithLogger(logger),
		mockserver.WithControl(*control),
		mockserver.WithRecording(*control), // received proposals are only readable through the control API
	)
	if err != nil {
		logger.Error("open", "error", err)
		return 1
	}
	if *seed != "" {
		n, err := seedFrom(s, *seed)
		if err != nil {
			logger.Error("seed", "file", *seed, "error", err)
			_ = s.Close()
			return 1
		}
		logger.Info("seeded", "file", *seed, "proposals", n)
	}

	l, err := net.Listen("tcp", *addr)
	if err != nil {
		logger.Error("listen", "addr", *addr, "error", err)
		_ = s.Close()
		return 1
	}
	url := "http://" + l.Addr().String()
	fmt.Fprintln(stdout, url)
	logger.Info("listening", "url", url, "data", *dataDir, "auth", len(tokens) > 0)

	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()

	code := 0
	select {
	case <-ctx.Done():
		logger.Info("shutting down")
	case err := <-served:
		logger.Error("serve", "error", err)
		code = 1
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		logger.Warn("shutdown", "error", err)
	}
	if err := s.Close(); err != nil {
		logger.Error("close", "error", err)
		code = 1
	}
	return code
}

func seedFrom(s *mockserver.Server, path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return s.LoadFile(f)
}
