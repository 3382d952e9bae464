package gms

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"

	"github.com/catalogkit/datahub-go/mockserver/internal/index"
)

// TimeseriesHit is one document of a timeseries scroll.
type TimeseriesHit struct {
	URN             string
	TimestampMillis int64
	MessageID       string
	Value           json.RawMessage
}

// TimeseriesOfType returns the documents of a timeseries aspect of every
// entity of a type with startMillis <= timestampMillis <= endMillis (0:
// unbounded), newest first and then by messageId descending, as DataHub's
// timeseries scroll sorts them, from the timeseries index (which follows the
// store after the async lag). It stops with ctx's error when ctx ends.
func (c *Core) TimeseriesOfType(ctx context.Context, entityType, aspect string, startMillis, endMillis int64) ([]TimeseriesHit, error) {
	c.barrier()
	if _, err := AspectOf(entityType, aspect); err != nil {
		return nil, err
	}
	if !IsTimeseries(aspect) {
		return nil, errorf(BadArgument, "Only timeseries aspects are supported.")
	}
	var out []TimeseriesHit
	var stop error
	seen := 0
	c.ix.Each(index.TimeseriesIndexName(entityType, aspect), func(d *index.Document) bool {
		if seen++; seen%listCheckEvery == 0 {
			if stop = ctx.Err(); stop != nil {
				return false
			}
		}
		if startMillis != 0 && d.TimestampMillis < startMillis || endMillis != 0 && d.TimestampMillis > endMillis {
			return true
		}
		var id struct {
			MessageID string `json:"messageId"`
		}
		_ = json.Unmarshal(d.Source, &id)
		out = append(out, TimeseriesHit{URN: d.URN, TimestampMillis: d.TimestampMillis, MessageID: id.MessageID, Value: d.Source})
		return true
	})
	if stop != nil {
		return nil, stop
	}
	slices.SortStableFunc(out, func(a, b TimeseriesHit) int {
		return cmp.Or(cmp.Compare(b.TimestampMillis, a.TimestampMillis), cmp.Compare(b.MessageID, a.MessageID))
	})
	return out, nil
}
