package gms

import (
	"context"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// IsTimeseries reports whether aspect is a timeseries aspect.
func IsTimeseries(aspect string) bool {
	info, ok := pdl.LookupAspect(aspect)
	return ok && info.Timeseries
}

// DeleteLatestTimeseries deletes a timeseries aspect of urn as DataHub's
// OpenAPI aspect delete does: it finds urn's latest document of the aspect
// and deletes every document of the aspect of urn's entity type with that
// timestampMillis (DataHub's filter names the timestamp only, not the URN).
// It returns how many documents it deleted; none when urn has no document.
func (c *Core) DeleteLatestTimeseries(ctx context.Context, urn, aspect string) (int, error) {
	docs, err := c.LatestTimeseries(ctx, urn, []string{aspect}, nil)
	if err != nil || len(docs) == 0 {
		return 0, err
	}
	ts := docs[0].TimestampMillis
	n, serr := c.st.DeleteDocuments("urn:li:"+EntityTypeOf(urn)+":", aspect, func(timestamps []int64) []int {
		var out []int
		for i, t := range timestamps {
			if t == ts {
				out = append(out, i)
			}
		}
		return out
	})
	if serr != nil {
		return 0, errorf(Internal, MsgStore, serr)
	}
	return n, nil
}
