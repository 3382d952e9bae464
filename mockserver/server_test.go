package mockserver

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRouting(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tests := []struct {
		name, method, target string
		status               int
		class, msg           string
	}{
		{"unknown resource", "GET", "/foo", 404, classRouting, "No root resource defined for path '/foo'"},
		{"unknown resource behind the front", "GET", "/api/gms/foo/bar", 404, classRouting, "No root resource defined for path '/foo'"},
		{"root", "GET", "/", 404, classRouting, ""},
		{"prefix lookalike", "GET", "/api/gmsx/aspects", 404, classRouting, "No root resource defined for path '/api'"},
		{"unknown action", "POST", "/aspects?action=foo", 400, classRouting,
			"POST operation named foo not supported on resource 'com.linkedin.metadata.resources.entity.AspectResource' URI: '/aspects?action=foo'"},
		{"action on an entity", "POST", "/aspects/" + dsPath + "?action=ingestProposal", 400, classRouting, "POST operation named ingestProposal not supported"},
		{"action by GET", "GET", "/aspects?action=ingestProposal", 400, classRouting,
			"All action methods (specified via 'action' in URI) must be submitted as a POST (was GET)"},
		{"collection GET", "GET", "/aspects", 400, classRouting, "GET operation not supported for URI: '/aspects' with X-RestLi-Method: ''"},
		{"PUT an aspect", "PUT", "/aspects/" + dsPath, 400, classRouting, "PUT operation not supported"},
		{"entitiesV2 batch get of a bad urn", "GET", "/entitiesV2?ids=List(a)", 400, classServiceException, "Invalid urn: a"},
		{"entitiesV2 without ids", "GET", "/entitiesV2", 400, classRouting, "GET operation not supported"},
		{"sub-resource", "GET", "/aspects/" + dsPath + "/x", 404, classRouting, ""},
		{"action without its parameters", "POST", "/entities?action=browse", 400, classServiceException,
			"Parameters of method 'browse' failed validation with error 'ERROR :: /entity :: field is required but not found and has no default value"},
		{"unknown action of another resource", "POST", "/runs?action=nope", 400, classRouting, "POST operation named nope not supported"},
		{"config by POST", "POST", "/config", 405, classServiceException, "Method POST is not allowed on /config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := wantRestliError(t, serve(t, s, tt.method, tt.target, `{}`), tt.status, tt.msg)
			if e.ExceptionClass != tt.class {
				t.Errorf("exceptionClass = %s, want %s", e.ExceptionClass, tt.class)
			}
		})
	}
}

func TestFrontPrefix(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	r := serve(t, s, http.MethodPost, "/api/gms/aspects?action=ingestProposal",
		ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": true}`), "false"))
	if r.Status != 200 {
		t.Fatalf("front ingest = %d %s", r.Status, r.Body)
	}
	r = serve(t, s, http.MethodPost, "/api/gms/aspects?action=ingestProposalBatch",
		batchBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description": "x"}`)))
	if r.Status != 200 {
		t.Fatalf("front batch = %d %s", r.Status, r.Body)
	}
	for _, prefix := range []string{"", "/api/gms"} {
		if got, status := aspectJSON(t, s, dsPath, "status", 0); status != 200 || got != `{"removed":true}` {
			t.Errorf("%q read = %d %s", prefix, status, got)
		}
	}
	want := map[Op]int{OpIngestProposal: 1, OpIngestProposalBatch: 1, OpGetAspect: 2}
	if diff := cmp.Diff(want, s.RequestCounts()); diff != "" {
		t.Errorf("request counts (-want +got):\n%s", diff)
	}
}

func TestAuth(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithClock(newFakeClock().Now), WithToken("first"), WithToken("tok-a", "tok-b"))
	body := ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`), "false")
	tests := []struct {
		name, auth, target string
		status             int
	}{
		{"no token", "", "/aspects?action=ingestProposal", 401},
		{"wrong token", "Bearer nope", "/aspects?action=ingestProposal", 401},
		{"earlier option lost (last wins)", "Bearer first", "/aspects?action=ingestProposal", 401},
		{"not bearer", "Basic dG9rLWE6", "/api/gms/aspects?action=ingestProposal", 401},
		{"unknown route needs a token too", "", "/foo", 401},
		{"token a", "Bearer tok-a", "/aspects?action=ingestProposal", 200},
		{"token b", "Bearer tok-b", "/api/gms/aspects?action=ingestProposal", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var hdr []string
			if tt.auth != "" {
				hdr = []string{"Authorization", tt.auth}
			}
			r := serve(t, s, http.MethodPost, tt.target, body, hdr...)
			if r.Status != tt.status {
				t.Fatalf("= %d %s", r.Status, r.Body)
			}
			if tt.status != 401 {
				return
			}
			// GMS's filter answers with a servlet error, not a Rest.li body.
			if r.Header.Get("X-RestLi-Error-Response") != "" {
				t.Errorf("401 carries X-RestLi-Error-Response")
			}
			path := strings.TrimPrefix(strings.SplitN(tt.target, "?", 2)[0], "/api/gms")
			want := `{"timestamp":"2026-01-02T03:04:05.000+00:00","status":401,"error":"Unauthorized","path":"` + path + `"}`
			if diff := cmp.Diff(want, r.Body); diff != "" {
				t.Errorf("401 body (-want +got):\n%s", diff)
			}
			if strings.Contains(r.Body, "nope") || strings.Contains(r.Body, "tok-") {
				t.Errorf("token echoed: %s", r.Body)
			}
		})
	}
	t.Run("config needs none", func(t *testing.T) {
		t.Parallel()
		if r := serve(t, s, http.MethodGet, "/config", ""); r.Status != 200 {
			t.Errorf("/config = %d", r.Status)
		}
	})
}

func TestAuthFailureChangesNothing(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithToken("t"))
	serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`), "false"))
	if got := storeRows(t, s); len(got) != 0 || len(s.Proposals()) != 0 {
		t.Errorf("state changed by an unauthenticated request: %v", got)
	}
}

