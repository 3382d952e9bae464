package mockserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/graphql"
	"github.com/catalogkit/datahub-go/mockserver/internal/openapi"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// DataFile is the name of the bbolt file the server keeps in its data
// directory (see [WithDataDir]).
const DataFile = "datahub-mock.db"

// Server is a fake DataHub GMS: an [http.Handler] that serves DataHub's Rest.li
// write and read paths on a versioned aspect store. Create one with [New] or
// [Open] (no listener) or [Start] (listening, for tests). All methods are safe
// for concurrent use.
type Server struct {
	cfg   config
	store *store.Store

	// mu guards the fields below it (never held while calling the store,
	// except by the async queue's flush, which holds only asyncMu).
	mu        sync.Mutex
	closed    bool
	proposals []Proposal
	counts    map[Op]int
	gqlCounts map[string]int // GraphQL requests by operation name
	faults    []*fault

	inflight sync.WaitGroup // requests being handled
	closing  chan struct{}  // closed when Close starts
	closeErr error
	once     sync.Once

	// core holds GMS's rules over store and its search index (validation,
	// conditions, the async queue, reads, searches, the index's
	// operations); the handlers only decode the wire and answer.
	core *gms.Core

	// openapi serves the OpenAPI routes on core.
	openapi *openapi.Handler

	// gql serves /api/graphql on core, made on first use (graphql.go).
	gqlOnce sync.Once
	gql     *graphql.Handler
	gqlErr  error

	// Set by Start.
	httpSrv *http.Server
	url     string
	served  chan struct{} // closed when the listener's Serve returns
	// newConns are the listener's connections that have not sent a
	// request yet (http.StateNew), which Close closes rather than waiting
	// for them as http.Server.Shutdown does (5 s).
	connMu   sync.Mutex
	newConns map[net.Conn]struct{}
}

// Open returns a server configured by opts, without a listener: serve it
// with any [http.Server] or call its ServeHTTP directly. It fails only when
// the data directory of [WithDataDir] cannot be opened.
func Open(opts ...Option) (*Server, error) {
	cfg := newConfig(opts)
	if err := cfg.check(); err != nil {
		return nil, err
	}
	var st *store.Store
	if cfg.dataDir != "" {
		if err := os.MkdirAll(cfg.dataDir, 0o755); err != nil {
			return nil, fmt.Errorf("mockserver: data directory: %w", err)
		}
		var err error
		st, err = store.OpenBolt(filepath.Join(cfg.dataDir, DataFile), store.Clock(cfg.clock))
		if err != nil {
			return nil, fmt.Errorf("mockserver: open %s: %w", filepath.Join(cfg.dataDir, DataFile), err)
		}
	} else {
		st = store.OpenMemory(store.Clock(cfg.clock))
	}
	s := &Server{
		cfg:       cfg,
		store:     st,
		counts:    make(map[Op]int),
		gqlCounts: make(map[string]int),
		closing:   make(chan struct{}),
	}
	for _, f := range cfg.faults {
		s.faults = append(s.faults, newFault(f))
	}
	s.core = gms.New(st, gms.Options{Clock: cfg.clock, AsyncLag: cfg.asyncLag, Logger: cfg.logger, AcceptUnknown: cfg.lax,
		IndexPaused: cfg.indexPaused, NoDefaultAspects: cfg.noDefaultAspects, LenientMCPValidation: cfg.lenientMCPValidation,
		EntityVersioning: cfg.versioning})
	s.openapi = openapi.New(s.core, openapi.Hooks{Clock: cfg.clock, Receive: s.receive, EntityVersioning: cfg.versioning})
	if cfg.bootstrap {
		if err := s.core.SeedBootstrap(context.Background()); err != nil {
			_ = s.core.Close()
			_ = st.Close()
			return nil, fmt.Errorf("mockserver: bootstrap: %w", err)
		}
	}
	return s, nil
}

// New is [Open] for the common case that cannot fail (no [WithDataDir], or
// one known to work). Like httptest.NewServer when it cannot listen, it
// panics if the data directory cannot be opened; use Open to get the error.
func New(opts ...Option) *Server {
	s, err := Open(opts...)
	if err != nil {
		panic(err)
	}
	return s
}

