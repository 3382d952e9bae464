package gms

// DataHub: the texts of the Rest.li resources' operations beyond the
// aspect writes and reads (EntityResource, BatchIngestionRunResource,
// RollbackService, Relationships, UsageStats); kept beside messages.go.
const (
	MsgRollbackDefaultRun = "%s is a default run-id provided for non labeled ingestion runs. You cannot delete using this reserved run-id"
)

// Mock: the refusals of a snapshot (MCE) the mock words itself; GMS
// refuses the same snapshots through Rest.li's validation of the Entity
// record, with its own texts.
const (
	MsgSnapshotShape       = "The entity is not a snapshot union: %s (datahub-mock)"
	MsgSnapshotUnion       = "The entity's value must hold exactly one snapshot, not %d (datahub-mock)"
	MsgSnapshotUnknown     = "Unknown snapshot %s: not a member of com.linkedin.metadata.snapshot.Snapshot (datahub-mock)"
	MsgSnapshotField       = "Field %s of %s is required (datahub-mock)"
	MsgSnapshotAspectUnion = "aspects[%d] must hold exactly one aspect, not %d (datahub-mock)"
	MsgSnapshotAspect      = "%s (aspects[%d]) is not an aspect of %s (datahub-mock)"
	MsgNoSnapshot          = "Entity type %s has no snapshot record: read it through entitiesV2 (datahub-mock; DataHub fails)"
)

// Mock: limits of the list operations.
const (
	MsgListURNsRange = "start (%d) and count (%d) must not be negative (datahub-mock)"
)

// Mock: the refusals of a platform event.
const (
	MsgPlatformEventShape = "The event is not a PlatformEvent record: %s (datahub-mock)"
	MsgPlatformEventField = "PlatformEvent field %s is required (datahub-mock)"
)

// DataHub: an aggregation type ESAggregatedStatsDAO does not know.
const (
	MsgAggregationType = "Unknown AggregationSpec type%s"
)
