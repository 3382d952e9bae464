package emitter

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
)

// Sentinel errors of this package, matched with errors.Is.
var (
	// ErrNotGMS reports that the server answered GET /config, but not as a
	// DataHub GMS does: usually the URL points at DataHub's front end
	// instead of GMS (port 8080) or the front end's /api/gms.
	ErrNotGMS = errors.New("emitter: server is not a DataHub GMS")
	// ErrQueueFull reports that an Async emitter's queue has no room and
	// the emitter was told not to wait (WithBlock(false)).
	ErrQueueFull = errors.New("emitter: queue full")
	// ErrClosed reports a proposal given to an emitter after Close.
	ErrClosed = errors.New("emitter: closed")
)

// TooLargeError reports a proposal whose request alone would be larger than
// the emitter's byte limit (WithMaxBatchBytes). It is returned before
// anything is sent and matches datahub.ErrPayloadTooLarge.
type TooLargeError struct {
	// Index is the proposal's position in the Emit call.
	Index int
	// URN and Aspect name the proposal.
	URN, Aspect string
	// Size is the size of the request that would carry the proposal alone,
	// and Limit the limit it exceeds, in bytes.
	Size, Limit int
}

// Error names the proposal and its size.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("emitter: proposal %d (%s %s) needs a %d-byte request, over the %d-byte limit", e.Index, e.URN, e.Aspect, e.Size, e.Limit)
}

// Unwrap returns datahub.ErrPayloadTooLarge.
func (e *TooLargeError) Unwrap() error { return datahub.ErrPayloadTooLarge }

// Status is the outcome of one proposal of an Emit call.
type Status int

// The outcomes of a proposal.
const (
	// NotAttempted: the proposal was not sent, because an earlier request
	// failed in a way that would fail it too (the server unreachable, a
	// 401, the context done). Emitting it again is safe.
	NotAttempted Status = iota
	// Written: the server acknowledged the proposal.
	Written
	// Rejected: the proposal was not written, because the server refused
	// it (a 4xx answer other than 429 to a request that carried it alone,
	// or to its whole batch) or because it could not be sent (invalid, or
	// too large). Sending it again unchanged fails again.
	Rejected
	// Failed: the proposal was not written, and the server did not refuse
	// it for its content: the server could not be reached, or answered 429
	// or 503 (not applied) to every attempt, or the context ended while
	// the emitter waited to retry such an answer. Emitting it again later
	// is safe, conditional writes included.
	Failed
	// Unknown: the proposal may or may not have been written: the request
	// carrying it was sent but its answer was lost (a dropped connection,
	// an attempt's timeout, the context done while it was in flight) or
	// was a 500, 502 or 504, and the emitter could not or would not send
	// it again. An upsert may be emitted again; a conditional write or a
	// CREATE would fail its own condition if it was applied, so read the
	// aspect to learn what happened. Err matches datahub.ErrOutcomeUnknown.
	Unknown
	// Stopped: the proposal may or may not have been written, because its
	// caller stopped the call: the context ended after the request carrying
	// it was sent and before its answer (or, with EmitAsyncWait, before its
	// write trace said it was applied). Nothing went wrong on the server;
	// whoever owns the proposal keeps it to emit again (an upsert is safe
	// to emit again; read a conditional write or a CREATE back first). Err
	// matches datahub.ErrStopped, datahub.ErrOutcomeUnknown and the
	// context's error.
	Stopped
)

// numStatus is the number of Status values.
const numStatus = int(Stopped) + 1