// serve starts serving s on l in a goroutine owned by s; Close stops it and
// waits for it.
func (s *Server) serve(l net.Listener) {
	s.newConns = make(map[net.Conn]struct{})
	t := s.cfg.timeouts
	s.httpSrv = &http.Server{Handler: s, ConnState: s.trackConn,
		ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, WriteTimeout: t.Write, IdleTimeout: t.Idle}
	s.url = "http://" + l.Addr().String()
	s.served = make(chan struct{})
	go func() {
		defer close(s.served)
		_ = s.httpSrv.Serve(l)
	}()
}

// URL returns the base URL of a server made by [Start] or [Listen], such as
// "http://127.0.0.1:41234" ("" for a server without a listener). DataHub
// clients take it as their GMS address, or URL()+"/api/gms" as a front
// address.
func (s *Server) URL() string { return s.url }

// Close stops the server: it stops the listener of [Start], waits for the
// requests in flight (not for connections that have sent no request) at
// most Timeouts.Shutdown (then closes their connections and goes on),
// applies the async writes still pending (nothing acknowledged is lost) and
// closes the store. Requests after Close get 503.
// Close is idempotent.
func (s *Server) Close() error {
	s.once.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		close(s.closing)
		var errs []error
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		if d := s.cfg.timeouts.Shutdown; d > 0 {
			ctx, cancel = context.WithTimeout(ctx, d)
		}
		defer cancel()
		if s.httpSrv != nil {
			shut := make(chan error, 1)
			go func() { shut <- s.httpSrv.Shutdown(ctx) }()
			<-s.served // the listener is closed: no connection comes any more
			s.closeNewConns()
			if err := <-shut; errors.Is(err, context.DeadlineExceeded) {
				// Requests still running: their connections are closed, which
				// cancels their contexts.
				s.cfg.logger.Warn("shutdown timeout: closing the connections of the requests in flight",
					"timeout", s.cfg.timeouts.Shutdown)
				_ = s.httpSrv.Close()
			} else if err != nil {
				errs = append(errs, err)
			}
		}
		s.waitInflight(ctx)
		errs = append(errs, s.core.Close())
		errs = append(errs, s.store.Close())
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}

// waitInflight waits for the requests in flight until ctx is done (the
// shutdown deadline): a handler that outlives it finds the store closed.
func (s *Server) waitInflight(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		s.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		s.cfg.logger.Warn("shutdown timeout: closing the store under requests still running")
	}
}

// trackConn is the listener's http.Server.ConnState hook: it keeps the
// connections that have not started a request.
func (s *Server) trackConn(c net.Conn, st http.ConnState) {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	if st == http.StateNew {
		s.newConns[c] = struct{}{}
	} else {
		delete(s.newConns, c)
	}
}

// closeNewConns closes the connections that have not started a request, so
// that Shutdown waits only for the requests in flight (it would wait 5 s
// for a connection dialed but never used, such as a client's spare one).
func (s *Server) closeNewConns() {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	for c := range s.newConns {
		_ = c.Close()
		delete(s.newConns, c)
	}
}

// enter registers a request in flight; it reports false once Close started.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.inflight.Add(1)
	return true
}

