package mockserver_test

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestUnauthenticatedRequestDoesNotTriggerFault: with a fault installed, a
// request without a valid token gets 401, and the fault stays for the next
// authenticated request.
func TestUnauthenticatedRequestDoesNotTriggerFault(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithToken("secret"),
		mockserver.WithFault(mockserver.Fail(mockserver.OpIngestProposal, mockserver.FailSpec{Status: http.StatusServiceUnavailable, Times: 1})))
	ds, err := urn.NewDataset("hive", "db.t", "PROD")
	if err != nil {
		t.Fatal(err)
	}
	p, err := emitter.NewProposal(ds, aspects.Status{Removed: false})
	if err != nil {
		t.Fatal(err)
	}
	once := datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 1})
	for _, token := range []string{"", "wrong"} {
		em, err := emitter.NewREST(s.URL(), datahub.WithToken(token), once)
		if err != nil {
			t.Fatal(err)
		}
		if err := em.Emit(t.Context(), p); !errors.Is(err, datahub.ErrUnauthorized) {
			t.Errorf("token %q: Emit = %v, want 401", token, err)
		}
	}
	em, err := emitter.NewREST(s.URL(), datahub.WithToken("secret"), once)
	if err != nil {
		t.Fatal(err)
	}
	var de *datahub.Error
	if err := em.Emit(t.Context(), p); !errors.As(err, &de) || de.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("authenticated Emit = %v, want the fault's 503 (still installed)", err)
	}
	if err := em.Emit(t.Context(), p); err != nil {
		t.Errorf("Emit after the fault = %v", err)
	}
}

// TestSlowClientsCutOff: a client that sends its body too slowly, and a
// keep-alive connection left idle, are closed by the server after the
// configured read and idle timeouts. The test's own deadline only guards
// against a server that never closes them.
func TestSlowClientsCutOff(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithTimeouts(mockserver.Timeouts{Read: 300 * time.Millisecond, Idle: 300 * time.Millisecond}))
	addr := strings.TrimPrefix(s.URL(), "http://")
	const guard = 20 * time.Second
	closedByServer := func(t *testing.T, c net.Conn, r *bufio.Reader) {
		t.Helper()
		_ = c.SetReadDeadline(time.Now().Add(guard))
		_, err := io.Copy(io.Discard, r)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("the server kept the connection open for %v", guard)
		}
	}
	t.Run("slow body", func(t *testing.T) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, err = io.WriteString(c, "POST /aspects?action=ingestProposal HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"proposal\":")
		if err != nil {
			t.Fatal(err)
		}
		closedByServer(t, c, bufio.NewReader(c))
	})
	t.Run("idle keep-alive", func(t *testing.T) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := io.WriteString(c, "GET /config HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(c)
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Close {
			t.Fatalf("GET /config = %d (close %v), want a kept-alive 200", resp.StatusCode, resp.Close)
		}
		closedByServer(t, c, r)
	})
}

// TestCloseBoundedByShutdownTimeout: Close returns after the shutdown
// timeout although a request is still in flight (a client stalled in the
// middle of its body, with no read timeout), closing its connection.
func TestCloseBoundedByShutdownTimeout(t *testing.T) {
	t.Parallel()
	s, err := mockserver.Listen("127.0.0.1:0", mockserver.WithTimeouts(mockserver.Timeouts{Read: -1, Shutdown: 200 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "POST /aspects?action=ingestProposal HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	// The request is in flight once the server counts it.
	for s.RequestCount(mockserver.OpIngestProposal) == 0 {
		time.Sleep(time.Millisecond)
	}
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case <-closed:
	case <-time.After(20 * time.Second): // a guard against a Close that never returns
		t.Fatal("Close did not return with a request in flight")
	}
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.Copy(io.Discard, c); errors.Is(err, os.ErrDeadlineExceeded) {
		t.Error("the stalled request's connection stayed open after Close")
	}
}
