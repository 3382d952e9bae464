package restli

import "fmt"

// The adapter's own texts. DataHub: those GMS's resources send; mock:
// those marked so. The core's texts live in package gms (messages.go).
const (
	msgBadRecord       = "Parameter %s does not fit its record: %s (datahub-mock)"
	msgLengthsDiffer   = "entities and systemMetadata length must match"
	msgBadDirection    = "No enum constant com.linkedin.metadata.graph.LineageDirection.%s"
	msgBadRelDirection = "No enum constant com.linkedin.metadata.query.filter.RelationshipDirection.%s"
	msgBadKey          = "Invalid key %q: expected (urn:...,versionStamp:...) (datahub-mock)"
	msgNoIDs           = "A BATCH_GET needs its keys in the ids query parameter (datahub-mock)"
	msgBadWindow       = "No enum constant com.linkedin.common.WindowDuration.%s"
	msgBadTimeRange    = "No enum constant com.linkedin.usage.UsageTimeRange.%s"
	msgRegistryID      = "Failed to parse registry id: %s"
)

func sprintf(format string, args ...any) string {
	if len(args) == 0 {
		return format
	}
	return fmt.Sprintf(format, args...)
}
