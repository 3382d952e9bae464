package mockserver

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/graphql"
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
	// OpHealth is GET /health or /health/live. It is counted, but a fault
	// cannot name it (a fault of [OpAny] applies to it).
	OpHealth Op = "health"
	// OpUnknown is any request the mock does not route to an operation.
	OpUnknown Op = "unknown"
	// OpAny matches every operation in a [Fault]; it is never counted.
	OpAny Op = "*"
)

// knownOps are the operations a fault may name.
var knownOps = []Op{OpIngestProposal, OpIngestProposalBatch, OpGetTimeseries, OpGetCount, OpGetAspect,
	OpGetEntity, OpDeleteEntity, OpConfig, OpGraphQL, OpUnknown, OpAny,
	OpRestoreIndices, OpGetIndexSizes, OpTruncateTimeseries, OpGetEsTaskStatus, OpEvaluateTests,
	OpV3List, OpV3GetEntity, OpV3GetAspect, OpV3Head, OpV3BatchGet, OpV3Write, OpV3Patch, OpV3Delete, OpTraceWrite}

// Forever is the [Fault.Times] of a fault that applies to every request
// until [Server.ClearFaults]. A count is never implicit: a fault with Times
// 0 is refused.
const Forever = math.MaxInt

// MaxFaultDelay bounds a fault's Delay and RetryAfter: a longer wait is a
// mistake (milliseconds taken for seconds), not a test.
const MaxFaultDelay = 10 * time.Minute

// Fault is an injected failure for the requests of one operation. Faults are
// checked in the order they were added; the first matching one with
// requests left applies. A request first waits for every matching latency,
// then is dropped, failed or has its answer lost by the first matching
// Drop, Status or CommitThenDrop. A failed or dropped request changes no
// state; a request under CommitThenDrop is handled in full before its
// connection is dropped.
//
// Faults apply to authenticated requests only: a request without a valid
// token ([WithToken]) gets its 401 first and uses no fault up.
//
// A fault must do one thing, for a stated number of requests; [Server.Inject]
// and [WithFault] refuse one that breaks the rules given with each field.
// [Fail], [FailGraphQL], [Drop], [CommitThenDrop] and [Latency] build the
// common ones.
type Fault struct {
	// Op is the operation the fault applies to ([OpAny] for all); it must
	// be one of the Op constants.
	Op Op
	// Times is how many requests the fault applies to: a positive count,
	// or [Forever] for every request until [Server.ClearFaults].
	Times int
	// Status, when non-zero, answers the request with this HTTP status and
	// a Rest.li error body. It must be an error status, 400 to 599.
	Status int
	// RetryAfter, when positive, adds a Retry-After header to a Status
	// failure, in whole seconds rounded up (100 ms is sent as 1): HTTP's
	// Retry-After counts whole seconds, DataHub sends whole seconds, and
	// DataHub's Python client refuses a fraction. At most [MaxFaultDelay].
	// For fast tests, cap the client's wait instead (datahub.ForTests
	// honours a Retry-After up to 100 ms).
	RetryAfter time.Duration
	// Delay holds the request this long before it is handled (or failed).
	// At most [MaxFaultDelay].
	Delay time.Duration
	// Drop closes the connection without an answer; the request is not
	// handled.
	Drop bool
	// CommitThenDrop handles the request in full (a write is applied and
	// committed, as for a 200) and then closes the connection instead of
	// answering: the answer is lost after the commit. It tests clients
	// that must not apply a write twice when they retry.
	CommitThenDrop bool
	// GraphQLOperation, when set, limits the fault to the GraphQL requests
	// (Op must be [OpGraphQL]) of the operation with this name: the body's
	// operationName, or else the name of the document's one named
	// operation. Unset, a fault on OpGraphQL applies to every GraphQL
	// request.
	GraphQLOperation string
	// GraphQLError, when set, answers a Status failure in GraphQL's shape
	// instead of with an HTTP status: HTTP 200 with
	// {"errors":[{"message":GraphQLError,"extensions":{"code":Status,
	// "type":...,"classification":"DataFetchingException"}}],"data":null},
	// as DataHub answers a failed resolver. Op must be [OpGraphQL], Status
	// one of DataHub's GraphQL codes (400 BAD_REQUEST, 403 UNAUTHORIZED,
	// 404 NOT_FOUND, 409 CONFLICT, 500 SERVER_ERROR), and RetryAfter unset.
	GraphQLError string
}

