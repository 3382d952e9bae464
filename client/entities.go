package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/internal/emitctx"
	"github.com/catalogkit/datahub-go/internal/entitystate"
	"github.com/catalogkit/datahub-go/urn"
)

// ErrNotRead is returned by Entities.Update for an entity that was not
// read from the server (by Get or GetMany): an entity built in the program
// has no versions to write against. Write it with Create or Upsert.
var ErrNotRead = errors.New("client: entity was not read with Get")

// Entities reads and writes whole typed entities of package entity
// (datasets, models, features...): a struct of aspects at a time rather
// than one aspect. Get it with [Client.Entities]; it shares the client's
// connections, options and conflict policy.
type Entities struct {
	c *Client
}

// Entities returns the entity operations of c.
func (c *Client) Entities() *Entities { return &Entities{c: c} }

// getManyWorkers is the number of entities GetMany reads at once.
const getManyWorkers = 8

// Get reads entity u in one request (GET /entitiesV2/{urn}): the aspects
// named, or all the aspects its type in package entity has fields for,
// and returns the typed entity for u's type (a *entity.Dataset for a
// dataset, and so on) with the version of each aspect read, ready for
// Update. A field is nil when the entity does not have the aspect or it
// was not asked for. It fails with an *EntityNotFoundError (matching
// datahub.ErrNotFound) when the entity does not exist: when nothing but
// the key aspect GMS makes up from the URN comes back. A soft-deleted
// entity exists (see its Status field).
func (es *Entities) Get(ctx context.Context, u urn.URN, aspectNames ...string) (entity.Entity, error) {
	e, acc, err := newEntity(u)
	if err != nil {
		return nil, err
	}
	if err := es.read(ctx, e, acc, aspectNames); err != nil {
		return nil, err
	}
	return e, nil
}

// GetMany reads the entities us as Get does, at most eight at a time, and
// returns them in the order of us; an entity that does not exist is a nil
// entry. It fails with the first other error, naming the URN.
func (es *Entities) GetMany(ctx context.Context, us []urn.URN, aspectNames ...string) ([]entity.Entity, error) {
	out := make([]entity.Entity, len(us))
	errs := make([]error, len(us))
	for i, u := range us {
		if _, _, err := newEntity(u); err != nil {
			return nil, fmt.Errorf("client: entity %d: %w", i, err)
		}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, getManyWorkers)
	for i, u := range us {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			e, err := es.Get(ctx, u, aspectNames...)
			var nf *EntityNotFoundError
			if errors.As(err, &nf) {
				err = nil
			}
			out[i], errs[i] = e, err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("client: get %s: %w", us[i], err)
		}
	}
	return out, nil
}

// newEntity returns the empty typed entity of u and its access.
func newEntity(u urn.URN) (entity.Entity, entitystate.Access, error) {
	if err := checkURN(u); err != nil {
		return nil, entitystate.Access{}, err
	}
	e, err := entity.New(u)
	if err != nil {
		return nil, entitystate.Access{}, fmt.Errorf("client: %w: %w", err, datahub.ErrValidation)
	}
	acc, _ := entitystate.Of(e)
	return e, acc, nil
}

// accessOf returns the access of e, refusing a nil entity or one without
// a URN.
func accessOf(e entity.Entity) (entitystate.Access, urn.URN, error) {
	if e == nil || reflect.ValueOf(e).IsNil() {
		return entitystate.Access{}, nil, fmt.Errorf("client: no entity: %w", datahub.ErrValidation)
	}
	u := e.EntityURN()
	if err := checkURN(u); err != nil {
		return entitystate.Access{}, nil, err
	}
	acc, _ := entitystate.Of(e)
	return acc, u, nil
}

