package mockserver

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

func TestListen(t *testing.T) {
	t.Parallel()
	s, err := Listen("127.0.0.1:0", WithToken("tok"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") || strings.HasSuffix(s.URL(), ":0") {
		t.Errorf("URL = %q", s.URL())
	}
	resp, err := http.Get(s.URL() + "/config")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"noCode":"true"`) {
		t.Errorf("GET /config = %d %s", resp.StatusCode, b)
	}
	if err := s.Listen("127.0.0.1:0"); err == nil || !strings.Contains(err.Error(), "already serving at "+s.URL()) {
		t.Errorf("second Listen = %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(s.URL() + "/config"); err == nil {
		t.Error("still serving after Close")
	}
	if err := s.Listen("127.0.0.1:0"); err == nil || !strings.Contains(err.Error(), "server closed") {
		t.Errorf("Listen after Close = %v", err)
	}
}

func TestListenErrors(t *testing.T) {
	t.Parallel()
	if s, err := Listen("256.0.0.1:99999"); err == nil || !strings.Contains(err.Error(), "mockserver: listen: ") {
		t.Errorf("Listen on a bad address = %v, %v", s, err)
	}
	if s, err := Listen("127.0.0.1:0", WithFault(Fault{Op: OpAny})); err == nil || !strings.Contains(err.Error(), "Times must be") {
		t.Errorf("Listen with an invalid fault = %v, %v", s, err)
	}
}

// TestStartWithTester runs Start with a Tester that is not a *testing.T:
// a failure is reported through Fatalf, and the cleanup closes the server.
func TestStartWithTester(t *testing.T) {
	t.Parallel()
	var ft fakeTester
	if s := Start(&ft, WithFault(Drop(OpAny, 0))); s != nil || len(ft.fatals) != 1 || !strings.Contains(ft.fatals[0], "mockserver.Start: mockserver: invalid fault") {
		t.Errorf("Start with an invalid fault = %v, fatals %q", s, ft.fatals)
	}
	ft = fakeTester{}
	s := Start(&ft)
	if len(ft.cleanups) != 1 {
		t.Fatalf("%d cleanups registered", len(ft.cleanups))
	}
	ft.cleanups[0]()
	if len(ft.errors) != 0 {
		t.Errorf("cleanup reported %q", ft.errors)
	}
	if _, err := http.Get(s.URL() + "/config"); err == nil {
		t.Error("still serving after the cleanup")
	}
}

// TestOpenLockedDataDir checks that a data directory in use fails a second
// Open with a message naming the locked file (it said "timeout" after 5 s).
func TestOpenLockedDataDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	newServer(t, WithDataDir(dir))
	s, err := Open(WithDataDir(dir))
	if err == nil {
		_ = s.Close()
		t.Fatal("second Open on the same data directory succeeded")
	}
	want := filepath.Join(dir, DataFile) + " is locked by another process"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("second Open = %v, want it to contain %q", err, want)
	}
}
