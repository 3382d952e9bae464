package mockserver

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestRetryAfterWholeSeconds checks that an injected Retry-After is sent
// in whole seconds rounded up, as HTTP has it.
func TestRetryAfterWholeSeconds(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		retryAfter time.Duration
		want       string
	}{
		{time.Millisecond, "1"},
		{100 * time.Millisecond, "1"},
		{time.Second, "1"},
		{1001 * time.Millisecond, "2"},
		{MaxFaultDelay, "600"},
	} {
		s := newServer(t, WithFault(Fail(OpIngestProposal, FailSpec{Status: http.StatusTooManyRequests, Times: 1, RetryAfter: tt.retryAfter})))
		body := ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`), "false")
		r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", body)
		if got := r.Header.Get("Retry-After"); r.Status != http.StatusTooManyRequests || got != tt.want {
			t.Errorf("RetryAfter %v: %d with Retry-After %q, want 429 with %q", tt.retryAfter, r.Status, got, tt.want)
		}
	}
}

func TestFail(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithFault(Fail(OpIngestProposal, FailSpec{Status: http.StatusServiceUnavailable, Times: 2, RetryAfter: 1500 * time.Millisecond})))
	body := ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`), "false")
	var got []int
	var retryAfter []string
	for range 3 {
		r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", body)
		got = append(got, r.Status)
		retryAfter = append(retryAfter, r.Header.Get("Retry-After"))
		if r.Status == 503 {
			wantRestliError(t, r, 503, "Injected fault (datahub-mock): 503 Service Unavailable")
		}
	}
	if diff := cmp.Diff([]int{503, 503, 200}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"2", "2", ""}, retryAfter); diff != "" {
		t.Errorf("Retry-After (-want +got):\n%s", diff)
	}
	if n := len(s.Proposals()); n != 1 {
		t.Errorf("proposals recorded = %d, want 1 (failed requests are not handled)", n)
	}
	// Other operations are not affected; counts include failed requests.
	if r := serve(t, s, http.MethodGet, "/config", ""); r.Status != 200 {
		t.Errorf("/config = %d", r.Status)
	}
	if n := s.RequestCount(OpIngestProposal); n != 3 {
		t.Errorf("RequestCount = %d, want 3", n)
	}
}

func TestFailAtRunTime(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	s.Fail(OpGetAspect, FailSpec{Status: http.StatusTooManyRequests, Times: Forever}) // until cleared
	s.Fail(OpAny, FailSpec{Status: http.StatusInternalServerError, Times: 1})         // after the first: never reached for getAspect
	for range 3 {
		r := serve(t, s, http.MethodGet, "/aspects/"+dsPath+"?aspect=status", "")
		wantRestliError(t, r, 429, "429 Too Many Requests")
		if r.Header.Get("Retry-After") != "" {
			t.Errorf("Retry-After without retryAfter")
		}
	}
	wantRestliError(t, serve(t, s, http.MethodGet, "/config", ""), 500, "Injected fault")
	if r := serve(t, s, http.MethodGet, "/config", ""); r.Status != 200 {
		t.Errorf("second /config = %d", r.Status)
	}
	s.ClearFaults()
	if r := serve(t, s, http.MethodGet, "/aspects/"+dsPath+"?aspect=status", ""); r.Status != 404 {
		t.Errorf("after ClearFaults = %d", r.Status)
	}
}

func TestLatency(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const d = 50 * time.Millisecond
	s.Latency(OpConfig, d)
	start := time.Now()
	if r := serve(t, s, http.MethodGet, "/config", ""); r.Status != 200 {
		t.Fatalf("= %d", r.Status)
	}
	if el := time.Since(start); el < d {
		t.Errorf("answered after %v, want at least %v", el, d)
	}
}

