package emitter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// benchServer is the mock a side-by-side benchmark sends to (the SDK's
// side and the raw loop alike).
type benchServer interface {
	URL() string
	RequestCount(op mockserver.Op) int
}

// benchMock starts the mock for a side-by-side benchmark: in this process
// (mockserver.Start), or, when the environment variable BENCH_MOCK names a
// datahub-mock binary, that binary in a process of its own, as a real
// server is, started for the benchmark and stopped after it.
//
// In one process the mock's connection goroutines share the Go scheduler
// with the benchmark's: a request written while the SDK's callers keep
// every processor busy (encoding their proposals) is read only once a
// processor has nothing else to run, since the runtime polls the network
// then; a server in another process is woken by the kernel when the
// request arrives. In another process, the CPU time the benchmarks report
// is the client's alone.
func benchMock(b *testing.B) benchServer {
	bin := os.Getenv("BENCH_MOCK")
	if bin == "" {
		return mockserver.Start(b, mockserver.WithRecording(false))
	}
	return startProcessMock(b, bin)
}

// processMock is a datahub-mock process serving a benchmark.
type processMock struct {
	b   testing.TB
	url string
	hc  *http.Client
}

// startProcessMock runs the datahub-mock binary bin on a free port, with
// the control API (for request counts), and waits for its URL; the
// process is stopped when the benchmark ends.
func startProcessMock(b testing.TB, bin string) *processMock {
	b.Helper()
	urlFile := filepath.Join(b.TempDir(), "url")
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-url-file", urlFile, "-control", "-log-level", "warn")
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		b.Fatalf("start the mock %s: %v", bin, err)
	}
	// done is closed once the process has exited and its stderr is read
	// whole (waitErr set).
	var waitErr error
	done := make(chan struct{})
	go func() { waitErr = cmd.Wait(); close(done) }()
	b.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, err := os.ReadFile(urlFile)
		if err == nil && len(data) > 0 {
			return &processMock{b: b, url: strings.TrimSpace(string(data)), hc: pooledClient()}
		}
		select {
		case <-done:
			b.Fatalf("the mock %s exited before listening (%v): %s", bin, waitErr, stderr.String())
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-done
			b.Fatalf("the mock %s wrote no URL in 30s: %s", bin, stderr.String())
		}
	}
}

func (m *processMock) URL() string { return m.url }

// RequestCount asks the mock's control API how many requests of op it
// answered.
func (m *processMock) RequestCount(op mockserver.Op) int {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, m.url+mockserver.ControlPrefix+"/requests", nil)
	if err != nil {
		m.b.Fatal(err)
	}
	resp, err := m.hc.Do(req)
	if err != nil {
		m.b.Fatal(err)
	}
	defer resp.Body.Close()
	var counts struct {
		Value map[mockserver.Op]int `json:"value"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&counts); err != nil || resp.StatusCode != http.StatusOK {
		m.b.Fatalf("request counts: status %d: %v", resp.StatusCode, err)
	}
	return counts.Value[op]
}

// TestProcessMock checks the benchmarks' out-of-process mock: the
// datahub-mock binary, built here, started by startProcessMock, takes an
// emitter's batch and counts its request through the control API.
func TestProcessMock(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go tool to build the mock: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "datahub-mock")
	if out, err := exec.Command(goTool, "build", "-o", bin, "../mockserver/cmd/datahub-mock").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	m := startProcessMock(t, bin)
	r, err := emitter.NewREST(m.URL())
	if err != nil {
		t.Fatal(err)
	}
	ps := make([]emitter.Proposal, 3)
	for i := range ps {
		ps[i] = propertiesProposal(t, i, 0)
	}
	if err := r.Emit(context.Background(), ps...); err != nil {
		t.Fatal(err)
	}
	if got := m.RequestCount(mockserver.OpIngestProposalBatch); got != 1 {
		t.Errorf("ingestProposalBatch requests: %d, want 1", got)
	}
}