// FailSpec says how [Fail] fails requests. Its fields are named so that a
// status and a count cannot be swapped silently; none has a default.
type FailSpec struct {
	// Status is the HTTP status answered, 400 to 599.
	Status int
	// Times is how many requests fail: a positive count, or [Forever].
	Times int
	// RetryAfter, when positive, adds a Retry-After header, in whole
	// seconds rounded up as for [Fault]'s RetryAfter. At most
	// [MaxFaultDelay].
	RetryAfter time.Duration
	// GraphQLError, for GraphQL operations only, answers in GraphQL's shape
	// (HTTP 200 with an error of this message and extensions.code Status)
	// instead of with an HTTP status; see [Fault.GraphQLError].
	GraphQLError string
}

// Fail returns a fault that answers spec.Times requests of op with
// spec.Status and a Rest.li error body (and a Retry-After header when
// spec.RetryAfter is positive):
//
//	mockserver.Fail(mockserver.OpIngestProposal, mockserver.FailSpec{Status: 503, Times: 2, RetryAfter: time.Second})
func Fail(op Op, spec FailSpec) Fault {
	return Fault{Op: op, Times: spec.Times, Status: spec.Status, RetryAfter: spec.RetryAfter, GraphQLError: spec.GraphQLError}
}

// FailGraphQL returns a fault that fails spec.Times GraphQL requests of the
// operation named operation ("" for every GraphQL request) as spec says:
// with an HTTP status (and Retry-After), or, when spec.GraphQLError is set,
// with HTTP 200 and a GraphQL error of that message and code spec.Status:
//
//	mockserver.FailGraphQL("getDataset", mockserver.FailSpec{Status: 503, Times: 1, RetryAfter: time.Second})
//	mockserver.FailGraphQL("updateDescription", mockserver.FailSpec{Status: 403, Times: 1,
//		GraphQLError: "Unauthorized to perform this action. Please contact your DataHub administrator."})
func FailGraphQL(operation string, spec FailSpec) Fault {
	f := Fail(OpGraphQL, spec)
	f.GraphQLOperation = operation
	return f
}

// Latency returns a fault that delays every request of op by d (at most
// [MaxFaultDelay]).
func Latency(op Op, d time.Duration) Fault {
	return Fault{Op: op, Times: Forever, Delay: d}
}

// Drop returns a fault that closes the connection of times requests of op
// (a positive count, or [Forever]) without handling them or answering.
func Drop(op Op, times int) Fault {
	return Fault{Op: op, Times: times, Drop: true}
}

// CommitThenDrop returns a fault that handles times requests of op (a
// positive count, or [Forever]) in full, so that writes are applied and
// committed, and then closes the connection without an answer, as when a
// server or proxy fails after the commit.
func CommitThenDrop(op Op, times int) Fault {
	return Fault{Op: op, Times: times, CommitThenDrop: true}
}

// faultMembers maps the fields of a Fault to the members of its JSON form
// in the control API.
var faultMembers = map[string]string{"Op": "op", "Times": "times", "Status": "status",
	"RetryAfter": "retryAfterSeconds", "Delay": "delayMillis", "Drop": "drop", "CommitThenDrop": "commitThenDrop",
	"GraphQLOperation": "graphQLOperation", "GraphQLError": "graphQLError"}

// faultProblem is what is wrong with a fault: the field at fault and a
// text that completes "<field> ...".
type faultProblem struct {
	field string
	text  string
}

