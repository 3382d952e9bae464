package mockserver

import (
	"math"
	"net/http"
	"strconv"
	"time"
)

// Op names an operation of the mock, the unit of request counts and fault
// injection.
type Op string

// The operations the mock serves.
const (
	// OpIngestProposal is POST /aspects?action=ingestProposal.
	OpIngestProposal Op = "ingestProposal"
	// OpIngestProposalBatch is POST /aspects?action=ingestProposalBatch.
	OpIngestProposalBatch Op = "ingestProposalBatch"
	// OpGetTimeseries is POST /aspects?action=getTimeseriesAspectValues.
	OpGetTimeseries Op = "getTimeseriesAspectValues"
	// OpGetCount is POST /aspects?action=getCount.
	OpGetCount Op = "getCount"
	// OpGetAspect is GET /aspects/{urn}.
	OpGetAspect Op = "getAspect"
	// OpGetEntity is GET /entitiesV2/{urn}.
	OpGetEntity Op = "getEntity"
	// OpDeleteEntity is POST /entities?action=delete.
	OpDeleteEntity Op = "deleteEntity"
	// OpConfig is GET /config.
	OpConfig Op = "config"
	// OpUnknown is any request the mock does not route to an operation.
	OpUnknown Op = "unknown"
	// OpAny matches every operation in a [Fault]; it is never counted.
	OpAny Op = "*"
)

// Fault is an injected failure for the requests of one operation. Faults are
// checked in the order they were added; the first matching one with
// requests left applies. A request first waits for every matching latency,
// then is dropped or failed by the first matching drop or failure. A failed
// or dropped request changes no state; a request under CommitThenDrop is
// handled in full before its connection is dropped.
type Fault struct {
	// Op is the operation the fault applies to ([OpAny] for all).
	Op Op
	// Times is how many requests the fault applies to; 0 means every request
	// until [Server.ClearFaults].
	Times int
	// Status, when non-zero, answers the request with this HTTP status and a
	// Rest.li error body.
	Status int
	// RetryAfter, when positive, adds a Retry-After header (whole seconds,
	// rounded up) to a failure.
	RetryAfter time.Duration
	// Delay holds the request this long before it is handled (or failed).
	Delay time.Duration
	// Drop closes the connection without an answer; the request is not
	// handled.
	Drop bool
	// CommitThenDrop handles the request in full (a write is applied and
	// committed, as for a 200) and then closes the connection instead of
	// answering: the answer is lost after the commit. It tests clients
	// that must not apply a write twice when they retry.
	CommitThenDrop bool
}

// Fail returns a fault that answers the next times requests of op with
// status (and a Retry-After header when retryAfter is positive).
func Fail(op Op, times, status int, retryAfter time.Duration) Fault {
	return Fault{Op: op, Times: times, Status: status, RetryAfter: retryAfter}
}

// Latency returns a fault that delays every request of op by d.
func Latency(op Op, d time.Duration) Fault {
	return Fault{Op: op, Delay: d}
}

// Drop returns a fault that closes the connection of the next times
// requests of op without an answer.
func Drop(op Op, times int) Fault {
	return Fault{Op: op, Times: times, Drop: true}
}

// CommitThenDrop returns a fault that handles the next times requests of op
// in full (writes are applied and committed) and then closes the connection
// without an answer, as when a server or proxy fails after the commit.
func CommitThenDrop(op Op, times int) Fault {
	return Fault{Op: op, Times: times, CommitThenDrop: true}
}

// fault is an installed Fault with its remaining count.
type fault struct {
	Fault
	left int // remaining applications; -1 unlimited
}

func newFault(f Fault) *fault {
	left := f.Times
	if left <= 0 {
		left = -1
	}
	return &fault{Fault: f, left: left}
}

// action is what the faults decide for one request.
type action struct {
	delay      time.Duration
	drop       bool
	lose       bool // handle, then drop instead of answering
	status     int
	retryAfter string
}

// Inject installs faults at run time, after those already installed.
func (s *Server) Inject(faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range faults {
		s.faults = append(s.faults, newFault(f))
	}
}