// String returns the status's name.
func (s Status) String() string {
	switch s {
	case NotAttempted:
		return "not attempted"
	case Written:
		return "written"
	case Rejected:
		return "rejected"
	case Failed:
		return "failed"
	case Unknown:
		return "unknown"
	case Stopped:
		return "stopped"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is the outcome of one proposal of an Emit call.
type Result struct {
	// Index is the proposal's position in the Emit call.
	Index int
	// URN and Aspect name the proposal.
	URN, Aspect string
	// Status is what happened to it.
	Status Status
	// Version is the aspect's version after a Written proposal, where the
	// server answered it: only results of EmitResults over OpenAPI in a
	// synchronous mode carry it (see REST.EmitResults); else "".
	Version string
	// Err is nil when the proposal was Written. Otherwise it says why: a
	// *datahub.Error for an answer of the server, a *TooLargeError, an
	// error wrapping datahub.ErrValidation for an invalid proposal, or the
	// network or context error; for a proposal NotAttempted, the error that
	// stopped the call.
	Err error
}

// BatchError reports an Emit call of which some proposals were not
// written, whatever their number: one proposal or many, Emit returns nil or
// a *BatchError, so that callers handle one error type. Results has one
// entry per proposal, in the order given. errors.Is and errors.As see
// through it to the causes (a *datahub.Error, datahub.ErrValidation,
// datahub.ErrOutcomeUnknown, context.Canceled, ...).
type BatchError struct {
	// Results is the outcome of every proposal of the call.
	Results []Result
}

// Written returns the indexes of the proposals the server acknowledged.
func (e *BatchError) Written() []int { return e.indexes(Written) }

// NotAttempted returns the indexes of the proposals that were not sent.
func (e *BatchError) NotAttempted() []int { return e.indexes(NotAttempted) }

// Unknown returns the indexes of the proposals that may or may not have
// been written.
func (e *BatchError) Unknown() []int { return e.indexes(Unknown) }

// Stopped returns the indexes of the proposals that may or may not have
// been written because the caller's context ended.
func (e *BatchError) Stopped() []int { return e.indexes(Stopped) }

// Failures returns the results of the proposals that were Rejected,
// Failed, Unknown or Stopped.
func (e *BatchError) Failures() []Result {
	var out []Result
	for _, r := range e.Results {
		if r.Status == Rejected || r.Status == Failed || r.Status == Unknown || r.Status == Stopped {
			out = append(out, r)
		}
	}
	return out
}

func (e *BatchError) indexes(s Status) []int {
	var out []int
	for _, r := range e.Results {
		if r.Status == s {
			out = append(out, r.Index)
		}
	}
	return out
}

// Error counts the outcomes and shows the first failure; for a single
// proposal it names it and gives its error.
func (e *BatchError) Error() string {
	if len(e.Results) == 1 {
		r := e.Results[0]
		return fmt.Sprintf("emitter: %s %s %s: %v", r.URN, r.Aspect, r.Status, r.Err)
	}
	var count [numStatus]int
	var first *Result
	for i, r := range e.Results {
		if r.Status >= 0 && int(r.Status) < len(count) {
			count[r.Status]++
		}
		if first == nil && r.Err != nil {
			first = &e.Results[i]
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "emitter: %d of %d proposals written, %d rejected, %d failed, %d unknown, %d not attempted",
		count[Written], len(e.Results), count[Rejected], count[Failed], count[Unknown], count[NotAttempted])
	if count[Stopped] > 0 {
		fmt.Fprintf(&b, ", %d stopped", count[Stopped])
	}
	if first != nil {
		fmt.Fprintf(&b, "; proposal %d (%s %s): %v", first.Index, first.URN, first.Aspect, first.Err)
	}
	return b.String()
}

// Unwrap returns the distinct errors of the proposals that were not written,
// so that errors.Is(err, datahub.ErrValidation) or errors.Is(err,
// context.Canceled) tell why.
func (e *BatchError) Unwrap() []error {
	var out []error
	seen := map[error]bool{}
	for _, r := range e.Results {
		if r.Err != nil && !seen[r.Err] {
			seen[r.Err] = true
			out = append(out, r.Err)
		}
	}
	return out
}

// itemRejection reports whether err is a refusal aimed at the proposals a
// request carried (bad input, a failed condition, a body too large) rather
// than at the request as a whole, so that splitting the request tells which
// proposals are at fault.
func itemRejection(err error) bool {
	var de *datahub.Error
	if !errors.As(err, &de) {
		return false
	}
	switch de.StatusCode {
	case http.StatusBadRequest, http.StatusPreconditionFailed, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
		return true
	}
	return false
}

// classify returns the status of the proposals of a request that failed
// with err (see Status).
func classify(err error) Status {
	if errors.Is(err, datahub.ErrStopped) {
		return Stopped
	}
	if errors.Is(err, datahub.ErrOutcomeUnknown) {
		return Unknown
	}
	var de *datahub.Error
	if errors.As(err, &de) {
		switch {
		case de.StatusCode == http.StatusTooManyRequests || de.StatusCode == http.StatusServiceUnavailable:
			return Failed
		case de.StatusCode >= 400 && de.StatusCode < 500, de.StatusCode == http.StatusNotImplemented:
			return Rejected
		}
		return Unknown // a 5xx the transport did not mark: be safe
	}
	return Failed // no request reached the server: refused connection, context done before sending
}