// problem returns what makes f invalid, or nil. With inJSON set, fields
// are named as the control API's members.
func (f Fault) problem(inJSON bool) *faultProblem {
	name := func(field string) string {
		if inJSON {
			return faultMembers[field]
		}
		return field
	}
	forever := "Forever"
	if inJSON {
		forever = `"forever"`
	}
	bad := func(field, format string, args ...any) *faultProblem {
		return &faultProblem{field: name(field), text: fmt.Sprintf(format, args...)}
	}
	switch {
	case !slices.Contains(knownOps, f.Op):
		return bad("Op", "must be one of %v, not %q", knownOps, abbreviate(string(f.Op)))
	case f.Times <= 0:
		return bad("Times", "must be a positive count or %s, not %d", forever, f.Times)
	case f.Status != 0 && (f.Status < 400 || f.Status > 599):
		return bad("Status", "must be an error status (400 to 599), not %d", f.Status)
	case f.Delay < 0 || f.Delay > MaxFaultDelay:
		return bad("Delay", "must be between 0 and %v, not %v", MaxFaultDelay, f.Delay)
	case f.RetryAfter < 0 || f.RetryAfter > MaxFaultDelay:
		return bad("RetryAfter", "must be between 0 and %v, not %v", MaxFaultDelay, f.RetryAfter)
	case f.RetryAfter > 0 && f.Status == 0:
		return bad("RetryAfter", "needs a %s to go with", name("Status"))
	case f.Drop && f.CommitThenDrop:
		return bad("Drop", "and %s exclude each other", name("CommitThenDrop"))
	case f.Status != 0 && (f.Drop || f.CommitThenDrop):
		return bad("Status", "excludes %s and %s (a fault answers one way)", name("Drop"), name("CommitThenDrop"))
	case f.GraphQLOperation != "" && f.Op != OpGraphQL:
		return bad("GraphQLOperation", "needs %s %q, not %q", name("Op"), OpGraphQL, abbreviate(string(f.Op)))
	case f.GraphQLError != "" && f.Op != OpGraphQL:
		return bad("GraphQLError", "needs %s %q, not %q", name("Op"), OpGraphQL, abbreviate(string(f.Op)))
	case f.GraphQLError != "" && !slices.Contains(graphql.ErrorCodes, f.Status):
		return bad("GraphQLError", "needs a %s that is one of DataHub's GraphQL codes %v, not %d", name("Status"), graphql.ErrorCodes, f.Status)
	case f.GraphQLError != "" && f.RetryAfter > 0:
		return bad("GraphQLError", "excludes %s (the answer is a 200)", name("RetryAfter"))
	case f.Status == 0 && !f.Drop && !f.CommitThenDrop && f.Delay == 0:
		return bad("Status", "is 0 and none of %s, %s or %s is set: the fault does nothing",
			name("Drop"), name("CommitThenDrop"), name("Delay"))
	}
	return nil
}

// Validate reports why f cannot be installed, naming the field at fault,
// or nil when it can.
func (f Fault) Validate() error {
	if p := f.problem(false); p != nil {
		return fmt.Errorf("mockserver: invalid fault for %q: %s %s", abbreviate(string(f.Op)), p.field, p.text)
	}
	return nil
}

// validateFaults checks every fault and joins the errors.
func validateFaults(faults []Fault) error {
	var errs []error
	for _, f := range faults {
		errs = append(errs, f.Validate())
	}
	return errors.Join(errs...)
}

// fault is an installed Fault with its remaining count.
type fault struct {
	Fault
	left int // remaining applications; -1 unlimited
}

