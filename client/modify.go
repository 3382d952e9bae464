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
	"strings"
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
// datahub.ErrOutcomeUnknown. Modify refuses a timeseries aspect.
func Modify[A aspects.Aspect](ctx context.Context, c *Client, u urn.URN, fn func(*A) error) error {
	return modify(ctx, c, u, false, fn)
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
	err := c.em.Emit(ctx, emitter.Proposal{
		EntityType:     u.EntityType(),
		URN:            u,
		ChangeType:     emitter.Upsert,
		AspectName:     name,
		Aspect:         emitter.RawAspect{Name: name, JSON: value},
		SystemMetadata: &emitter.SystemMetadata{LastObserved: c.now().UnixMilli()},
		Headers:        map[string]string{headerIfVersionMatch: version},
	})
	if err == nil {
		return emitter.Written, nil
	}
	// One proposal: report its own error rather than the batch's.
	var be *emitter.BatchError
	if errors.As(err, &be) && len(be.Results) == 1 && be.Results[0].Err != nil {
		r := be.Results[0]
		if r.Status == emitter.Unknown && !errors.Is(r.Err, datahub.ErrOutcomeUnknown) {
			return r.Status, fmt.Errorf("%w: %w", datahub.ErrOutcomeUnknown, r.Err)
		}
		return r.Status, r.Err
	}
	return emitter.Unknown, err
}

// outcome classifies the answer to a conditional write.
type outcome int

const (
	outcomeWritten    outcome = iota
	outcomeRetry              // not applied: a conflict, 429, 503, no connection
	outcomeFailed             // refused for good (400, 401, 403, 413, 422...)
	outcomeNotApplied         // not applied, and the context is done
	outcomeUnknown            // the answer was lost: applied or not
)

// writeOutcome classifies a conditional write that ended with the
// emitter's status and err. Only a write the emitter reports as Unknown
// may have been applied; Failed and NotAttempted were not.
func writeOutcome(ctx context.Context, status emitter.Status, err error) outcome {
	switch {
	case err == nil:
		return outcomeWritten
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

// shape is what a Go type knows of a JSON value, for merging: for an
// object (a struct in Go), its member names, each with the shape of its
// value (nil: written as encoded, not merged); for an array (a slice or
// array in Go) of mergeable elements, the elements' shape. typ is the Go
// type, used to find the known projection of a stored list element.
type shape struct {
	typ    reflect.Type
	fields map[string]*shape // an object's known members
	elem   *shape            // an array's elements
}

// knownMembers returns the shape of type t, or nil when there is nothing
// to merge in it (not a struct, nor a list of them).
func knownMembers(t reflect.Type) *shape {
	return knownIn(t, map[reflect.Type]*shape{})
}

func knownIn(t reflect.Type, seen map[reflect.Type]*shape) *shape {
	orig := t
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 || customJSON(t.Elem()) {
			return nil // bytes, or elements with an encoding of their own
		}
		elem := knownIn(t.Elem(), seen)
		if elem == nil {
			return nil
		}
		return &shape{typ: orig, elem: elem}
	case reflect.Struct:
	default:
		return nil
	}
	if s, ok := seen[t]; ok {
		return s // a recursive type: the same (still filling) shape
	}
	s := &shape{typ: orig, fields: map[string]*shape{}}
	seen[t] = s
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if name == "" && f.Anonymous {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if customJSON(f.Type) {
				// Its JSON need not follow its fields (a union, say):
				// written as the type encodes it, not merged.
				s.fields[name] = nil
				continue
			}
			s.fields[name] = knownIn(f.Type, seen)
		}
	}
	walk(t)
	return s
}

// customJSON reports whether t or *t has its own MarshalJSON.
func customJSON(t reflect.Type) bool {
	m := reflect.TypeFor[json.Marshaler]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Implements(m) || reflect.PointerTo(t).Implements(m)
}