func TestStart(t *testing.T) {
	t.Parallel()
	s := Start(t)
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") {
		t.Fatalf("URL() = %q", s.URL())
	}
	resp, err := http.Post(s.URL()+"/api/gms/aspects?action=ingestProposal", "application/json",
		strings.NewReader(ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`), "false")))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != `{"value":"success"}` {
		t.Fatalf("= %d %s", resp.StatusCode, b)
	}
	if New().URL() != "" {
		t.Error("URL() of a server without a listener is not empty")
	}
}

// TestCloseWaitsForRequests checks that Close returns only after the
// requests in flight finished, and that later requests get 503.
func TestCloseWaitsForRequests(t *testing.T) {
	t.Parallel()
	s := New()
	pr, pw := io.Pipe()
	req := httptest.NewRequest(http.MethodPost, "/aspects?action=ingestProposal", pr)
	rec := httptest.NewRecorder()
	served := make(chan struct{})
	go func() {
		defer close(served)
		s.ServeHTTP(rec, req)
	}()
	for s.RequestCount(OpIngestProposal) == 0 { // wait until the request is in flight
		time.Sleep(time.Millisecond)
	}
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case <-closed:
		t.Fatal("Close returned while a request was in flight")
	case <-time.After(50 * time.Millisecond):
	}
	if _, err := io.WriteString(pw, ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`), "false")); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	<-served
	if err := <-closed; err != nil {
		t.Fatalf("Close: %v", err)
	}
	if rec.Code != 200 {
		t.Errorf("in-flight request = %d %s", rec.Code, rec.Body)
	}
	wantRestliError(t, serve(t, s, http.MethodGet, "/config", ""), 503, "closed")
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestCloseSkipsUnusedConnections: a connection dialed but never used (a
// client's spare one) does not hold Close up, while a request in flight
// over the listener still does and gets its answer. http.Server.Shutdown
// alone waits 5 s for such a connection; the bound below is that wait,
// not a measure of speed (Close takes milliseconds).
func TestCloseSkipsUnusedConnections(t *testing.T) {
	t.Parallel()
	s := Start(t)
	addr := strings.TrimPrefix(s.URL(), "http://")
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	// A request in flight: its headers are sent, its body is not yet.
	busy, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	body := ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`), "false")
	fmt.Fprintf(busy, "POST /aspects?action=ingestProposal HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
	for s.RequestCount(OpIngestProposal) == 0 { // wait until the request is in flight
		time.Sleep(time.Millisecond)
	}
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	// The unused connection is closed by the server without waiting.
	_ = idle.SetReadDeadline(time.Now().Add(4 * time.Second))
	if n, err := idle.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Errorf("read on the unused connection = %d, %v; want EOF (closed by Close)", n, err)
	}
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) while a request was in flight", err)
	default:
	}
	io.WriteString(busy, body)
	resp, err := http.ReadResponse(bufio.NewReader(busy), nil)
	if err != nil {
		t.Fatalf("in-flight request: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("in-flight request = %d", resp.StatusCode)
	}
	if err := <-closed; err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestConcurrentWritersOverHTTP(t *testing.T) {
	t.Parallel()
	s := Start(t)
	const writers = 20 // every version within GMS's default retention of 20
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Go(func() {
			body := ingestBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description": "w`+itoa(i)+`"}`), "false")
			resp, err := http.Post(s.URL()+"/aspects?action=ingestProposal", "application/json", strings.NewReader(body))
			if err != nil {
				errs <- err
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				errs <- errors.New(resp.Status + " " + string(b))
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Versions are gap-free: history 1..19, latest at 0 with
	// systemMetadata.version "20", and every written value exactly once.
	seen := map[string]int{}
	for v := 0; v < writers; v++ {
		got, status := aspectJSON(t, s, dsPath, "datasetProperties", v)
		if status != 200 {
			t.Fatalf("version %d = %d %s", v, status, got)
		}
		seen[got]++
	}
	if _, status := aspectJSON(t, s, dsPath, "datasetProperties", writers); status != 404 {
		t.Errorf("version %d exists", writers)
	}
	for i := range writers {
		if v := `{"description":"w` + itoa(i) + `"}`; seen[v] != 1 {
			t.Errorf("%s seen %d times", v, seen[v])
		}
	}
	latest, err := s.store.Get(dsURN, "datasetProperties", 0)
	if err != nil {
		t.Fatal(err)
	}
	var sm struct{ Version string }
	if err := json.Unmarshal(latest.SystemMetadata, &sm); err != nil || sm.Version != itoa(writers) {
		t.Errorf("latest systemMetadata.version = %q (%v), want %d", sm.Version, err, writers)
	}
}