// TestLatencyEndsAtClose checks that Close does not wait for injected
// latency: the delayed request is answered 503.
func TestLatencyEndsAtClose(t *testing.T) {
	t.Parallel()
	s := New(WithFault(Latency(OpAny, MaxFaultDelay)))
	done := make(chan response)
	go func() { done <- serve(t, s, http.MethodGet, "/config", "") }()
	for s.RequestCount(OpConfig) == 0 {
		time.Sleep(time.Millisecond)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wantRestliError(t, <-done, 503, "closed")
}

func TestDrop(t *testing.T) {
	t.Parallel()
	s := Start(t, WithFault(Drop(OpIngestProposal, 1)))
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	body := ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`), "false")
	post := func() (*http.Response, error) {
		return client.Post(s.URL()+"/aspects?action=ingestProposal", "application/json", strings.NewReader(body))
	}
	if resp, err := post(); err == nil {
		resp.Body.Close()
		t.Fatalf("dropped request answered %d", resp.StatusCode)
	}
	if got := storeRows(t, s); len(got) != 0 {
		t.Errorf("dropped request changed state: %v", got)
	}
	resp, err := post()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("second request = %d %s", resp.StatusCode, b)
	}
	// At run time, for every operation.
	s.Drop(OpAny, 1)
	if resp, err := client.Get(s.URL() + "/config"); err == nil {
		resp.Body.Close()
		t.Errorf("dropped /config answered %d", resp.StatusCode)
	}
}

// TestDropWithoutHijacker checks the fallback for writers that cannot be
// hijacked (HTTP/2, recorders): the handler aborts, as net/http expects.
func TestDropWithoutHijacker(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithFault(Drop(OpConfig, 1)))
	defer func() {
		if r := recover(); r != http.ErrAbortHandler {
			t.Errorf("recovered %v, want http.ErrAbortHandler", r)
		}
		if r := serve(t, s, http.MethodGet, "/config", ""); r.Status != 200 {
			t.Errorf("after the drop /config = %d", r.Status)
		}
	}()
	serve(t, s, http.MethodGet, "/config", "")
	t.Error("ServeHTTP returned normally")
}

// TestCommitThenDrop checks that a request under CommitThenDrop is applied
// and committed, and that the client gets a connection error instead of an
// answer; the next request is answered.
func TestCommitThenDrop(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		opts   []Option
		inject func(*Server)
		target string
		body   string
	}{
		{name: "option", opts: []Option{WithFault(CommitThenDrop(OpIngestProposal, 1))},
			target: "/aspects?action=ingestProposal",
			body:   ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed":true}`), "false")},
		{name: "method, batch", inject: func(s *Server) { s.CommitThenDrop(OpIngestProposalBatch, 1) },
			target: "/api/gms/aspects?action=ingestProposalBatch",
			body:   batchBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed":true}`))},
		{name: "control API", opts: []Option{WithControl(true)}, inject: func(s *Server) {
			if r := serve(t, s, http.MethodPost, ControlPrefix+"/faults", `{"op":"ingestProposal","times":1,"commitThenDrop":true}`); r.Status != 200 {
				t.Fatalf("control = %d %s", r.Status, r.Body)
			}
		}, target: "/aspects?action=ingestProposal",
			body: ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed":true}`), "false")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := Start(t, tt.opts...)
			if tt.inject != nil {
				tt.inject(s)
			}
			client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			resp, err := client.Post(s.URL()+tt.target, "application/json", strings.NewReader(tt.body))
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				t.Fatalf("request answered %d %s, want a connection error", resp.StatusCode, b)
			}
			got, err := s.GetAspectJSON(dsURN, "status", 0)
			if err != nil {
				t.Fatalf("the write was not committed: %v", err)
			}
			if diff := cmp.Diff(`{"removed":true}`, string(got)); diff != "" {
				t.Errorf("stored (-want +got):\n%s", diff)
			}
			// Used up: the same request is answered now.
			resp, err = client.Post(s.URL()+tt.target, "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatalf("second request: %v", err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("second request = %d %s", resp.StatusCode, b)
			}
		})
	}
}

