package client

import (
	"context"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/urn"
)

// WriteTimeseries appends the value a of a timeseries aspect (such as a
// dataset profile, a run event or an ingestion checkpoint) to entity u,
// as an UPSERT: DataHub keeps every value by its timestampMillis (a value
// with the same timestamp and partition replaces the earlier one). It
// refuses, wrapping datahub.ErrValidation, an aspect that is not a
// timeseries aspect of u's entity type: write those with Modify or the
// entity operations.
func (c *Client) WriteTimeseries(ctx context.Context, u urn.URN, a aspects.Aspect) error {
	if err := checkURN(u); err != nil {
		return err
	}
	if a == nil {
		return fmt.Errorf("client: write timeseries of %s: no aspect: %w", u, datahub.ErrValidation)
	}
	info, err := checkAspect(u, a.AspectName())
	if err != nil {
		return err
	}
	if !info.Timeseries {
		return fmt.Errorf("client: %s is not a timeseries aspect: write it with Modify: %w", info.Name, datahub.ErrValidation)
	}
	p, err := emitter.NewProposal(u, a)
	if err != nil {
		return err
	}
	p.SystemMetadata = &aspects.SystemMetadata{LastObserved: c.now().UnixMilli()}
	if err := c.emit(ctx, p); err != nil {
		if r, ok := firstFailure(err); ok {
			err = r
		}
		return fmt.Errorf("client: write %s of %s: %w", info.Name, u, err)
	}
	return nil
}