// mergeUnknown encodes a and adds the members of the stored value that
// a's type does not know (known), unchanged: at the top level, inside
// members that are objects on both sides and structs in Go without an
// encoding of their own, and inside list elements matched up with stored
// ones (see mergeArray).
func mergeUnknown(a any, stored json.RawMessage, known *shape) (json.RawMessage, error) {
	enc, err := marshalNoEscape(a)
	if err != nil {
		return nil, err
	}
	if len(stored) == 0 || known == nil {
		return enc, nil
	}
	out, changed, err := mergeValue(enc, stored, known)
	if err != nil || !changed {
		return enc, err
	}
	return out, nil
}

// mergeValue adds stored's unknown members to enc, which has shape s.
// changed is false when nothing was added.
func mergeValue(enc, stored json.RawMessage, s *shape) (json.RawMessage, bool, error) {
	switch {
	case s == nil:
		return enc, false, nil
	case s.fields != nil:
		return mergeObject(enc, stored, s)
	case s.elem != nil:
		return mergeArray(enc, stored, s.elem)
	}
	return enc, false, nil
}

// mergeObject adds stored's unknown members to the object enc, recursing
// into known members that are structs or lists of them.
func mergeObject(enc, stored json.RawMessage, s *shape) (json.RawMessage, bool, error) {
	var have map[string]json.RawMessage
	if json.Unmarshal(stored, &have) != nil {
		return enc, false, nil // stored is not an object: nothing to keep
	}
	var out map[string]json.RawMessage
	if err := json.Unmarshal(enc, &out); err != nil {
		return nil, false, fmt.Errorf("aspect does not encode to a JSON object: %w", err)
	}
	if out == nil {
		return enc, false, nil // enc is null (a nil pointer)
	}
	changed := false
	for k, v := range have {
		sub, isKnown := s.fields[k]
		cur, set := out[k]
		switch {
		case !isKnown && !set:
			out[k], changed = v, true
		case isKnown && set && sub != nil:
			merged, ch, err := mergeValue(cur, v, sub)
			if err == nil && ch {
				out[k], changed = merged, true
			}
		}
	}
	if !changed {
		return enc, false, nil
	}
	b, err := marshalNoEscape(out)
	return b, err == nil, err
}

// mergeArray adds, to each element of the array enc, the unknown members
// of the stored element it matches: the first stored element, not matched
// yet and in order, whose known projection (the stored element decoded
// into the Go element type elem.typ and encoded again) is the new element.
// An element that is new (or was changed) matches none and keeps nothing;
// a stored element matched by none (removed, or changed) is gone. Equal
// elements (duplicates) match equal stored ones in order. Matching is by
// the encoded bytes through a map: one decode and encode per stored
// element, then linear in the sizes of both lists.
func mergeArray(enc, stored json.RawMessage, elem *shape) (json.RawMessage, bool, error) {
	var have []json.RawMessage
	if json.Unmarshal(stored, &have) != nil || len(have) == 0 {
		return enc, false, nil
	}
	var out []json.RawMessage
	if err := json.Unmarshal(enc, &out); err != nil || len(out) == 0 {
		return enc, false, nil
	}
	unused := make(map[string][]int, len(have)) // projection -> stored indices
	for i, h := range have {
		p, ok := projection(h, elem.typ)
		if ok {
			unused[p] = append(unused[p], i)
		}
	}
	changed := false
	for i, e := range out {
		key, ok := compact(e)
		if !ok {
			continue
		}
		idx := unused[key]
		if len(idx) == 0 {
			continue
		}
		unused[key] = idx[1:]
		merged, ch, err := mergeValue(e, have[idx[0]], elem)
		if err == nil && ch {
			out[i], changed = merged, true
		}
	}
	if !changed {
		return enc, false, nil
	}
	b, err := marshalNoEscape(out)
	return b, err == nil, err
}

// projection returns the compact encoding of raw decoded into a value of
// type t: what a Go program knowing only t would write for it.
func projection(raw json.RawMessage, t reflect.Type) (string, bool) {
	v := reflect.New(t)
	if json.Unmarshal(raw, v.Interface()) != nil {
		return "", false
	}
	b, err := marshalNoEscape(v.Elem().Interface())
	if err != nil {
		return "", false
	}
	return compact(b)
}

// compact returns the compact form of the JSON value b.
func compact(b []byte) (string, bool) {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return "", false
	}
	return buf.String(), true
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
