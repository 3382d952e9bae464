package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/urn"
)

// headerIfVersionMatch is the proposal header of a conditional write.
const headerIfVersionMatch = "If-Version-Match"

// Modify changes the aspect A (a struct of package aspects, such as
// aspects.MLFeatureTableProperties) of entity u without losing a concurrent
// change, in rounds:
//
//  1. read the aspect with its version (GetVersioned; a missing aspect is
//     the zero A at version "-1");
//  2. call fn with it; fn returning ErrNoChange ends Modify with nil and
//     writes nothing, any other error ends it with that error;
//  3. write the result, if it differs from what was read, as an UPSERT with
//     the header If-Version-Match: <version> ("-1": must not exist yet);
//  4. when the server refuses the write because another writer got there
//     first (datahub.ErrPreconditionFailed: a 412, or DataHub's Rest.li 422
//     "Expected version X, actual version Y"), wait a jittered, growing
//     time and start again from 1, up to the client's ConflictPolicy; then
//     the error is a *ConflictError naming the URN and aspect (or, when
//     the last round failed otherwise, such as a server busy to the end,
//     an error wrapping that failure).
//
// fn may therefore run several times, each time on a fresh read; it should
// only compute the new value from the one it is given.
//
// An entity that does not exist yet: by default Modify writes as DataHub's
// UPSERT does, so fn gets the zero A and the write creates the entity.
// With [WithRequireEntity] (on the client, or per call with
// [Client.WithRequireEntity]) Modify refuses it, as the helpers always do,
// with an *EntityNotFoundError (errors.Is(err, datahub.ErrNotFound)) and
// without calling fn.
//
// Members of the stored aspect that A does not know (a newer server's
// fields) are written back unchanged: the encoded A is merged over the
// stored JSON object, replacing only the members A declares, at the top
// level, inside members that are structs in Go (such as a VersionTag) and
// inside the elements of lists of structs (such as ownership.owners or
// institutionalMemory.elements), recursively. A member A declares and
// leaves empty is written as A encodes it (so clearing an optional field
// works). A list element is matched to a stored one by what A knows of
// it: each new element takes the unknown members of the first stored
// element, not taken yet and in order, that decodes into the Go element
// type and encodes again to exactly the new element. So elements kept,
// moved or duplicated keep their unknown members; an element fn adds or
// changes has only what the Go type writes, and a removed one is gone.
// Matching costs one decode per stored element and is then linear in the
// list sizes. Types with their own MarshalJSON (unions) are written as
// they encode, not merged.
//
// A write whose answer is lost (dropped connection, 500, 502, 504) is not
// replayed blindly and fn is not applied on top of it: Modify reads the
// aspect back and compares the stored value and version with what it
// wrote (the version it would have made, or that history version when
// others wrote since). If the value landed, Modify returns nil; if not, it
// goes on with the next round; if it cannot tell, the error matches
// datahub.ErrOutcomeUnknown. A 429 or 503, or a connection that could not be
// made, is retried as a conflict is; when the context ends before a write
// that was not applied (a wait after a 429 or 503, a write never sent) could
// be retried, the error wraps the context's error and does not match
// datahub.ErrOutcomeUnknown; when it ends while a write is in flight (the
// write stopped by its caller), Modify does not read back and the error
// matches datahub.ErrStopped, datahub.ErrOutcomeUnknown and the context's
// error: the write may have been applied. Modify keeps nothing between
// calls: calling it again reads afresh. Modify refuses a timeseries aspect.
func Modify[A aspects.Aspect](ctx context.Context, c *Client, u urn.URN, fn func(*A) error) error {
	return modify(ctx, c, u, c.requireEntity, fn)
}