// Fail makes the next times requests of op fail with status (and a
// Retry-After header when retryAfter is positive). times 0 means every
// request until [Server.ClearFaults].
func (s *Server) Fail(op Op, times, status int, retryAfter time.Duration) {
	s.Inject(Fail(op, times, status, retryAfter))
}

// Latency delays every request of op by d until [Server.ClearFaults].
func (s *Server) Latency(op Op, d time.Duration) {
	s.Inject(Latency(op, d))
}

// Drop closes the connection of the next times requests of op without an
// answer (times 0: every request until [Server.ClearFaults]).
func (s *Server) Drop(op Op, times int) {
	s.Inject(Drop(op, times))
}

// CommitThenDrop handles the next times requests of op in full (writes are
// applied and committed) and then closes their connection without an
// answer (times 0: every request until [Server.ClearFaults]).
func (s *Server) CommitThenDrop(op Op, times int) {
	s.Inject(CommitThenDrop(op, times))
}

// ClearFaults removes every installed fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// takeFaults decides the faults of one request of op and uses them up.
func (s *Server) takeFaults(op Op) action {
	s.mu.Lock()
	defer s.mu.Unlock()
	var a action
	decided := false
	kept := s.faults[:0]
	for _, f := range s.faults {
		if f.Op != op && f.Op != OpAny {
			kept = append(kept, f)
			continue
		}
		used := false
		if f.Delay > 0 {
			a.delay += f.Delay
			used = true
		}
		if !decided && (f.Drop || f.CommitThenDrop || f.Status != 0) {
			decided = true
			used = true
			a.drop = f.Drop
			a.lose = f.CommitThenDrop
			a.status = f.Status
			if f.RetryAfter > 0 {
				a.retryAfter = strconv.Itoa(int(math.Ceil(f.RetryAfter.Seconds())))
			}
		}
		if used && f.left > 0 {
			f.left--
		}
		if f.left != 0 {
			kept = append(kept, f)
		}
	}
	clear(s.faults[len(kept):])
	s.faults = kept
	return a
}

// applyFault carries out a's delay, drop or failure. It reports whether the
// request was answered (or dropped) and must not be handled. For a
// commit-then-drop it swaps the writer under w (the request's
// *statusWriter) for one that drops the connection when the handler
// answers, and reports false: the request is handled.
func (s *Server) applyFault(w http.ResponseWriter, r *http.Request, a action) bool {
	if a.delay > 0 {
		t := time.NewTimer(a.delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return true
		case <-s.closing:
			t.Stop()
			writeRestliError(w, errorf(http.StatusServiceUnavailable, msgClosed), "")
			return true
		}
	}
	switch {
	case a.drop:
		dropConn(w)
		return true
	case a.status != 0:
		writeRestliError(w, errorf(a.status, msgInjected, a.status, http.StatusText(a.status)), a.retryAfter)
		return true
	case a.lose:
		if sw, ok := w.(*statusWriter); ok {
			sw.ResponseWriter = &lostAnswer{ResponseWriter: sw.ResponseWriter}
		} else {
			dropConn(w) // not reached: ServeHTTP passes its statusWriter
			return true
		}
	}
	return false
}

// lostAnswer is the writer of a request under a commit-then-drop fault: the
// handler's answer (written after its commit) is never sent; the
// connection is closed instead.
type lostAnswer struct {
	http.ResponseWriter
	dropped bool
}

func (l *lostAnswer) WriteHeader(int) { l.drop() }

func (l *lostAnswer) Write(b []byte) (int, error) {
	l.drop()
	return len(b), nil
}

func (l *lostAnswer) drop() {
	if !l.dropped {
		l.dropped = true
		dropConn(l.ResponseWriter)
	}
}

// dropConn closes the client's connection without an answer: through
// http.Hijacker when the writer has one, else by aborting the handler, which
// makes net/http close the connection.
func dropConn(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err == nil {
		_ = conn.Close()
		return
	}
	panic(http.ErrAbortHandler)
}