// read reads the aspects names (all of e's when none) of e into e's
// fields and state.
func (es *Entities) read(ctx context.Context, e entity.Entity, acc entitystate.Access, names []string) error {
	u := e.EntityURN()
	want := map[string]bool{}
	for _, n := range names {
		if !slices.ContainsFunc(acc.Slots, func(s entitystate.Slot) bool { return s.Name == n }) {
			return fmt.Errorf("client: %T has no field for aspect %q: %w", e, n, datahub.ErrValidation)
		}
		want[n] = true
	}
	var fetch []string
	if len(names) > 0 {
		fetch = slices.Clone(names)
		slices.Sort(fetch)
		fetch = slices.Compact(fetch)
	}
	got, err := es.c.GetEntity(ctx, u, fetch...)
	if errors.Is(err, datahub.ErrNotFound) {
		return &EntityNotFoundError{URN: u.String()}
	}
	if err != nil {
		return err
	}
	if !exists(u, got) {
		return &EntityNotFoundError{URN: u.String()}
	}
	st := &entitystate.State{Aspects: map[string]entitystate.Aspect{}}
	for _, s := range acc.Slots {
		if len(want) > 0 && !want[s.Name] {
			continue
		}
		ea, ok := got.Aspects[s.Name]
		if !ok || len(ea.Value) == 0 {
			s.Clear()
			st.Aspects[s.Name] = entitystate.Aspect{Version: unversioned}
			continue
		}
		v, ok := aspects.New(s.Name)
		if !ok {
			return fmt.Errorf("client: aspect %s has no Go type", s.Name)
		}
		if err := json.Unmarshal(ea.Value, v); err != nil {
			return fmt.Errorf("client: decode %s of %s: %w", s.Name, u, err)
		}
		typed, err := marshalNoEscape(v)
		if err != nil {
			return fmt.Errorf("client: encode %s of %s: %w", s.Name, u, err)
		}
		s.Set(v)
		st.Aspects[s.Name] = entitystate.Aspect{Raw: ea.Value, Typed: typed, Version: ea.Version}
	}
	*acc.State = st
	return nil
}

// exists reports whether an entitiesV2 answer shows a stored entity: an
// aspect besides the key, or a key aspect with system metadata (GMS makes
// up the key of an entity it does not have, without any).
func exists(u urn.URN, got *RawEntity) bool {
	info, _ := aspects.LookupEntity(u.EntityType())
	for name, a := range got.Aspects {
		if name != info.KeyAspect || len(a.SystemMetadata) > 0 && string(a.SystemMetadata) != "null" {
			return true
		}
	}
	return false
}

// Create writes a new entity e, all or nothing: its key aspect and each
// aspect it holds, in one request that the server applies whole or not at
// all. Over Rest.li the key aspect goes with changeType CREATE_ENTITY and
// the others with CREATE, as DataHub's Python SDK creates an entity; over
// OpenAPI, whose create routes take one aspect a request, they go as one
// batch POST, each aspect conditional on its absence (If-Version-Match:
// -1). When the entity exists, even if it appeared after the call began,
// the error matches datahub.ErrAlreadyExists; when the server refuses one
// aspect (an invalid value), the error is its refusal. Either way nothing
// is written, so a Create fixed after a refusal can be sent again. An
// entity too large for one request (the emitter's batch limits) is
// refused, wrapping datahub.ErrValidation, before anything is sent. After
// the write Create reads the entity back into e (one read), so that e holds
// what the server stored, with its versions, and can go to Update without
// a Get; an error of that read says the entity was created.
func (es *Entities) Create(ctx context.Context, e entity.Entity) error {
	err := es.write(emitctx.WithAllOrNothing(ctx), e, emitter.CreateEntity, emitter.Create)
	if errors.Is(err, datahub.ErrPreconditionFailed) && !errors.Is(err, datahub.ErrAlreadyExists) {
		// Over OpenAPI a create is a write conditional on absence.
		return fmt.Errorf("%w: %w", datahub.ErrAlreadyExists, err)
	}
	if err != nil {
		return err
	}
	acc, u, err := accessOf(e)
	if err != nil {
		return err
	}
	if err := es.read(ctx, e, acc, nil); err != nil {
		return fmt.Errorf("client: created %s, but reading it back failed: %w", u, err)
	}
	return nil
}

// Upsert writes every aspect e holds (and its key aspect) with changeType
// UPSERT, whether or not the entity exists, replacing each of those
// aspects whole; aspects e does not hold are left alone. Unlike Update it
// does not check versions: a concurrent change to an aspect e holds is
// overwritten. DataHub's Python SDK warns when it overwrites an entity it
// did not read; Upsert does not look.
func (es *Entities) Upsert(ctx context.Context, e entity.Entity) error {
	return es.write(ctx, e, emitter.Upsert, emitter.Upsert)
}

