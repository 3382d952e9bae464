package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/internal/entitystate"
	"github.com/catalogkit/datahub-go/urn"
)

// Update changes entity e, which Get or GetMany returned, by calling fn
// and writing the aspects fn changed, without losing concurrent changes:
//
//  1. fn changes e's fields in place (it closes over e); returning
//     ErrNoChange ends Update with nil and writes nothing, any other error
//     ends it with that error, e as it was read;
//  2. the aspects whose value now differs from the one read are written,
//     and only those, in one request, each as an UPSERT with the header
//     If-Version-Match: <the version read> ("-1" for an aspect the entity
//     did not have); members of the stored aspects that the Go types do
//     not know are written back unchanged, as Modify does;
//  3. when the server refuses because another writer changed one of them
//     first, Update waits as the client's ConflictPolicy says, reads the
//     aspects again into e and calls fn again, up to the policy's
//     attempts; then the error is a *ConflictError.
//
// Under the Patch write strategy (WithWriteStrategy), a change of
// globalTags, glossaryTerms or ownership that only adds or removes tags,
// terms or owners goes instead as a PATCH of those items, which DataHub's
// templates merge by key into what the server holds: it cannot conflict,
// so writers adding tags at once do not retry. Any other change (an item
// changed in place, the list reordered, another member) stays
// conditional.
//
// fn may therefore run several times, each time on a fresh read; it
// should only change e from the values it finds there. A write whose
// answer was lost is resolved by reading back, never by calling fn on top
// of it. On success e holds what was written, with the new versions, and
// can be updated again. An aspect fn sets that was not read (Get with
// chosen aspects) is read first, and fn called on the fresh entity; a
// field fn sets to nil is not a change (use DeleteAspects).
//
// What Update reports, and what e holds then: nil when every change was
// written (e holds it, with the new versions); fn's error, a refusal (a
// *datahub.Error), or a *ConflictError after the policy's attempts, when
// nothing was written (e holds what was read); an error matching
// datahub.ErrOutcomeUnknown when answers were lost and reading back could
// not tell what landed, or found only part of it; and, when ctx ends while
// a write is in flight, an error matching datahub.ErrStopped,
// datahub.ErrOutcomeUnknown and ctx's error, without a read back (the
// write may have been applied). In the last two cases e holds what was
// read: Get it again before another Update.
//
// Update refuses, with an error matching ErrNotRead, an entity that was
// not read from the server, and, wrapping datahub.ErrValidation, one
// changed outside fn since it was read: such a change could not be made
// again after a conflict.
//
// On success Update says what it wrote, as Ensure does: the result maps
// each aspect it wrote to Updated and each other aspect e holds to
// Unchanged, so that Written lists what was written and Changed is false
// when fn changed nothing (or returned ErrNoChange). On an error the
// result is empty.
func (es *Entities) Update(ctx context.Context, e entity.Entity, fn func() error) (EnsureResult, error) {
	written, err := es.update(ctx, e, fn)
	if err != nil {
		return EnsureResult{}, err
	}
	return updateResult(e, written), nil
}

// updateResult is what Update reports after writing written to e.
func updateResult(e entity.Entity, written []string) EnsureResult {
	acc, u, err := accessOf(e)
	if err != nil {
		return EnsureResult{}
	}
	res := EnsureResult{URN: u.String(), Aspects: map[string]Outcome{}}
	for _, s := range acc.Slots {
		if s.Get() != nil {
			res.Aspects[s.Name] = Unchanged
		}
	}
	for _, n := range written {
		res.Aspects[n] = Updated
	}
	return res
}

