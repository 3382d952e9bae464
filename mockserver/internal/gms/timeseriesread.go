package gms

import (
	"context"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// LatestTimeseries returns the latest document of each timeseries aspect of
// urn named in aspects (every timeseries aspect of its entity when aspects
// is nil; other names are ignored), as DataHub's OpenAPI reads add them to
// an entity's versioned aspects (getLatestTimeseriesAspectValues). A
// non-zero endMillis[name] selects the latest document at or before it
// (the read's version, which for a timeseries aspect is a time). Aspects
// without documents are left out.
func (c *Core) LatestTimeseries(ctx context.Context, urn string, aspects []string, endMillis map[string]int64) ([]TimeseriesDoc, error) {
	c.barrier()
	e, ok := lookupEntity(EntityTypeOf(urn))
	if !ok {
		return nil, nil
	}
	if aspects == nil {
		aspects = e.Aspects
	}
	var out []TimeseriesDoc
	for _, name := range aspects {
		if info, ok := pdl.LookupAspect(name); !ok || !info.Timeseries || !e.Allows(name) {
			continue
		}
		end := endMillis[name]
		if end < 0 {
			continue
		}
		docs, err := c.st.Timeseries(urn, name, 0, end, 1)
		if err != nil {
			return nil, errorf(Internal, MsgStore, err)
		}
		out = append(out, docs...)
	}
	return out, nil
}
