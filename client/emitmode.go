package client

import (
	"context"
	"fmt"
	"sync"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/config"
)

// WithEmitMode sets when the client's writes return, as the emitter's
// option emitter.WithEmitMode does for an emitter: EmitSyncPrimary (the
// default) once stored, EmitSyncWait once stored and indexed,
// EmitAsyncWait once the write's trace shows it stored and indexed (over
// OpenAPI; over Rest.li, which has no trace, it writes as EmitSyncPrimary
// and logs that once). It applies to every write of the client: the
// entity operations (Create, Upsert, Update, Ensure, timeseries aspects
// included), Modify and the helpers. EmitAsync, which returns before the
// server has decided, would make the client's read-back of lost answers
// and conflict checks meaningless, and is refused. datahub.FromEnv gives
// DATAHUB_EMIT_MODE the same way. [Client.WithEmitMode] gives a copy of a
// client with another mode, for one call or a few.
func WithEmitMode(m emitter.EmitMode) Option {
	return config.ClientOnly(func(s *config.Settings) {
		i := int(m)
		s.EmitMode = &i
	})
}

// checkEmitMode refuses the modes the client cannot write in.
func checkEmitMode(m emitter.EmitMode) error {
	switch m {
	case emitter.EmitSyncPrimary, emitter.EmitSyncWait, emitter.EmitAsyncWait:
		return nil
	case emitter.EmitAsync:
		return fmt.Errorf("client: emit mode ASYNC returns before the server decides, which the client's conflict checks and read-back of lost answers need: use ASYNC_WAIT, or an emitter for fire-and-forget writes: %w", datahub.ErrValidation)
	}
	return fmt.Errorf("client: unknown emit mode %d: %w", int(m), datahub.ErrValidation)
}

// modeEmitters are a client's emitters by emit mode, shared by its copies.
type modeEmitters struct {
	mu   sync.Mutex
	opts []emitter.Option // the emitter's options, the mode excepted
	url  string
	ems  map[emitter.EmitMode]*emitter.REST
}

// get returns the emitter of mode m, making it the first time.
func (me *modeEmitters) get(m emitter.EmitMode) (*emitter.REST, error) {
	me.mu.Lock()
	defer me.mu.Unlock()
	if em, ok := me.ems[m]; ok {
		return em, nil
	}
	em, err := emitter.NewREST(me.url, append(me.opts[:len(me.opts):len(me.opts)], emitter.WithEmitMode(m))...)
	if err != nil {
		return nil, err
	}
	me.ems[m] = em
	return em, nil
}

// EmitMode returns the emit mode of c's writes.
func (c *Client) EmitMode() emitter.EmitMode { return c.mode }

// WithEmitMode returns a copy of c whose writes return as mode m says (see
// the option WithEmitMode); c is unchanged. The copy shares c's
// connections and settings (the emitter of each mode is made once), so it
// is cheap enough to make per call:
//
//	err := c.WithEmitMode(emitter.EmitAsyncWait).Entities().Create(ctx, e)
//
// A mode the client cannot write in (EmitAsync) gives a copy whose writes
// fail with an error wrapping datahub.ErrValidation.
func (c *Client) WithEmitMode(m emitter.EmitMode) *Client {
	cp := *c
	cp.mode = m
	if err := checkEmitMode(m); err != nil {
		cp.em = nil
		cp.emErr = err
		return &cp
	}
	em, err := c.emitters.get(m)
	cp.em, cp.emErr = em, err
	return &cp
}

// emit sends ps with c's emitter.
func (c *Client) emit(ctx context.Context, ps ...emitter.Proposal) error {
	if c.emErr != nil {
		return c.emErr
	}
	return c.em.Emit(ctx, ps...)
}
