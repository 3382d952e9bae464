package gms

import (
	"context"
	"encoding/json"
)

// The text of reportOperation's entity type check (DataHub's
// ReportOperationResolver).
const MsgOperationEntityType = "Unable to report operation. Invalid entity type %s provided."

// OperationReport is DataHub's ReportOperationInput.
type OperationReport struct {
	URN, OperationType, SourceType string
	CustomOperationType, Partition *string
	NumAffectedRows                *int64
	// TimestampMillis is when the operation happened (nil: now).
	TimestampMillis *int64
	// CustomProperties are key-value pairs, in order.
	CustomProperties [][2]string
}

// ReportOperation records an operation on a dataset as DataHub's
// reportOperation: one `operation` timeseries document (the actor, the
// timestamp as both timestampMillis and lastUpdatedTimestamp, the
// partition as a PARTITION partitionSpec). Only datasets are accepted.
func (c *Core) ReportOperation(ctx context.Context, r OperationReport) error {
	if err := checkURNs(r.URN); err != nil {
		return err
	}
	if t := EntityTypeOf(r.URN); t != "dataset" {
		return errorf(BadArgument, MsgOperationEntityType, t)
	}
	ts := c.opts.Clock().UnixMilli()
	if r.TimestampMillis != nil {
		ts = *r.TimestampMillis
	}
	op := map[string]any{"actor": mutationActor(ctx), "operationType": r.OperationType, "sourceType": r.SourceType,
		"lastUpdatedTimestamp": ts, "timestampMillis": ts}
	if r.CustomOperationType != nil {
		op["customOperationType"] = *r.CustomOperationType
	}
	if r.NumAffectedRows != nil {
		op["numAffectedRows"] = *r.NumAffectedRows
	}
	if r.Partition != nil {
		op["partitionSpec"] = map[string]any{"type": "PARTITION", "partition": *r.Partition}
	}
	if r.CustomProperties != nil {
		props := map[string]any{}
		for _, kv := range r.CustomProperties {
			props[kv[0]] = kv[1]
		}
		op["customProperties"] = props
	}
	value, err := json.Marshal(op)
	if err != nil {
		return errorf(Internal, MsgMapAspect, "operation", Abbreviate(r.URN), err)
	}
	return c.Ingest(ctx, []Proposal{{EntityType: "dataset", EntityURN: r.URN, ChangeType: "UPSERT", AspectName: "operation",
		Aspect: value, ContentType: "application/json"}}, IngestOptions{})
}
