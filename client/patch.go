package client

import (
	"context"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/urn"
)

// The patch strategy (WithWriteStrategy(Patch)) of the helpers. Each
// helper builds one PATCH proposal of one aspect with package emitter/patch
// and sends it after checking that the entity exists:
//
//   - one GET (Exists: the entity's key aspect) and one POST, whatever
//     other writers do: no read of the aspect, no version, no retry loop;
//     the server applies the patch to the aspect it holds, in one step;
//   - a patch on an entity that does not exist would create it, so the
//     helper refuses it first with an *EntityNotFoundError, as the
//     conditional strategy does;
//   - adding a key that is there (a tag, a feature, an owner of a type) or
//     removing one that is not leaves the aspect's value as it was; the
//     server still takes the proposal, and DataHub (and the mock) write no
//     new version for a value that did not change;
//   - what the patch cannot see it cannot decide: AddLink replaces a link
//     with the same URL whole (description and create stamp, so adding a
//     link that is there writes a new version with a new create stamp),
//     where the conditional strategy writes nothing or keeps the create
//     stamp and sets an update stamp; AddTerm and AddOwner do not set the aspect's audit stamp
//     (glossaryTerms.auditStamp, ownership.lastModified), which the
//     server's template defaults.
//
// A write whose answer is lost is replayed by the emitter as the retry
// policy says: a keyed add or remove gives the same result twice.

// checkStrategy refuses a strategy that is neither Conditional nor Patch.
func (c *Client) checkStrategy() error {
	switch c.strategy {
	case Conditional, Patch:
		return nil
	}
	return fmt.Errorf("client: unknown write strategy %d: %w", int(c.strategy), datahub.ErrValidation)
}

// patched reports whether the helper should write with a patch; an
// unknown strategy is an error.
func (c *Client) patched() (bool, error) {
	if err := c.checkStrategy(); err != nil {
		return false, err
	}
	return c.strategy == Patch, nil
}

// writePatch sends b's proposal (one aspect, named aspect) to entity u,
// after refusing an entity type without aspect and, when checkExists, an
// entity that does not exist; the extra proposals go in the same emit.
func (c *Client) writePatch(ctx context.Context, u urn.URN, aspect string, b *patch.Builder, checkExists bool, extra ...emitter.Proposal) error {
	if _, err := checkAspect(u, aspect); err != nil {
		return err
	}
	proposals, err := b.Proposals()
	if err != nil {
		return fmt.Errorf("client: patch %s of %s: %w", aspect, u, err)
	}
	if checkExists {
		ok, err := c.Exists(ctx, u)
		if err != nil {
			return err
		}
		if !ok {
			return &EntityNotFoundError{URN: u.String()}
		}
	}
	proposals = append(proposals, extra...)
	for i := range proposals {
		proposals[i].SystemMetadata = &aspects.SystemMetadata{LastObserved: c.now().UnixMilli()}
	}
	err = c.emit(ctx, proposals...)
	if r, ok := soleResult(err); ok {
		err = r.Err
	} else if r, ok := firstFailure(err); ok {
		err = r
	}
	if err != nil {
		return fmt.Errorf("client: patch %s of %s: %w", aspect, u, err)
	}
	return nil
}

// either writes with a patch of aspect built by build under the patch
// strategy, else calls conditional.
func (c *Client) either(ctx context.Context, u urn.URN, aspect string, build func() *patch.Builder, conditional func() error) error {
	p, err := c.patched()
	if err != nil {
		return err
	}
	if !p {
		return conditional()
	}
	if err := checkURN(u); err != nil {
		return err
	}
	return c.writePatch(ctx, u, aspect, build(), true)
}

// writeChange writes one change to aspect A of entity u by the client's write
// strategy (see either): a PATCH that build fills in on patch.New(u), or the
// version-checked read-modify-write fn.
func writeChange[A aspects.Aspect](ctx context.Context, c *Client, u urn.URN, build func(b *patch.Builder), fn func(*A) error) error {
	return c.either(ctx, u, aspectNameOf[A](), func() *patch.Builder {
		b := patch.New(u)
		build(b)
		return b
	}, func() error { return modify(ctx, c, u, true, fn) })
}