// ServeHTTP serves DataHub's routes at /{path} (GMS address) and at
// /api/gms/{path} (front address).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w}
	rt := route(r)
	defer func() {
		if !s.cfg.logger.Enabled(r.Context(), slog.LevelDebug) {
			return
		}
		s.cfg.logger.LogAttrs(r.Context(), slog.LevelDebug, "request",
			slog.String("method", r.Method), slog.String("path", datahub.RedactURL(r.URL.RequestURI())), slog.String("op", string(rt.op)),
			slog.Int("status", sw.status), slog.Duration("duration", time.Since(start)))
	}()
	if !s.enter() {
		writeRestliError(sw, errorf(http.StatusServiceUnavailable, msgClosed), "")
		return
	}
	defer s.inflight.Done()
	sw.Header()["X-Datahub-Mock-Version"] = mockVersionValue // Set's canonical key, without a slice per answer
	if s.serveControl(sw, r, rt.path) {
		return
	}

	caller := gms.Caller{API: gms.APIRestli}
	if rt.openAPI || rt.op == OpGraphQL { // DataHub's tracing interceptor runs on every Spring route
		var tp string
		rt.v3.TraceID, tp = openapi.NewTraceParent(s.cfg.clock())
		sw.Header().Set("traceparent", tp)
		caller = gms.Caller{API: gms.APIOpenAPI, SourceIP: sourceIP(r), TraceID: rt.v3.TraceID}
		if rt.op == OpGraphQL {
			caller.API = gms.APIGraphQL
		}
	}
	// Authentication first, as GMS's filter runs before anything else: an
	// unauthenticated request neither triggers nor uses up a fault, and its
	// body is never read.
	if rt.op != OpConfig && rt.op != OpHealth {
		actor, ok := s.authenticate(r)
		if !ok {
			writeUnauthorized(sw, rt.path, s.cfg.clock())
			return
		}
		caller.Actor = actor
		r = r.WithContext(gms.WithCaller(r.Context(), caller))
	}
	s.mu.Lock()
	s.counts[rt.op]++ // authenticated requests only: a refused one never reached GMS's handlers
	s.mu.Unlock()
	a := s.takeFaults(rt.op)
	a.openAPI = rt.openAPI
	if s.applyFault(sw, r, a) {
		if a.drop {
			sw.status = -1
		}
		return
	}
	if rt.err != nil {
		s.writeRouteError(sw, rt, rt.err)
		return
	}
	if n := s.cfg.maxBodyBytes; n > 0 {
		if r.ContentLength > n {
			s.writeRouteError(sw, rt, errorf(http.StatusRequestEntityTooLarge, msgBodyTooLarge, n))
			return
		}
		r.Body = http.MaxBytesReader(sw, r.Body, n)
	}
	rt.ep.serve(s, sw, r, rt)
}

// writeRouteError answers a failure found before the handler in the shape
// of the route's servlet: Rest.li's error body, or the OpenAPI servlet's
// {"error": ...}.
func (s *Server) writeRouteError(w http.ResponseWriter, rt routed, e *restliError) {
	if rt.openAPI {
		openapi.WriteError(w, e.status, e.message, "")
		return
	}
	writeRestliError(w, e, "")
}

// authenticate returns the actor of r as GMS's authentication gives it
// ([gms.Core.Authenticate]), false when r is refused with 401.
func (s *Server) authenticate(r *http.Request) (string, bool) {
	return s.core.Authenticate(r.Context(), gms.Credentials{Tokens: s.cfg.tokens,
		Authorization: r.Header.Get("Authorization"), ActorHeader: r.Header.Get("X-DataHub-Actor")})
}

// authorized reports whether r is authenticated (see authenticate).
func (s *Server) authorized(r *http.Request) bool {
	_, ok := s.authenticate(r)
	return ok
}

// sourceIP is the client address GMS records for a request
// (RequestContext.extractSourceIP): X-Forwarded-For, else the remote
// address without its port.
func sourceIP(r *http.Request) string {
	if v := r.Header.Get("X-Forwarded-For"); v != "" {
		return v
	}
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// writeUnauthorized answers 401 as GMS's AuthenticationEnforcementFilter
// does: response.sendError(401, ...) rendered by the servlet container as
// its default JSON error (message not included), without the Rest.li header.
func writeUnauthorized(w http.ResponseWriter, path string, now time.Time) {
	body, _ := json.Marshal(servletErrorBody{
		Timestamp: now.UTC().Format("2006-01-02T15:04:05.000+00:00"),
		Status:    http.StatusUnauthorized,
		Error:     "Unauthorized",
		Path:      abbreviate(path),
	})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = w.Write(body)
}

// writeJSON answers 200 with v encoded without HTML escaping (so that raw
// aspect JSON embedded in v goes out byte for byte).
func writeJSON(w http.ResponseWriter, v any) {
	b, err := wire.MarshalJSON(v)
	if err != nil {
		writeRestliError(w, errorf(http.StatusInternalServerError, msgEncode, err), "")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-RestLi-Protocol-Version", "2.0.0")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// Header values every answer of their kind carries, shared (see
// writeSuccess).
var (
	jsonContentType  = []string{"application/json"}
	restliVersion    = []string{"2.0.0"}
	mockVersionValue = []string{mockVersion}
)

// success is Rest.li's answer to an action returning the string "success".
var success = []byte(`{"value":"success"}`)

func writeSuccess(w http.ResponseWriter) {
	// Header().Set with the keys already in canonical form and values no
	// answer changes (an Add appends to a copy: the slices are full).
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["X-Restli-Protocol-Version"] = restliVersion
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(success)
}

// statusWriter records the status for the request log; it unwraps for
// http.ResponseController (Hijack, Flush).
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
