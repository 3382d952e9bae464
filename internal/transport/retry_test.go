package transport

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/internal/config"
)

// TestNoReplay checks that a NoReplay request is replayed only after an
// attempt that provably did not apply it, and that its failure then
// matches datahub.ErrOutcomeUnknown; through StandardClient the same holds
// for a context marked with NoReplayContext.
func TestNoReplay(t *testing.T) {
	t.Parallel()
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	reset := &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}
	tests := []struct {
		name         string
		steps        []step
		wantAttempts int
		wantUnknown  bool
		wantOK       bool
	}{
		{name: "refused then 200", steps: []step{{err: refused}, {status: 200, body: "{}"}}, wantAttempts: 2, wantOK: true},
		{name: "503 then 200", steps: []step{{status: 503}, {status: 200, body: "{}"}}, wantAttempts: 2, wantOK: true},
		{name: "429 then 200", steps: []step{{status: 429}, {status: 200, body: "{}"}}, wantAttempts: 2, wantOK: true},
		{name: "reset", steps: []step{{err: reset}, {status: 200, body: "{}"}}, wantAttempts: 1, wantUnknown: true},
		{name: "500", steps: []step{{status: 500}, {status: 200, body: "{}"}}, wantAttempts: 1, wantUnknown: true},
		{name: "504", steps: []step{{status: 504}, {status: 200, body: "{}"}}, wantAttempts: 1, wantUnknown: true},
		{name: "503 then reset", steps: []step{{status: 503}, {err: reset}, {status: 200, body: "{}"}}, wantAttempts: 2, wantUnknown: true},
		{name: "refused every time", steps: []step{{err: refused}}, wantAttempts: 4},
		{name: "412", steps: []step{{status: 412}}, wantAttempts: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, st := newScripted(t, Config{Retry: fastRetry}, tt.steps...)
			_, err := c.Send(t.Context(), Request{Method: http.MethodPost, Path: "/aspects?action=ingestProposal", Body: []byte("{}"), NoReplay: true})
			if (err == nil) != tt.wantOK {
				t.Fatalf("err = %v, want success: %v", err, tt.wantOK)
			}
			if got := errors.Is(err, datahub.ErrOutcomeUnknown); got != tt.wantUnknown {
				t.Errorf("err = %v; ErrOutcomeUnknown: %v, want %v", err, got, tt.wantUnknown)
			}
			if n := st.count(); n != tt.wantAttempts {
				t.Errorf("%d attempts, want %d", n, tt.wantAttempts)
			}

			sc, sst := newScripted(t, Config{Retry: fastRetry}, tt.steps...)
			req, _ := http.NewRequestWithContext(NoReplayContext(t.Context()), http.MethodPost, "http://gms.example:8080/api/graphql", strings.NewReader("{}"))
			resp, err := sc.StandardClient().Do(req)
			if err == nil {
				resp.Body.Close()
			}
			if n := sst.count(); n != tt.wantAttempts {
				t.Errorf("StandardClient: %d attempts, want %d", n, tt.wantAttempts)
			}
		})
	}
}

// TestOutcomeUnknownWithoutNoReplay checks that a replayable request whose
// last attempt may have been applied fails with ErrOutcomeUnknown too, and
// that one that never reached the server does not.
func TestOutcomeUnknownWithoutNoReplay(t *testing.T) {
	t.Parallel()
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	tests := []struct {
		name        string
		steps       []step
		wantUnknown bool
	}{
		{name: "500 every time", steps: []step{{status: 500}}, wantUnknown: true},
		{name: "EOF every time", steps: []step{{err: io.EOF}}, wantUnknown: true},
		{name: "500 then 503", steps: []step{{status: 500}, {status: 503}}, wantUnknown: true},
		{name: "503 every time", steps: []step{{status: 503}}},
		{name: "refused every time", steps: []step{{err: refused}}},
		{name: "500 then 400", steps: []step{{status: 500}, {status: 400}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, _ := newScripted(t, Config{Retry: fastRetry}, tt.steps...)
			_, err := c.Do(t.Context(), http.MethodPost, "/aspects?action=ingestProposal", []byte("{}"))
			if err == nil {
				t.Fatal("want an error")
			}
			if got := errors.Is(err, datahub.ErrOutcomeUnknown); got != tt.wantUnknown {
				t.Errorf("err = %v; ErrOutcomeUnknown: %v, want %v", err, got, tt.wantUnknown)
			}
		})
	}
}

// TestReadNeverUnknown checks that a read (GET) fails with the plain
// error whatever happened to it: it changes nothing on the server.
func TestReadNeverUnknown(t *testing.T) {
	t.Parallel()
	for name, steps := range map[string][]step{
		"500 every time": {{status: 500}},
		"EOF every time": {{err: io.EOF}},
		"504 then EOF":   {{status: 504}, {err: io.EOF}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, st := newScripted(t, Config{Retry: fastRetry}, steps...)
			_, err := c.Do(t.Context(), http.MethodGet, "/aspects/x?aspect=status", nil)
			if err == nil || errors.Is(err, datahub.ErrOutcomeUnknown) || strings.Contains(err.Error(), "outcome unknown") {
				t.Errorf("err = %v, want an error that does not match ErrOutcomeUnknown", err)
			}
			if n := st.count(); n != fastRetry.MaxAttempts {
				t.Errorf("%d attempts, want %d", n, fastRetry.MaxAttempts)
			}
		})
	}
}

// TestDefaults checks that the settings before any option are what package
// datahub documents.
func TestDefaults(t *testing.T) {
	t.Parallel()
	s, err := Settings("test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Timeout != datahub.DefaultTimeout {
		t.Errorf("default timeout %v, want datahub.DefaultTimeout %v", s.Timeout, datahub.DefaultTimeout)
	}
	if p := resolve(s.Retry); p.attempts != datahub.DefaultMaxAttempts || p.check == nil || p.backoff == nil {
		t.Errorf("default policy %+v", p)
	}
	// A policy with attempts only keeps the default waits.
	s2, _ := Settings("test", []datahub.Option{datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 10})})
	p := resolve(s2.Retry)
	if p.attempts != 10 || p.backoff == nil {
		t.Errorf("policy with attempts only: %+v", p)
	}
	if d := p.backoff(1, nil); d < datahub.DefaultMinWait/2 {
		t.Errorf("policy with attempts only waits %v before the first retry, want about %v", d, datahub.DefaultMinWait)
	}
}

// Settings applies opts to the defaults as a constructor does and checks
// them.
func Settings(_ string, opts []datahub.Option) (config.Settings, error) {
	s := config.Defaults()
	config.ApplyClient(&s, opts)
	return s, Check(s)
}
