package mockserver

import (
	"errors"
	"fmt"
	"net"
)

// Tester is the part of testing.TB that [Start], [Server.CheckAspect] and
// [Check] use. *testing.T, *testing.B and *testing.F satisfy it. The
// package does not import testing, so that a main that runs the mock (see
// [Listen]) does not link the testing package and its flags.
type Tester interface {
	Helper()
	Cleanup(func())
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Start returns a server listening on 127.0.0.1 at a free port, closed by
// tb.Cleanup. Its address is [Server.URL]. An invalid option (such as an
// invalid [WithFault] fault) or a data directory that cannot be opened
// fails tb.
func Start(tb Tester, opts ...Option) *Server {
	tb.Helper()
	s, err := Open(opts...)
	if err != nil {
		tb.Fatalf("mockserver.Start: %v", err)
		return nil
	}
	if err := s.Listen("127.0.0.1:0"); err != nil {
		_ = s.Close()
		tb.Fatalf("mockserver.Start: %v", err)
		return nil
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("mockserver: close: %v", err)
		}
	})
	return s
}

// Listen returns a server configured by opts and serving on addr (such as
// "127.0.0.1:8080", or "127.0.0.1:0" for a free port), for a main or any
// program that is not a test. [Server.URL] is its address once Listen
// returns; [Server.Close] stops it:
//
//	s, err := mockserver.Listen("127.0.0.1:0", mockserver.WithDataDir(dir))
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	fmt.Println(s.URL())
func Listen(addr string, opts ...Option) (*Server, error) {
	s, err := Open(opts...)
	if err != nil {
		return nil, err
	}
	if err := s.Listen(addr); err != nil {
		return nil, errors.Join(err, s.Close())
	}
	return s, nil
}

// Listen serves s on addr in a goroutine owned by s, which [Server.Close]
// stops and waits for; [Server.URL] is its address once Listen returns. It
// is for a server made by [Open] or [New] that must be prepared (seeded,
// say) before it listens. A server listens at most once: Listen fails on a
// server that already listens or is closed.
func (s *Server) Listen(addr string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return errors.New("mockserver: listen: server closed")
	case s.httpSrv != nil:
		return fmt.Errorf("mockserver: listen: already serving at %s", s.url)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("mockserver: listen: %w", err)
	}
	s.serve(l)
	return nil
}
