package stateful_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/mockserver"
)

// The environment of the child process TestKillNineConverges kills: the
// mock's URL and which source the job syncs.
const (
	envKillURL    = "DATAHUB_GO_TEST_KILL9_URL"
	envKillSource = "DATAHUB_GO_TEST_KILL9_SOURCE"
)

// killSources are the sources the killed job syncs: the first run over all
// tables, and the next one (two tables gone, one changed, one new).
func killSources() map[string][]table {
	all := source(20)
	next := slices.Clone(all[2:])
	next[0].description = "changed"
	next = append(next, table{"t99", "new"})
	return map[string][]table{"all": all, "next": next}
}

// gate serves the mock and, once the mock has accepted stop proposals or
// more, holds every later request until released: the job is then stuck midway,
// at a request, with exactly the writes before it applied.
type gate struct {
	s       *mockserver.Server
	mu      sync.Mutex
	stop    int           // 0: never hold
	held    chan struct{} // closed when the first request is held
	release chan struct{} // closed to let held requests go
	once    sync.Once
}

// accepted counts the proposals the mock accepted.
func accepted(s *mockserver.Server) int {
	n := 0
	for _, p := range s.Proposals() {
		if p.Err == "" {
			n++
		}
	}
	return n
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	hold := g.stop > 0 && accepted(g.s) >= g.stop
	g.mu.Unlock()
	if hold {
		g.once.Do(func() { close(g.held) })
		<-g.release
		http.Error(w, "held", http.StatusServiceUnavailable)
		return
	}
	g.s.ServeHTTP(w, r)
}

// TestKillNineConverges: a sync job in another process, killed with
// SIGKILL (os.Process.Kill) once the mock has accepted N of its writes, and
// run again to completion, leaves the same store (the tables' aspects and
// the checkpoint's URNs) as an uninterrupted run, for kill points across the
// whole run: the first run of a pipeline and a later one that changes,
// adds and removes tables.
func TestKillNineConverges(t *testing.T) {
	if u := os.Getenv(envKillURL); u != "" {
		killChild(t, u, os.Getenv(envKillSource))
		return
	}
	t.Parallel()
	srcs := killSources()
	everything := append(slices.Clone(srcs["all"]), srcs["next"]...)

	// The uninterrupted runs: the store after each, and how many proposals
	// each run has the mock accept.
	want := map[string]map[string]string{}
	writes := map[string]int{}
	{
		s := mockserver.Start(t)
		c := newClient(t, s)
		for _, name := range []string{"all", "next"} {
			before := accepted(s)
			if _, err := syncTables(t.Context(), t, c, srcs[name]); err != nil {
				t.Fatal(err)
			}
			writes[name] = accepted(s) - before
			want[name] = storeOf(t, s, c, everything)
		}
	}
	t.Logf("an uninterrupted run has the mock accept %v proposals", writes)

	for _, name := range []string{"all", "next"} {
		total := writes[name]
		points := []int{1, total / 2, total - 1} // 0 and total would not be midway
		for _, n := range slices.Compact(points) {
			if n < 1 || n >= total {
				continue
			}
			t.Run(fmt.Sprintf("%s/after-%d-of-%d", name, n, total), func(t *testing.T) {
				t.Parallel()
				s := mockserver.New()
				t.Cleanup(func() { _ = s.Close() })
				g := &gate{s: s, held: make(chan struct{}), release: make(chan struct{})}
				srv := httptest.NewServer(g)
				t.Cleanup(srv.Close)
				c, err := client.New(srv.URL, testshared.EndpointOption())
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(c.CloseIdleConnections)
				if name == "next" { // the runs before the one killed
					if _, err := syncTables(t.Context(), t, c, srcs["all"]); err != nil {
						t.Fatal(err)
					}
				}
				g.mu.Lock()
				g.stop = accepted(s) + n
				g.mu.Unlock()

				cmd := exec.Command(os.Args[0], "-test.run=^TestKillNineConverges$", "-test.count=1")
				cmd.Env = append(os.Environ(), envKillURL+"="+srv.URL, envKillSource+"="+name)
				out := &syncBuffer{}
				cmd.Stdout, cmd.Stderr = out, out
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				exited := make(chan error, 1)
				go func() { exited <- cmd.Wait() }()
				select {
				case <-g.held:
				case err := <-exited:
					close(g.release)
					t.Fatalf("the job ended (%v) before the mock accepted %d of its proposals; its output:\n%s", err, n, out.String())
				case <-time.After(2 * time.Minute): // a bound on a hung child, not a measurement
					_ = cmd.Process.Kill()
					close(g.release)
					t.Fatalf("the job neither reached %d accepted proposals nor ended within 2 minutes; its output:\n%s", n, out.String())
				}
				if err := cmd.Process.Kill(); err != nil { // SIGKILL on Unix
					t.Fatal(err)
				}
				err = <-exited
				close(g.release)
				if cmd.ProcessState.Success() {
					t.Fatalf("the killed job exited successfully (%v)", err)
				}
				// A request carries several proposals (a Create, a batch): the
				// job is held at the first request after the one that took the
				// count to n or past it, and never finished.
				if got := accepted(s) - (g.stop - n); got < n || got >= total {
					t.Errorf("the mock accepted %d proposals of the killed job, want from %d to %d", got, n, total-1)
				}
				g.mu.Lock()
				g.stop = 0
				g.mu.Unlock()

				if _, err := syncTables(t.Context(), t, c, srcs[name]); err != nil {
					t.Fatalf("rerun after kill -9: %v", err)
				}
				if diff := cmp.Diff(want[name], storeOf(t, s, c, everything)); diff != "" {
					t.Errorf("killed after %d accepted proposals, rerun: store (-uninterrupted +got):\n%s", n, diff)
				}
			})
		}
	}
}

// killChild is the job TestKillNineConverges kills: one run over the
// source named src, against the mock at url.
func killChild(t *testing.T, url, src string) {
	tables, ok := killSources()[src]
	if !ok {
		t.Fatalf("unknown source %q", src)
	}
	c, err := client.New(url, testshared.EndpointOption())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := syncTables(context.Background(), t, c, tables)
	t.Logf("the job was not killed: %+v, %v", rep, err)
}

// syncBuffer is a buffer written by a child process's output copiers and
// read by the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