// modify is Modify; with mustExist it refuses, with an
// *EntityNotFoundError, to write to an entity that does not exist.
func modify[A aspects.Aspect](ctx context.Context, c *Client, u urn.URN, mustExist bool, fn func(*A) error) error {
	name := aspectNameOf[A]()
	info, err := checkAspect(u, name)
	if err != nil {
		return err
	}
	if info.Timeseries {
		return fmt.Errorf("client: %s is a timeseries aspect: values are appended, not modified: %w", name, datahub.ErrValidation)
	}
	if fn == nil {
		return fmt.Errorf("client: modify %s of %s: nil function: %w", name, u, datahub.ErrValidation)
	}
	known := knownMembers(reflect.TypeFor[A]())
	policy := c.conflict
	attempts := max(policy.MaxAttempts, 1)
	existed := false
	raw, version, err := c.readVersioned(ctx, u, name)
	for attempt := 1; ; attempt++ {
		if err != nil {
			return err
		}
		if raw == nil && mustExist && !existed {
			ok, err := c.Exists(ctx, u)
			if err != nil {
				return err
			}
			if !ok {
				return &EntityNotFoundError{URN: u.String()}
			}
			existed = true
		}
		var a A
		if raw != nil {
			if a, err = decodeAspect[A](u, raw); err != nil {
				return err
			}
		}
		if err := fn(&a); err != nil {
			if errors.Is(err, ErrNoChange) {
				return nil
			}
			return err
		}
		value, merr := mergeUnknown(a, raw, known)
		if merr != nil {
			return fmt.Errorf("client: encode %s of %s: %w", name, u, merr)
		}
		if raw != nil && equalJSON(value, raw) {
			return nil
		}
		status, werr := c.writeIfVersion(ctx, u, name, value, version)
		switch writeOutcome(ctx, status, werr) {
		case outcomeWritten:
			return nil
		case outcomeFailed:
			return werr
		case outcomeNotApplied:
			return fmt.Errorf("client: modify %s of %s: not written: %w", name, u, werr)
		case outcomeStopped:
			return fmt.Errorf("client: modify %s of %s: %w", name, u, werr)
		case outcomeUnknown:
			landed, nversion, rerr := c.resolve(ctx, u, info, value, version)
			switch {
			case rerr != nil:
				return fmt.Errorf("client: modify %s of %s: the answer to the write was lost (%v) and reading it back failed: %w", name, u, settled(werr), &unknownCause{rerr})
			case landed:
				return nil
			}
			// Not applied: what happened is now known.
			if nversion != version {
				werr = fmt.Errorf("%s changed to version %s meanwhile (%v): %w", name, nversion, settled(werr), datahub.ErrPreconditionFailed)
			} else {
				werr = fmt.Errorf("the write was not applied (%v)", settled(werr))
			}
		}
		// A conflict, or a write the server did not take (429, 503, no
		// connection, an answer lost): wait, read again, go on.
		if attempt >= attempts {
			if errors.Is(werr, datahub.ErrPreconditionFailed) {
				return &ConflictError{URN: u.String(), Aspect: name, Attempts: attempt, Err: werr}
			}
			return fmt.Errorf("client: modify %s of %s: not written after %d attempts: %w", name, u, attempt, werr)
		}
		if err := c.sleep(ctx, policy.wait(attempt)); err != nil {
			return fmt.Errorf("client: modify %s of %s: %w", name, u, err)
		}
		raw, version, err = c.readVersioned(ctx, u, name)
	}
}

// wait returns the full-jitter wait after round attempt (from 1).
func (p ConflictPolicy) wait(attempt int) time.Duration {
	d := p.MinWait
	if d <= 0 {
		return 0
	}
	for i := 1; i < attempt && (p.MaxWait <= 0 || d < p.MaxWait); i++ {
		d *= 2
	}
	if p.MaxWait > 0 && d > p.MaxWait {
		d = p.MaxWait
	}
	return rand.N(d + 1)
}

// writeIfVersion writes value as aspect name of u if its version is still
// version, and returns the emitter's status of the write with its error.
// The emitter replays it only when it was provably not applied; the caller
// decides what any other failure means.
func (c *Client) writeIfVersion(ctx context.Context, u urn.URN, name string, value json.RawMessage, version string) (emitter.Status, error) {
	err := c.emit(ctx, emitter.Proposal{
		EntityType:     u.EntityType(),
		URN:            u,
		ChangeType:     emitter.Upsert,
		AspectName:     name,
		Aspect:         emitter.RawAspect{Name: name, JSON: value},
		SystemMetadata: &aspects.SystemMetadata{LastObserved: c.now().UnixMilli()},
		Headers:        map[string]string{headerIfVersionMatch: version},
	})
	if err == nil {
		return emitter.Written, nil
	}
	if r, ok := soleResult(err); ok {
		if (r.Status == emitter.Unknown || r.Status == emitter.Stopped) && !errors.Is(r.Err, datahub.ErrOutcomeUnknown) {
			return r.Status, fmt.Errorf("%w: %w", datahub.ErrOutcomeUnknown, r.Err)
		}
		return r.Status, r.Err
	}
	return emitter.Unknown, err
}

