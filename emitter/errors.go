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
	// it (a 4xx answer to a request that carried it alone, or to its whole
	// batch) or because it could not be sent (invalid, or too large).
	Rejected
	// Failed: the request carrying the proposal got no definite answer (a
	// 5xx after every retry, a network error, the context done while it
	// was in flight), so the server may or may not have applied it.
	// Proposals are upserts of whole aspects, so emitting it again is safe.
	Failed
)

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
	// Err is nil when the proposal was Written. Otherwise it says why: a
	// *datahub.Error for an answer of the server, a *TooLargeError, an
	// error wrapping datahub.ErrValidation for an invalid proposal, or the
	// network or context error; for a proposal NotAttempted, the error that
	// stopped the call.
	Err error
}

// BatchError reports an Emit of several proposals of which some were not
// written. Results has one entry per proposal, in the order given.
type BatchError struct {
	// Results is the outcome of every proposal of the call.
	Results []Result
}

// Written returns the indexes of the proposals the server acknowledged.
func (e *BatchError) Written() []int { return e.indexes(Written) }

// NotAttempted returns the indexes of the proposals that were not sent.
func (e *BatchError) NotAttempted() []int { return e.indexes(NotAttempted) }

// Failures returns the results of the proposals that were Rejected or Failed.
func (e *BatchError) Failures() []Result {
	var out []Result
	for _, r := range e.Results {
		if r.Status == Rejected || r.Status == Failed {
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

// Error counts the outcomes and shows the first failure.
func (e *BatchError) Error() string {
	var count [4]int
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
	fmt.Fprintf(&b, "emitter: %d of %d proposals written, %d rejected, %d failed, %d not attempted",
		count[Written], len(e.Results), count[Rejected], count[Failed], count[NotAttempted])
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

// definite reports whether err is an answer of the server that says the
// request was not applied: any 4xx.
func definite(err error) bool {
	var de *datahub.Error
	return errors.As(err, &de) && de.StatusCode >= 400 && de.StatusCode < 500
}
