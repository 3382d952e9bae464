package graphql

import (
	"encoding/json"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// Dataset.operations: the dataset's `operation` timeseries documents,
// newest first, as DataHub's TimeSeriesAspectResolver answers them (a
// filter is not applied by the mock).

// operationJSON is the operation aspect as stored.
type operationJSON struct {
	TimestampMillis      int64                       `json:"timestampMillis"`
	Actor                *string                     `json:"actor"`
	OperationType        string                      `json:"operationType"`
	CustomOperationType  *string                     `json:"customOperationType"`
	SourceType           *string                     `json:"sourceType"`
	NumAffectedRows      *int64                      `json:"numAffectedRows"`
	AffectedDatasets     *[]string                   `json:"affectedDatasets"`
	LastUpdatedTimestamp int64                       `json:"lastUpdatedTimestamp"`
	PartitionSpec        *struct{ Partition string } `json:"partitionSpec"`
	CustomProperties     map[string]string           `json:"customProperties"`
}

// defaultOperationsLimit is DataHub's TimeSeriesAspectResolver's default
// limit.
const defaultOperationsLimit = 10

func init() {
	Register("Dataset.operations", func(c *Ctx, a Args) (any, error) {
		b, ok := c.Parent.(baser)
		if !ok {
			return nil, nil
		}
		u := b.base().urn
		var in struct {
			StartTimeMillis, EndTimeMillis *int64
			Limit                          *int64
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		q := gms.TimeseriesQuery{URN: u, Entity: "dataset", Aspect: "operation", Limit: defaultOperationsLimit}
		if in.Limit != nil {
			q.Limit = *in.Limit
		}
		if in.StartTimeMillis != nil {
			q.StartMillis = *in.StartTimeMillis
		}
		if in.EndTimeMillis != nil {
			q.EndMillis = *in.EndTimeMillis
		}
		docs, err := c.Core().Timeseries(c, q)
		if err != nil {
			return nil, fromCore(err)
		}
		out := make([]any, 0, len(docs))
		for _, d := range docs {
			var op operationJSON
			if err := json.Unmarshal(d.Value, &op); err != nil {
				return nil, serverError(err.Error())
			}
			m := map[string]any{"timestampMillis": op.TimestampMillis, "actor": op.Actor, "operationType": op.OperationType,
				"customOperationType": op.CustomOperationType, "sourceType": op.SourceType, "numAffectedRows": op.NumAffectedRows,
				"affectedDatasets": op.AffectedDatasets, "lastUpdatedTimestamp": op.LastUpdatedTimestamp, "partition": nil,
				"customProperties": nil}
			if op.PartitionSpec != nil {
				m["partition"] = op.PartitionSpec.Partition
			}
			if cp := customProperties(op.CustomProperties, u); cp != nil {
				m["customProperties"] = *cp
			}
			out = append(out, m)
		}
		return out, nil
	})
}