// TestConcurrentCompareAndSet runs read-modify-write loops with
// If-Version-Match: every increment lands exactly once.
func TestConcurrentCompareAndSet(t *testing.T) {
	t.Parallel()
	s := Start(t)
	const workers, increments = 8, 4
	client := &http.Client{Timeout: 10 * time.Second}
	read := func() (count int, version string) {
		resp, err := client.Get(s.URL() + "/entitiesV2/" + dsPath + "?aspects=List(datasetProperties)&alwaysIncludeKeyAspect=false")
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		defer resp.Body.Close()
		if resp.StatusCode == 404 {
			return 0, "-1"
		}
		var er struct {
			Aspects map[string]struct {
				Value struct {
					CustomProperties map[string]string `json:"customProperties"`
				} `json:"value"`
				SystemMetadata struct{ Version string } `json:"systemMetadata"`
			} `json:"aspects"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&er); err != nil {
			t.Error(err)
		}
		a := er.Aspects["datasetProperties"]
		n := len(a.Value.CustomProperties["n"])
		return n, a.SystemMetadata.Version
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range increments {
				for attempt := 0; ; attempt++ {
					if attempt > 200 {
						t.Error("too many conflicts")
						return
					}
					n, version := read()
					p := mcp("dataset", dsURN, "UPSERT", "datasetProperties",
						`{"customProperties": {"n": "`+strings.Repeat("x", n+1)+`"}}`)
					p["headers"] = map[string]string{"If-Version-Match": version}
					resp, err := client.Post(s.URL()+"/aspects?action=ingestProposal", "application/json",
						strings.NewReader(ingestBody(t, p, "false")))
					if err != nil {
						t.Error(err)
						return
					}
					resp.Body.Close()
					if resp.StatusCode == 200 {
						break
					}
					if resp.StatusCode != http.StatusPreconditionFailed {
						t.Errorf("write = %d", resp.StatusCode)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if n, version := read(); n != workers*increments || version != itoa(workers*increments) {
		t.Errorf("counter = %d at version %s, want %d", n, version, workers*increments)
	}
}

func TestLoggerGetsOneLinePerRequest(t *testing.T) {
	t.Parallel()
	var buf syncBuffer
	s := newServer(t, WithLogger(newTestLogger(&buf)), WithToken("secret-token"))
	serve(t, s, http.MethodGet, "/config?token=abc", "")
	serve(t, s, http.MethodGet, "/aspects/"+dsPath+"?aspect=status", "", "Authorization", "Bearer secret-token")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("log lines = %q", lines)
	}
	if !strings.Contains(lines[1], "op=getAspect") || !strings.Contains(lines[1], "status=404") {
		t.Errorf("log line = %s", lines[1])
	}
	if strings.Contains(buf.String(), "secret-token") || strings.Contains(buf.String(), "abc") {
		t.Errorf("secret in log: %s", buf.String())
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(WithDataDir(file)); err == nil {
		s.Close()
		t.Fatal("Open on a file as data directory succeeded")
	}
	defer func() {
		if recover() == nil {
			t.Error("New did not panic on a bad data directory")
		}
	}()
	New(WithDataDir(file))
}

func TestRecordingOff(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithRecording(false))
	ingest(t, s, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`))
	if n := len(s.Proposals()); n != 0 {
		t.Errorf("recorded %d proposals with recording off", n)
	}
}

// TestUnauthenticatedNotCounted: a request refused 401 is not counted in
// the request counts; an authenticated one and the public /config are. It
// failed before: the refused request was counted.
func TestUnauthenticatedNotCounted(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithToken("tok"))
	serve(t, s, http.MethodGet, "/aspects/"+dsPath+"?aspect=status", "")
	serve(t, s, http.MethodGet, "/aspects/"+dsPath+"?aspect=status", "", "Authorization", "Bearer wrong")
	if n := s.RequestCount(OpGetAspect); n != 0 {
		t.Errorf("%d refused requests counted", n)
	}
	serve(t, s, http.MethodGet, "/aspects/"+dsPath+"?aspect=status", "", "Authorization", "Bearer tok")
	serve(t, s, http.MethodGet, "/config", "")
	if n, c := s.RequestCount(OpGetAspect), s.RequestCount(OpConfig); n != 1 || c != 1 {
		t.Errorf("counts: get aspect %d, config %d; want 1 and 1", n, c)
	}
}