// soleResult is the result of the one proposal an Emit call sent, when
// err reports it: callers then report that proposal's own error rather
// than the batch's.
func soleResult(err error) (emitter.Result, bool) {
	var be *emitter.BatchError
	if errors.As(err, &be) && len(be.Results) == 1 && be.Results[0].Err != nil {
		return be.Results[0], true
	}
	return emitter.Result{}, false
}

// outcome classifies the answer to a conditional write.
type outcome int

const (
	outcomeWritten    outcome = iota
	outcomeRetry              // not applied: a conflict, 429, 503, no connection
	outcomeFailed             // refused for good (400, 401, 403, 413, 422...)
	outcomeNotApplied         // not applied, and the context is done
	outcomeUnknown            // the answer was lost: applied or not
	outcomeStopped            // the caller's context ended in flight: applied or not
)

// writeOutcome classifies a conditional write that ended with the
// emitter's status and err. Only a write the emitter reports as Unknown or
// Stopped may have been applied; Failed and NotAttempted were not.
func writeOutcome(ctx context.Context, status emitter.Status, err error) outcome {
	switch {
	case err == nil:
		return outcomeWritten
	case status == emitter.Stopped:
		return outcomeStopped
	case status == emitter.Unknown:
		return outcomeUnknown
	case errors.Is(err, datahub.ErrPreconditionFailed):
		return outcomeRetry
	case status == emitter.Failed || status == emitter.NotAttempted:
		if ctx.Err() != nil {
			return outcomeNotApplied
		}
		return outcomeRetry // 429, 503, no connection
	}
	return outcomeFailed // Rejected: refused for good, or before sending
}

// settled returns err without the transport's "outcome unknown" mark,
// once reading back has told what happened: the cause alone.
func settled(err error) error {
	var multi interface{ Unwrap() []error }
	if !errors.As(err, &multi) {
		return err
	}
	errs := multi.Unwrap()
	if len(errs) != 2 || errs[0] != datahub.ErrOutcomeUnknown {
		return err
	}
	return errs[1]
}

// unknownCause is the failure to read back a write whose answer was lost:
// it matches datahub.ErrOutcomeUnknown and the read's error.
type unknownCause struct{ err error }

func (e *unknownCause) Error() string   { return e.err.Error() + " (outcome unknown)" }
func (e *unknownCause) Unwrap() []error { return []error{datahub.ErrOutcomeUnknown, e.err} }

// resolve finds out, by reading, whether a conditional write of value at
// version expected was applied; when it was not, version is the aspect's
// version now.
func (c *Client) resolve(ctx context.Context, u urn.URN, info aspects.Info, value json.RawMessage, expected string) (landed bool, version string, err error) {
	if ctx.Err() != nil {
		return false, "", ctx.Err()
	}
	raw, version, err := c.readVersioned(ctx, u, info.Name)
	if err != nil {
		return false, "", err
	}
	ours := nextVersion(expected)
	switch {
	case version == expected:
		// Nothing was written since the read: the write was not applied
		// (it would have made a new version, being a change).
		return false, version, nil
	case raw == nil:
		// Deleted since: whatever happened, go on from nothing.
		return false, version, nil
	case version == ours:
		return equalJSON(raw, value), version, nil
	}
	have, herr := strconv.ParseInt(version, 10, 64)
	want, werr := strconv.ParseInt(ours, 10, 64)
	if herr != nil || werr != nil || have < want {
		return false, "", fmt.Errorf("client: version %q of %s of %s does not follow %q", version, info.Name, u, expected)
	}
	// Others wrote after the version this write would have made: GMS keeps
	// that version as history row <ours>.
	h, err := c.getAspectVersion(ctx, u.String(), info, want)
	if err != nil {
		return false, "", fmt.Errorf("client: read history version %d: %w", want, err)
	}
	return equalJSON(h, value), version, nil
}

// nextVersion is the version a changing write at version v makes: "1" for
// "-1", else v+1; "" when v is not a number.
func nextVersion(v string) string {
	if v == unversioned {
		return "1"
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return ""
	}
	return strconv.FormatInt(n+1, 10)
}

// equalJSON reports whether a and b hold the same JSON data.
func equalJSON(a, b []byte) bool {
	eq, ok := pdl.EqualJSON(a, b)
	return eq && ok
}

// marshalNoEscape is json.Marshal without HTML escaping, as DataHub's
// Python SDK writes aspects.
func marshalNoEscape(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