// write sends e's key aspect with changeType key and its aspects with
// changeType other, in one Emit call.
func (es *Entities) write(ctx context.Context, e entity.Entity, key, other emitter.ChangeType) error {
	acc, u, err := accessOf(e)
	if err != nil {
		return err
	}
	now := es.c.now().UnixMilli()
	ps := []emitter.Proposal{}
	for _, a := range append([]aspects.Aspect{e.KeyAspect()}, entity.Aspects(e)...) {
		p, err := emitter.NewProposal(u, a)
		if err != nil {
			return err
		}
		p.ChangeType = other
		if len(ps) == 0 {
			p.ChangeType = key
		}
		p.SystemMetadata = &aspects.SystemMetadata{LastObserved: now}
		ps = append(ps, p)
	}
	if acc.Timeseries != nil {
		for _, a := range acc.Timeseries() {
			p, err := emitter.NewProposal(u, a) // timeseries aspects take only UPSERT
			if err != nil {
				return err
			}
			p.SystemMetadata = &aspects.SystemMetadata{LastObserved: now}
			ps = append(ps, p)
		}
	}
	if err := es.c.emit(ctx, ps...); err != nil {
		if r, ok := firstFailure(err); ok {
			err = r
		}
		return fmt.Errorf("client: %s %s: %w", strings.ToLower(string(key)), u, err)
	}
	return nil
}

// firstFailure returns the error of the first proposal of an Emit call
// that was not written.
func firstFailure(err error) (error, bool) {
	var be *emitter.BatchError
	if !errors.As(err, &be) {
		return nil, false
	}
	for _, r := range be.Results {
		if r.Err != nil {
			return r.Err, true
		}
	}
	return nil, false
}

// Delete deletes entity u, as DataHub's Python SDK does: softly with hard
// false (status.removed = true, as Python's soft_delete_entity: the entity
// and its aspects stay stored and readable, DataHub's UI and search hide
// it; other members of the status aspect are kept, nothing is written for
// an entity already removed; Client.Undelete reverts it), or with hard true
// every version of every aspect of it (see Client.HardDelete). It refuses
// an entity that does not exist with an *EntityNotFoundError.
func (es *Entities) Delete(ctx context.Context, u urn.URN, hard bool) error {
	if !hard {
		return es.c.setRemoved(ctx, u, true)
	}
	ok, err := es.c.Exists(ctx, u)
	if err != nil {
		return err
	}
	if !ok {
		return &EntityNotFoundError{URN: u.String()}
	}
	_, err = es.c.HardDelete(ctx, u)
	return err
}

// DeleteAspects deletes aspects aspectNames of entity u, every version of
// each, and keeps the entity and its other aspects, through the only
// DataHub route that deletes a versioned aspect: DELETE
// /openapi/v3/entity/{entityType}/{urn}/{aspect}, one per aspect, in
// order (a failure stops there, the aspects before it deleted). Deleting an
// aspect the entity does not have is no error; of a timeseries aspect,
// DataHub deletes the latest document only. The key aspect is refused:
// Delete deletes the entity. (DataHub's Rest.li delete action takes an
// aspect name for timeseries aspects only.)
func (es *Entities) DeleteAspects(ctx context.Context, u urn.URN, aspectNames ...string) error {
	if err := checkURN(u); err != nil {
		return err
	}
	info, _ := aspects.LookupEntity(u.EntityType())
	for _, name := range aspectNames {
		if name == info.KeyAspect {
			return fmt.Errorf("client: delete %s of %s: the key aspect goes with the entity: use Delete: %w", name, u, datahub.ErrValidation)
		}
		if _, err := checkAspect(u, name); err != nil {
			return err
		}
	}
	for _, name := range aspectNames {
		path := "/openapi/v3/entity/" + u.EntityType() + "/" + url.PathEscape(u.String()) + "/" + name
		if _, err := es.c.tc.Do(ctx, http.MethodDelete, path, nil); err != nil {
			return fmt.Errorf("client: delete %s of %s: %w", name, u, err)
		}
	}
	return nil
}