func newFault(f Fault) *fault {
	left := f.Times
	if left == Forever {
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
	gqlError   string // answer status in GraphQL's shape with this message
	openAPI    bool   // answer status in the OpenAPI servlet's shape
}

// Inject installs faults at run time, after those already installed. If
// any fault is invalid (see [Fault]) it installs none and returns an error
// naming the field at fault.
func (s *Server) Inject(faults ...Fault) error {
	if err := validateFaults(faults); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range faults {
		s.faults = append(s.faults, newFault(f))
	}
	return nil
}

// mustInject is Inject for the methods whose arguments are a programming
// error when invalid: it panics with the error, as regexp.MustCompile does.
func (s *Server) mustInject(f Fault) {
	if err := s.Inject(f); err != nil {
		panic(err)
	}
}

// Fail makes spec.Times requests of op fail with spec.Status (and a
// Retry-After header when spec.RetryAfter is positive), as [Fail] does:
//
//	s.Fail(mockserver.OpIngestProposal, mockserver.FailSpec{Status: 503, Times: mockserver.Forever})
//
// An invalid spec (a status that is not 4xx or 5xx, Times not positive nor
// [Forever], a wait above [MaxFaultDelay]) is a programming error: Fail
// panics with an error naming the field, rather than install a fault that
// does something else. Use [Server.Inject] to get the error instead.
func (s *Server) Fail(op Op, spec FailSpec) {
	s.mustInject(Fail(op, spec))
}

// FailGraphQL fails spec.Times GraphQL requests of the operation named
// operation ("" for all) as [FailGraphQL] does: with an HTTP status, or
// with a 200 and a GraphQL error when spec.GraphQLError is set. It panics
// on an invalid spec (see [Server.Fail]).
func (s *Server) FailGraphQL(operation string, spec FailSpec) {
	s.mustInject(FailGraphQL(operation, spec))
}

// Latency delays every request of op by d until [Server.ClearFaults]. It
// panics when d is negative or above [MaxFaultDelay] (see [Server.Fail]).
func (s *Server) Latency(op Op, d time.Duration) {
	s.mustInject(Latency(op, d))
}

// Drop closes the connection of times requests of op (a positive count, or
// [Forever]) without an answer. It panics on an invalid count (see
// [Server.Fail]).
func (s *Server) Drop(op Op, times int) {
	s.mustInject(Drop(op, times))
}

// CommitThenDrop handles times requests of op (a positive count, or
// [Forever]) in full, so that writes are applied and committed, and then
// closes their connection without an answer. It panics on an invalid count
// (see [Server.Fail]).
func (s *Server) CommitThenDrop(op Op, times int) {
	s.mustInject(CommitThenDrop(op, times))
}

// Faults returns copies of the installed faults that still apply, in the
// order they are checked; each one's Times is the number of requests it
// has left (or [Forever]).
func (s *Server) Faults() []Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Fault, len(s.faults))
	for i, f := range s.faults {
		out[i] = f.Fault
		if f.left >= 0 {
			out[i].Times = f.left
		}
	}
	return out
}

// ClearFaults removes every installed fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// takeFaults decides the faults of one request of op and uses them up,
// except those for a named GraphQL operation (see [Server.takeGraphQLFaults]).
func (s *Server) takeFaults(op Op) action {
	return s.take(func(f *fault) bool { return (f.Op == op || f.Op == OpAny) && f.GraphQLOperation == "" })
}

// takeGraphQLFaults decides the faults for GraphQL operation name and uses
// them up.
func (s *Server) takeGraphQLFaults(name string) action {
	return s.take(func(f *fault) bool { return f.GraphQLOperation != "" && f.GraphQLOperation == name })
}

// hasGraphQLOperationFaults reports whether a fault for a named GraphQL
// operation is installed.
func (s *Server) hasGraphQLOperationFaults() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults {
		if f.GraphQLOperation != "" {
			return true
		}
	}
	return false
}

// take decides the faults that match and uses them up.
func (s *Server) take(match func(*fault) bool) action {
	s.mu.Lock()
	defer s.mu.Unlock()
	var a action
	decided := false
	kept := s.faults[:0]
	for _, f := range s.faults {
		if !match(f) {
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
			a.gqlError = f.GraphQLError
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
	case a.status != 0 && a.gqlError != "":
		graphql.WriteError(w, a.status, a.gqlError)
		return true
	case a.status != 0 && a.openAPI:
		writeOpenAPIError(w, &openAPIError{status: a.status, err: fmt.Sprintf(msgInjected, a.status, http.StatusText(a.status))}, a.retryAfter)
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
