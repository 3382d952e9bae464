// Command datahub-mock runs the DataHub mock metadata service of package
// mockserver as a standalone HTTP server, for tests in any language.
//
// Usage:
//
//	datahub-mock [-addr 127.0.0.1:8080] [-url-file PATH] [-data DIR] [-token T]...
//	             [-seed FILE] [-async-lag 0s] [-control] [-record] [-log-level info]
//
// Once it listens it prints its base URL (for example
// http://127.0.0.1:8080) as the only line on standard output and, with
// -url-file, writes the same line to PATH atomically (a reader never sees
// a partial URL). A script that picks a free port with -addr 127.0.0.1:0
// runs it in the background and waits for the file:
//
//	rm -f /tmp/datahub-mock.url
//	datahub-mock -addr 127.0.0.1:0 -url-file /tmp/datahub-mock.url &
//	mock=$!
//	until [ -s /tmp/datahub-mock.url ]; do kill -0 $mock || exit 1; sleep 0.1; done
//	url=$(cat /tmp/datahub-mock.url)
//	...
//	kill $mock; wait $mock
//
// (url=$(datahub-mock ... | head -n 1) hangs: the command substitution
// waits for the server to exit.)
//
// Flags:
//
//	-addr       listen address; port 0 picks a free port
//	-url-file   write the base URL to this file once listening (removed at exit)
//	-data       keep aspects in DIR (bbolt); default in memory. A second
//	            process on the same DIR fails at once: the file is locked
//	-token      require "Authorization: Bearer T" on every route but /config and /health
//	            (repeatable: any of the tokens is accepted)
//	-seed       preload a DataHub file-sink JSON array of proposals
//	-async-lag  delay before "async": "true" proposals become visible
//	-control    serve the control API under /__datahub_mock (faults, reset,
//	            received proposals, request counts; see mockserver.WithControl)
//	-record     keep a copy of every proposal received, for the control API's
//	            /proposals (off by default: it grows without bound)
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
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

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
	urlFile := fs.String("url-file", "", "write the base URL to this `file` once listening, atomically (removed at exit)")
	dataDir := fs.String("data", "", "keep aspects durably in this directory (bbolt); default in memory")
	var tokens tokenFlags
	fs.Var(&tokens, "token", "require `T` as a bearer token on every route but /config and /health (repeatable)")
	seed := fs.String("seed", "", "preload this DataHub file-sink JSON `file` of proposals")
	asyncLag := fs.Duration("async-lag", 0, "delay before async proposals become visible")
	control := fs.Bool("control", false, "serve the control API under /__datahub_mock (faults, reset, proposals, request counts)")
	record := fs.Bool("record", false, "keep a copy of every proposal received, for the control API's /proposals (grows without bound)")
	serverVersion := fs.String("server-version", mockserver.DefaultServerVersion, "DataHub `version` reported by GET /config (clients pick OpenAPI or Rest.li by it)")
	logLevel := fs.String("log-level", "info", "log level: debug (one line per request), info, warn or error")
	d := mockserver.DefaultTimeouts
	readTimeout := fs.Duration("read-timeout", d.Read, "close a connection whose request (body included) takes longer to arrive; negative: no limit")
	writeTimeout := fs.Duration("write-timeout", d.Write, "close a connection whose answer is not sent within this time after the request's headers; negative: no limit")
	idleTimeout := fs.Duration("idle-timeout", d.Idle, "close a keep-alive connection idle this long; negative: no limit")
	shutdownTimeout := fs.Duration("shutdown-timeout", d.Shutdown, "on SIGINT/SIGTERM, wait this long for requests in flight, then close their connections")
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
		mockserver.WithRecording(*record),
		mockserver.WithServerVersion(*serverVersion),
		mockserver.WithTimeouts(mockserver.Timeouts{Read: *readTimeout, Write: *writeTimeout, Idle: *idleTimeout, Shutdown: *shutdownTimeout}),
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

	if err := s.Listen(*addr); err != nil {
		logger.Error("listen", "addr", *addr, "error", err)
		_ = s.Close()
		return 1
	}
	url := s.URL()
	if *urlFile != "" {
		if err := writeFileAtomic(*urlFile, url+"\n"); err != nil {
			logger.Error("url file", "error", err)
			_ = s.Close()
			return 1
		}
		defer os.Remove(*urlFile)
	}
	fmt.Fprintln(stdout, url)
	logger.Info("listening", "url", url, "data", *dataDir, "auth", len(tokens) > 0)

	<-ctx.Done()
	logger.Info("shutting down")
	if err := s.Close(); err != nil {
		logger.Error("close", "error", err)
		return 1
	}
	return 0
}

// writeFileAtomic writes text to path through a temporary file in the same
// directory renamed over it, so that a reader sees nothing or all of it.
func writeFileAtomic(path, text string) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, werr := f.WriteString(text)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	return nil
}

func seedFrom(s *mockserver.Server, path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return s.LoadFile(f)
}