// update is Update, returning the names of the aspects it wrote.
func (es *Entities) update(ctx context.Context, e entity.Entity, fn func() error) (written []string, err error) {
	acc, u, err := accessOf(e)
	if err != nil {
		return nil, err
	}
	st := *acc.State
	if st == nil {
		return nil, fmt.Errorf("client: update %s: %w: read it with Get first, or write it whole with Create or Upsert", u, ErrNotRead)
	}
	if fn == nil {
		return nil, fmt.Errorf("client: update %s: nil function: %w", u, datahub.ErrValidation)
	}
	changed, err := changes(u, acc, st)
	if err != nil {
		return nil, err
	}
	if len(changed) > 0 {
		return nil, fmt.Errorf("client: update %s: %s changed since it was read, outside the change function: make the change in the function, which runs again on a fresh read after a conflict: %w", u, names(changed), datahub.ErrValidation)
	}
	c := es.c
	attempts := max(c.conflict.MaxAttempts, 1)
	for attempt := 1; ; attempt++ {
		if err := fn(); err != nil {
			restore(acc, st)
			if errors.Is(err, ErrNoChange) {
				return nil, nil
			}
			return nil, err
		}
		changed, err := changes(u, acc, st)
		if err != nil {
			restore(acc, st)
			return nil, err
		}
		if len(changed) == 0 {
			return nil, nil
		}
		if unread := unreadOf(changed, st); len(unread) > 0 {
			// Versions are needed: read these (again), and start again.
			if err := es.read(ctx, e, acc, append(stNames(st), unread...)); err != nil {
				restore(acc, st)
				return nil, err
			}
			st = *acc.State
			attempt--
			continue
		}
		c.patchChanges(changed, st)
		werr := c.writeChanges(ctx, u, changed, st)
		if werr == nil {
			*acc.State = after(st, changed)
			return nameList(changed), nil
		}
		var cerr *conflictAt
		if !errors.As(werr, &cerr) {
			restore(acc, st)
			return nil, werr
		}
		if attempt >= attempts {
			restore(acc, st)
			if errors.Is(cerr.err, datahub.ErrPreconditionFailed) {
				return nil, &ConflictError{URN: u.String(), Aspect: names(changed), Attempts: attempt, Err: cerr.err}
			}
			return nil, fmt.Errorf("client: update %s: not written after %d attempts: %w", u, attempt, cerr.err)
		}
		if err := c.sleep(ctx, c.conflict.wait(attempt)); err != nil {
			restore(acc, st)
			return nil, fmt.Errorf("client: update %s: %w", u, err)
		}
		if err := es.read(ctx, e, acc, stNames(st)); err != nil {
			restore(acc, st)
			return nil, err
		}
		st = *acc.State
	}
}

// change is an aspect an Update writes.
type change struct {
	name  string
	now   aspects.Aspect  // the field's value
	typed json.RawMessage // the Go type's encoding
	value json.RawMessage // typed, with the stored members the type does not know
	patch *listPatch      // set when it goes as a PATCH (see patchChanges)
}

// names lists the aspect names of cs.
func names(cs []change) string { return strings.Join(nameList(cs), ", ") }

// nameList returns the aspect names of cs, in order.
func nameList(cs []change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
}

// changes returns the aspects of acc that differ from what st read.
func changes(u urn.URN, acc entitystate.Access, st *entitystate.State) ([]change, error) {
	var out []change
	for _, s := range acc.Slots {
		v := s.Get()
		if v == nil {
			continue
		}
		typed, err := marshalNoEscape(v)
		if err != nil {
			return nil, fmt.Errorf("client: encode %s of %s: %w", s.Name, u, err)
		}
		read, ok := st.Aspects[s.Name]
		if ok && bytes.Equal(typed, read.Typed) {
			continue
		}
		value := typed
		if len(read.Raw) > 0 {
			t := reflect.TypeOf(v)
			if t.Kind() == reflect.Pointer {
				t = t.Elem()
			}
			if value, err = mergeUnknown(v, read.Raw, knownMembers(t)); err != nil {
				return nil, fmt.Errorf("client: encode %s of %s: %w", s.Name, u, err)
			}
		}
		out = append(out, change{name: s.Name, now: v, typed: typed, value: value})
	}
	return out, nil
}

// unreadOf returns the names of the changes st did not read, or whose
// version it does not know (an aspect an earlier Update patched: the
// server merged the patch into what it held).
func unreadOf(cs []change, st *entitystate.State) []string {
	var out []string
	for _, c := range cs {
		if a, ok := st.Aspects[c.name]; !ok || a.Version == "" {
			out = append(out, c.name)
		}
	}
	return out
}

// restore sets acc's fields back to what st read (nil for those it did
// not read).
func restore(acc entitystate.Access, st *entitystate.State) {
	for _, s := range acc.Slots {
		read, ok := st.Aspects[s.Name]
		if !ok || read.Raw == nil {
			s.Clear()
			continue
		}
		if v, ok := aspects.New(s.Name); ok && json.Unmarshal(read.Raw, v) == nil {
			s.Set(v)
		}
	}
}

// conflictAt is an Update round whose write was not applied and may be
// tried again on a fresh read: a conflict, a busy server, a lost answer
// found not applied.
type conflictAt struct{ err error }

