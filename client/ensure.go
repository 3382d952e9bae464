package client

import (
	"context"
	"errors"
	"fmt"
	"slices"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
)

// Outcome is what Ensure did with one aspect.
type Outcome string

// The outcomes of an aspect in an EnsureResult.
const (
	// Created: the entity did not exist and Ensure created it with the
	// aspect.
	Created Outcome = "created"
	// Updated: the entity existed and the stored aspect differed (or was
	// missing); Ensure wrote it.
	Updated Outcome = "updated"
	// Unchanged: the stored aspect already equalled it; nothing was written.
	Unchanged Outcome = "unchanged"
)

// EnsureResult is what Ensure, or Update, did, aspect by aspect.
type EnsureResult struct {
	// URN is the entity's URN.
	URN string
	// Aspects maps the name of each aspect the entity held to its outcome
	// (Update reports only Updated and Unchanged).
	Aspects map[string]Outcome
}

// Written returns the names of the aspects Ensure wrote (created or
// updated), sorted.
func (r EnsureResult) Written() []string {
	var out []string
	for n, o := range r.Aspects {
		if o != Unchanged {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// Changed reports whether Ensure wrote anything.
func (r EnsureResult) Changed() bool { return len(r.Written()) > 0 }

// ensureAttempts is how many times Ensure reads and writes again after
// another writer created the entity first or an answer was lost.
const ensureAttempts = 4

// Ensure makes the stored entity hold the aspects e holds, writing only
// what differs, as an ingestion job that runs every hour wants:
//
//   - when the entity does not exist, Ensure creates it with them (as
//     Create does);
//   - when it exists, Ensure reads those aspects and writes, as Update
//     does (conditionally on the versions read, retrying conflicts as the
//     client's ConflictPolicy says), only those whose value differs from
//     the stored one. Values are compared as the Go types encode them after
//     decoding the stored JSON, so that member order, defaults the server
//     filled in and members the Go types do not know make no difference;
//     unknown members are written back unchanged.
//
// Aspects e does not hold are left alone, and e is not changed: Ensure
// never removes anything. Ensure resolves itself what a plain Create or
// Update leaves to the caller: another writer creating the entity first
// (datahub.ErrAlreadyExists) and a write whose answer was lost
// (datahub.ErrOutcomeUnknown) make it read the entity again and carry on
// from what is stored. A write stopped by its caller (ctx ended while it
// was in flight) is not read back: the error matches datahub.ErrStopped,
// datahub.ErrOutcomeUnknown and ctx's error, and running Ensure again
// finishes the work. Running Ensure twice with the same e writes nothing
// the second time.
//
// With WithIncrementalLineage, a dataset's upstreamLineage is not
// replaced: the upstreams and column-level edges the stored aspect lacks
// are added by PATCH, and those others wrote are kept.
//
// The result says, per aspect, whether it was created, updated or
// unchanged. Timeseries aspects (a training run's RunEvents) are events,
// not state to compare: Ensure refuses an entity holding them, wrapping
// datahub.ErrValidation; write those with Upsert.
func (es *Entities) Ensure(ctx context.Context, e entity.Entity) (EnsureResult, error) {
	acc, u, err := accessOf(e)
	if err != nil {
		return EnsureResult{}, err
	}
	if acc.Timeseries != nil && len(acc.Timeseries()) > 0 {
		return EnsureResult{}, fmt.Errorf("client: ensure %s: it holds timeseries aspects, which are events, not state Ensure can compare: write them with Upsert: %w", u, datahub.ErrValidation)
	}
	want := entity.Aspects(e)
	names := make([]string, len(want))
	for i, a := range want {
		names[i] = a.AspectName()
	}
	res := EnsureResult{URN: u.String(), Aspects: make(map[string]Outcome, len(want))}
	createLost := false // a Create of ours may have landed unseen
	var last error
	for range ensureAttempts {
		if err := ctx.Err(); err != nil {
			return EnsureResult{}, fmt.Errorf("client: ensure %s: %w", u, err)
		}
		var cur entity.Entity
		if len(names) == 0 {
			// Only the key: whether the entity exists is all there is.
			ok, err := es.c.Exists(ctx, u)
			if err != nil {
				return EnsureResult{}, err
			}
			if ok {
				return res, nil
			}
		} else {
			cur, err = es.Get(ctx, u, names...)
			var nf *EntityNotFoundError
			if err != nil && !errors.As(err, &nf) {
				return EnsureResult{}, err
			}
		}
		if cur == nil {
			err := es.Create(ctx, e)
			switch {
			case err == nil:
				for _, n := range names {
					res.Aspects[n] = Created
				}
				return res, nil
			case errors.Is(err, datahub.ErrAlreadyExists):
				last = err
				continue // another writer was first: compare with what it wrote
			case errors.Is(err, datahub.ErrStopped):
				return EnsureResult{}, err // the caller stopped: nothing to read back with
			case errors.Is(err, datahub.ErrOutcomeUnknown):
				createLost, last = true, err
				continue // read back what landed
			}
			return EnsureResult{}, err
		}
		var lineage *aspects.UpstreamLineage // sent by PATCH (WithIncrementalLineage)
		written, err := es.update(ctx, cur, func() error {
			for _, a := range want {
				if l, ok := incrementalLineage(es.c, a); ok {
					lineage = l
					continue
				}
				if !entity.SetAspect(cur, a) {
					return fmt.Errorf("client: ensure %s: %T has no field for %T: %w", u, cur, a, datahub.ErrValidation)
				}
			}
			return nil
		})
		if err != nil {
			if errors.Is(err, datahub.ErrOutcomeUnknown) && !errors.Is(err, datahub.ErrStopped) {
				last = err
				continue
			}
			return EnsureResult{}, fmt.Errorf("client: ensure %s: %w", u, err)
		}
		if lineage != nil {
			var stored *aspects.UpstreamLineage
			for _, a := range entity.Aspects(cur) {
				if l, ok := a.(*aspects.UpstreamLineage); ok {
					stored = l
				}
			}
			wrote, err := es.ensureLineage(ctx, u, lineage, stored)
			if err != nil {
				return EnsureResult{}, fmt.Errorf("client: ensure %s: %w", u, err)
			}
			if wrote {
				written = append(written, "upstreamLineage")
			}
		}
		for _, n := range names {
			switch {
			case slices.Contains(written, n):
				res.Aspects[n] = Updated
			case createLost:
				// The entity holds what our lost Create sent.
				res.Aspects[n] = Created
			default:
				res.Aspects[n] = Unchanged
			}
		}
		return res, nil
	}
	return EnsureResult{}, fmt.Errorf("client: ensure %s: not settled after %d attempts: %w", u, ensureAttempts, last)
}

// incrementalLineage returns a as the lineage Ensure adds by PATCH, when
// c writes lineage incrementally.
func incrementalLineage(c *Client, a aspects.Aspect) (*aspects.UpstreamLineage, bool) {
	if !c.incremental {
		return nil, false
	}
	switch l := a.(type) {
	case *aspects.UpstreamLineage:
		return l, l != nil
	case aspects.UpstreamLineage:
		return &l, true
	}
	return nil, false
}
