package client

import (
	"context"
	"slices"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/internal/config"
	"github.com/catalogkit/datahub-go/urn"
)

// WithIncrementalLineage makes Ensure write a dataset's upstreamLineage
// as DataHub's incremental_lineage does: a PATCH that adds the upstream
// datasets and column-level edges the entity lacks, instead of a whole
// aspect that would replace the list. Edges other writers added (another
// job, a person in DataHub's UI) survive; edges the source dropped are not
// removed either: remove those with a PATCH of your own
// (patch.Dataset.RemoveUpstream). Do not also write the aspect whole in
// the same job. [Client.WithIncrementalLineage] gives a copy of a client
// with the other setting.
func WithIncrementalLineage(incremental bool) Option {
	return config.ClientOnly(func(s *config.Settings) {
		s.Client.IncrementalLineage = incremental
	})
}

// WithIncrementalLineage returns a copy of c with the option
// WithIncrementalLineage set to incremental; c is unchanged. The copy
// shares c's connections and is cheap enough to make per call.
func (c *Client) WithIncrementalLineage(incremental bool) *Client {
	cp := *c
	cp.incremental = incremental
	return &cp
}

// lineagePatch returns the PATCH that adds to stored (nil: none) the
// upstreams and column-level edges of want it lacks, nil when it lacks
// none.
func lineagePatch(u urn.URN, want, stored *aspects.UpstreamLineage) *patch.Builder {
	var have aspects.UpstreamLineage
	if stored != nil {
		have = *stored
	}
	b := patch.New(u)
	d := &patch.Dataset{Builder: b}
	n := 0
	for _, up := range want.Upstreams {
		if slices.ContainsFunc(have.Upstreams, func(h aspects.Upstream) bool { return h.Dataset == up.Dataset }) {
			continue
		}
		d.AddUpstream(up)
		n++
	}
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	for _, fg := range want.FineGrainedLineages {
		score := float32(1)
		if fg.ConfidenceScore != nil {
			score = *fg.ConfidenceScore
		}
		for _, down := range fg.Downstreams {
			for _, up := range fg.Upstreams {
				if slices.ContainsFunc(have.FineGrainedLineages, func(h aspects.FineGrainedLineage) bool {
					return str(h.TransformOperation) == str(fg.TransformOperation) && str(h.Query) == str(fg.Query) &&
						slices.Contains(h.Downstreams, down) && slices.Contains(h.Upstreams, up)
				}) {
					continue
				}
				d.AddFineGrainedUpstream(str(fg.TransformOperation), down, str(fg.Query), up, score)
				n++
			}
		}
	}
	if n == 0 {
		return nil
	}
	return b
}

// ensureLineage adds what lineage lacks of want by PATCH (see
// WithIncrementalLineage) and reports whether it wrote anything.
func (es *Entities) ensureLineage(ctx context.Context, u urn.URN, want, stored *aspects.UpstreamLineage) (bool, error) {
	b := lineagePatch(u, want, stored)
	if b == nil {
		return false, nil
	}
	return true, es.c.writePatch(ctx, u, "upstreamLineage", b, false)
}