func (e *conflictAt) Error() string { return e.err.Error() }

// writeChanges writes cs conditionally on the versions st read, in one
// Emit call. It returns nil when all were written, a *conflictAt when
// none was and the round may be tried again, or the failure.
func (c *Client) writeChanges(ctx context.Context, u urn.URN, cs []change, st *entitystate.State) error {
	now := c.now().UnixMilli()
	var ps []emitter.Proposal
	var owner []int // owner[i] is the change proposal i writes
	for i, ch := range cs {
		if ch.patch != nil {
			pps, err := ch.patch.proposals(u)
			if err != nil {
				return err
			}
			for _, p := range pps {
				p.SystemMetadata = &aspects.SystemMetadata{LastObserved: now}
				ps, owner = append(ps, p), append(owner, i)
			}
			continue
		}
		ps = append(ps, emitter.Proposal{
			EntityType:     u.EntityType(),
			URN:            u,
			ChangeType:     emitter.Upsert,
			AspectName:     ch.name,
			Aspect:         emitter.RawAspect{Name: ch.name, JSON: ch.value},
			SystemMetadata: &aspects.SystemMetadata{LastObserved: now},
			Headers:        map[string]string{headerIfVersionMatch: st.Aspects[ch.name].Version},
		})
		owner = append(owner, i)
	}
	err := c.emit(ctx, ps...)
	if err == nil {
		return nil
	}
	var be *emitter.BatchError
	if !errors.As(err, &be) {
		return fmt.Errorf("client: update %s: %w", u, err)
	}
	var retry error
	var unknown []int
	for _, r := range be.Results {
		switch writeOutcome(ctx, r.Status, r.Err) {
		case outcomeWritten:
		case outcomeRetry:
			retry = r.Err
		case outcomeUnknown:
			if !slices.Contains(unknown, owner[r.Index]) {
				unknown = append(unknown, owner[r.Index])
			}
		case outcomeNotApplied:
			return fmt.Errorf("client: update %s: %s not written: %w", u, r.Aspect, r.Err)
		case outcomeStopped:
			return fmt.Errorf("client: update %s: %s: %w", u, r.Aspect, r.Err)
		default:
			return fmt.Errorf("client: update %s: %s: %w", u, r.Aspect, r.Err)
		}
	}
	if len(unknown) == 0 {
		if retry == nil {
			return nil // every proposal written
		}
		return &conflictAt{retry}
	}
	// Answers were lost: read back to learn what landed.
	landed := 0
	for _, i := range unknown {
		var ok bool
		var rerr error
		if cs[i].patch != nil {
			ok, rerr = cs[i].patch.landed(ctx, c, u, cs[i].name)
		} else {
			info, _ := aspects.Lookup(cs[i].name)
			ok, _, rerr = c.resolve(ctx, u, info, cs[i].value, st.Aspects[cs[i].name].Version)
		}
		if rerr != nil {
			return fmt.Errorf("client: update %s: the answer to the write of %s was lost and reading it back failed: %w", u, cs[i].name, &unknownCause{rerr})
		}
		if ok {
			landed++
		}
	}
	switch {
	case landed == len(unknown) && retry == nil:
		return nil
	case landed == 0:
		return &conflictAt{fmt.Errorf("the write of %s was lost and not applied", names(cs))}
	}
	return fmt.Errorf("client: update %s: the answer to the write was lost and only part of it was applied: %w", u, datahub.ErrOutcomeUnknown)
}

// stNames returns the aspect names st read.
func stNames(st *entitystate.State) []string {
	out := make([]string, 0, len(st.Aspects))
	for n := range st.Aspects {
		out = append(out, n)
	}
	return out
}

// after returns st with the changes cs written: their values and the
// versions their writes made.
func after(st *entitystate.State, cs []change) *entitystate.State {
	out := &entitystate.State{Aspects: make(map[string]entitystate.Aspect, len(st.Aspects))}
	for n, a := range st.Aspects {
		out.Aspects[n] = a
	}
	for _, c := range cs {
		v := nextVersion(st.Aspects[c.name].Version)
		if c.patch != nil {
			// The server merged the patch into what it had, which others
			// may have changed: the version is unknown, and the next
			// Update that changes it reads it again first (unreadOf).
			v = ""
		}
		out.Aspects[c.name] = entitystate.Aspect{Raw: c.value, Typed: c.typed, Version: v}
	}
	return out
}
