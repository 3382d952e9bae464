package mockserver

import (
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

const (
	dsURN = "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
	// dsPath is dsURN as DataHub's Python client puts it in a path
	// (urllib.parse.quote(urn, safe="")).
	dsPath = "urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cdb.t%2CPROD%29"
)

// response is a recorded answer.
type response struct {
	Status int
	Header http.Header
	Body   string
}

// serve sends one request to h in process.
func serve(t testing.TB, h http.Handler, method, target, body string, header ...string) response {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-RestLi-Protocol-Version", "2.0.0")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	b, _ := io.ReadAll(rec.Result().Body)
	return response{Status: rec.Code, Header: rec.Header(), Body: string(b)}
}

// mcp builds a proposal object; value, when not "", is the aspect JSON text.
func mcp(entityType, urn, changeType, aspectName, value string) map[string]any {
	p := map[string]any{"entityType": entityType, "changeType": changeType, "aspectName": aspectName}
	if urn != "" {
		p["entityUrn"] = urn
	}
	if value != "" {
		p["aspect"] = map[string]any{"value": value, "contentType": "application/json"}
	}
	return p
}

// ingestBody is the body of ingestProposal for p.
func ingestBody(t testing.TB, p map[string]any, async string) string {
	t.Helper()
	body := map[string]any{"proposal": p}
	if async != "" {
		body["async"] = async
	}
	return mustJSON(t, body)
}

// batchBody is the body of ingestProposalBatch for ps.
func batchBody(t testing.TB, ps ...map[string]any) string {
	t.Helper()
	return mustJSON(t, map[string]any{"proposals": ps, "async": "false"})
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ingest posts one proposal and fails the test unless it is accepted.
func ingest(t testing.TB, h http.Handler, p map[string]any) {
	t.Helper()
	r := serve(t, h, http.MethodPost, "/aspects?action=ingestProposal", ingestBody(t, p, "false"))
	if r.Status != http.StatusOK || r.Body != `{"value":"success"}` {
		t.Fatalf("ingestProposal = %d %s", r.Status, r.Body)
	}
}

// restliErr decodes a Rest.li error answer.
type restliErr struct {
	Status         int    `json:"status"`
	Message        string `json:"message"`
	ExceptionClass string `json:"exceptionClass"`
	StackTrace     string `json:"stackTrace"`
}

// wantRestliError checks that r is a Rest.li error with status and a message
// containing msg, and returns the decoded body.
func wantRestliError(t testing.TB, r response, status int, msg string) restliErr {
	t.Helper()
	if r.Status != status {
		t.Errorf("status = %d, want %d (body %s)", r.Status, status, r.Body)
	}
	if got := r.Header.Get("X-RestLi-Error-Response"); got != "true" {
		t.Errorf("X-RestLi-Error-Response = %q, want true", got)
	}
	var e restliErr
	if err := json.Unmarshal([]byte(r.Body), &e); err != nil {
		t.Fatalf("error body %q: %v", r.Body, err)
	}
	if e.Status != status || !strings.Contains(e.Message, msg) {
		t.Errorf("error body = %+v, want status %d and message containing %q", e, status, msg)
	}
	if !strings.HasPrefix(e.StackTrace, e.ExceptionClass+" [HTTP Status:") {
		t.Errorf("stackTrace %q does not start with the exception class", e.StackTrace)
	}
	return e
}

// aspectJSON reads the latest aspect over HTTP and returns its JSON (the
// union member of VersionedAspect).
func aspectJSON(t testing.TB, h http.Handler, urnPath, aspect string, version int) (string, int) {
	t.Helper()
	r := serve(t, h, http.MethodGet, "/aspects/"+urnPath+"?aspect="+aspect+"&version="+itoa(version), "")
	if r.Status != http.StatusOK {
		return r.Body, r.Status
	}
	var va struct {
		Version int                        `json:"version"`
		Aspect  map[string]json.RawMessage `json:"aspect"`
	}
	if err := json.Unmarshal([]byte(r.Body), &va); err != nil || len(va.Aspect) != 1 {
		t.Fatalf("VersionedAspect %s: %v", r.Body, err)
	}
	for _, v := range va.Aspect {
		return string(v), r.Status
	}
	return "", r.Status
}

func itoa(i int) string { return strconv.Itoa(i) }

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file (run with -update to create): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// fakeClock is a settable clock for WithClock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func readTestdata(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("testdata", name))
}

// newChunkedRequest is a POST whose body length is unknown in advance.
func newChunkedRequest(t testing.TB, target, body string) *http.Request {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, target, io.NopCloser(strings.NewReader(body)))
	req.ContentLength = -1
	return req
}

// record serves req in process.
func record(h http.Handler, req *http.Request) response {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	b, _ := io.ReadAll(rec.Result().Body)
	return response{Status: rec.Code, Header: rec.Header(), Body: string(b)}
}

// newServer is New with Close registered on t.
func newServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := New(opts...)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func newTestLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// storeRows is the latest rows of s's store (an error fails the test).
func storeRows(t testing.TB, s *Server) []store.Aspect {
	t.Helper()
	all, err := s.store.All()
	if err != nil {
		t.Error(err)
	}
	return all
}