// TestFaultValidate checks that invalid faults are refused naming the field
// (defect 11: Times 0 meant forever, status 200 and absurd delays were
// taken), by Inject, WithFault and the Server methods.
func TestFaultValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fault Fault
		msg   string // "" when valid
	}{
		{"fail", Fail(OpIngestProposal, FailSpec{Status: 503, Times: 2, RetryAfter: time.Second}), ""},
		{"fail forever", Fail(OpAny, FailSpec{Status: 429, Times: Forever}), ""},
		{"latency", Latency(OpConfig, MaxFaultDelay), ""},
		{"drop", Drop(OpGetAspect, 1), ""},
		{"commit then drop", CommitThenDrop(OpIngestProposal, Forever), ""},
		{"delay and status", Fault{Op: OpConfig, Times: 1, Delay: time.Millisecond, Status: 500}, ""},
		{"times 0", Fail(OpIngestProposal, FailSpec{Status: 503}), "Times must be a positive count or Forever, not 0"},
		{"negative times", Drop(OpIngestProposal, -1), "Times must be a positive count or Forever, not -1"},
		{"swapped status and times", Fail(OpIngestProposal, FailSpec{Status: 2, Times: 503}), "Status must be an error status (400 to 599), not 2"},
		{"success status", Fail(OpIngestProposal, FailSpec{Status: 200, Times: 1}), "not 200"},
		{"unknown op", Drop("ingestproposal", 1), `Op must be one of [ingestProposal`},
		{"absurd delay", Latency(OpAny, 1e12*time.Millisecond), "Delay must be between 0 and 10m0s, not 277777h46m40s"},
		{"negative delay", Latency(OpAny, -time.Second), "Delay must be between 0 and 10m0s"},
		{"absurd retry-after", Fail(OpAny, FailSpec{Status: 503, Times: 1, RetryAfter: time.Hour}), "RetryAfter must be between 0 and 10m0s"},
		{"retry-after without status", Fault{Op: OpAny, Times: 1, RetryAfter: time.Second, Drop: true}, "RetryAfter needs a Status"},
		{"does nothing", Fault{Op: OpAny, Times: 1}, "the fault does nothing"},
		{"two answers", Fault{Op: OpAny, Times: 1, Status: 503, Drop: true}, "Status excludes Drop and CommitThenDrop"},
		{"two drops", Fault{Op: OpAny, Times: 1, Drop: true, CommitThenDrop: true}, "Drop and CommitThenDrop exclude each other"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			check := func(what string, err error) {
				t.Helper()
				if tt.msg == "" {
					if err != nil {
						t.Errorf("%s: %v", what, err)
					}
					return
				}
				if err == nil || !strings.Contains(err.Error(), tt.msg) {
					t.Errorf("%s = %v, want an error containing %q", what, err, tt.msg)
				}
			}
			check("Validate", tt.fault.Validate())
			s := newServer(t)
			check("Inject", s.Inject(tt.fault))
			if tt.msg != "" {
				if n := len(s.faults); n != 0 {
					t.Errorf("Inject installed %d faults", n)
				}
			}
			_, err := Open(WithFault(tt.fault))
			check("Open(WithFault)", err)
		})
	}
}

func TestServerFaultMethodsPanicOnInvalidSpecs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		call func(*Server)
		msg  string
	}{
		{"Fail", func(s *Server) { s.Fail(OpIngestProposal, FailSpec{Status: 503, Times: 0}) }, "Times must be a positive count"},
		{"Latency", func(s *Server) { s.Latency(OpAny, time.Hour) }, "Delay must be between"},
		{"Drop", func(s *Server) { s.Drop(OpAny, 0) }, "Times must be a positive count"},
		{"CommitThenDrop", func(s *Server) { s.CommitThenDrop(OpAny, -2) }, "Times must be a positive count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			defer func() {
				err, _ := recover().(error)
				if err == nil || !strings.Contains(err.Error(), tt.msg) {
					t.Errorf("recovered %v, want an error containing %q", err, tt.msg)
				}
				if n := len(s.faults); n != 0 {
					t.Errorf("installed %d faults", n)
				}
			}()
			tt.call(s)
		})
	}
}
