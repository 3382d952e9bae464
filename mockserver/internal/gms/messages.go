package gms

import "github.com/catalogkit/datahub-go/internal/jsonx"

// This file holds every message text the core answers with, in one place,
// as miniredis keeps Redis's. The texts marked "DataHub" are the ones GMS
// (datahub-project/datahub, see ../shared/reference/WIRE.md) sends; the
// texts marked "mock" exist only in this mock and say so. The adapters add
// their own protocol's texts (Rest.li routing and parameter decoding live
// in package mockserver's errors.go).

// DataHub: validation of a proposal (ValidationApiUtils, UrnValidationUtil,
// EntityKeyUtils, RecordTemplateValidator).
const (
	MsgUnknownEntity      = "Unknown entity: %s"
	MsgUnknownAspect      = "Unknown aspect %s for entity %s"
	MsgEntityTypeMismatch = "URN entity type does not match MCP entity type. %s != %s"
	MsgRecordInvalid      = "Failed to validate record with class %s: %s"
	// MsgAspectFormat is the refusal of an aspect whose URN-typed value
	// DataHub's URN check refuses (EntityRegistryUrnValidator), naming the
	// entity type; each cause reads `"Provided urn <urn>" is invalid: <why>`.
	MsgAspectFormat = "Invalid format for aspect: %s\n Cause: %s"
	// MsgURNEntityUnknown, MsgURNKeyLength and MsgURNClass say why a
	// URN-typed value is refused: its entity type, its parts, or its
	// typeref's Java class (named by the typeref's simple name).
	MsgURNEntityUnknown  = "Entity type %s is missing from entity registry"
	MsgURNKeyLength      = "Failed to convert urn to entity key: urns parts and key fields do not have same length for %s"
	MsgURNClass          = "Unable to instantiate urn type: %s with urn: %s"
	MsgInvalidURN        = "Invalid urn: %s\n Cause: %s"
	MsgURNWhitespace     = "Error: cannot provide an URN with leading or trailing whitespace"
	MsgURNTooLong        = "Error: cannot provide an URN longer than 512 bytes (when URL encoded)"
	MsgURNDelimiter      = "Error: URN cannot contain ␟ character"
	MsgNoURN             = "One of urn and keyAspect must be set"
	MsgAspectNameMissing = "Aspect name is required for create and update operations"
	MsgDeleteNonKey      = "Delete not supported for non key aspect: %s"
)

// DataHub: failed conditional writes (ConditionalWriteValidator,
// CreateIfNotExistsValidator).
const (
	MsgVersionMismatch    = "Expected version %s, actual version %s"
	MsgModifiedSince      = "Item last modified %d <= %d (epoch ms)"
	MsgUnmodifiedSince    = "Item last modified %d > %d (epoch ms)"
	MsgCreateExists       = "Cannot perform CREATE since the aspect already exists."
	MsgCreateEntityExists = "Cannot perform CREATE_ENTITY if not exists since the entity key already exists."
)

// DataHub: reads (AspectResource, TimeseriesAspectService).
const (
	MsgNotTimeseries     = "Aspect %s is not a timeseries aspect"
	MsgUnknownAspectName = "Unknown aspect %s"
)

// DataHub: change types a timeseries aspect refuses (MCPItem.isValidChangeType).
const MsgTimeseriesUnchanged = "change type %s not supported for timeseries aspect %s"

// PATCH proposals. DataHub: a patch that does not parse (PatchItemImpl,
// GenericPatchTemplate: "Invalid JSON Patch"). Mock: a patch that fails to
// apply or whose result does not validate, and an aspect without a
// template (GMS answers 500 with an exception's text; the patch package's
// message names the aspect and the remedy), and the content type check.
const (
	MsgPatchInvalid = "Invalid JSON Patch: %s"
	MsgPatchFailed  = "Failed to apply the PATCH (datahub-mock): %s"
	// MsgDomainsBothChanged is DomainsSyncMutationHook's refusal of a write
	// that changes domains and domainAssociations to different domains.
	MsgDomainsBothChanged = "Cannot update both 'domains' and 'domainAssociations' in the same write. Use 'domainAssociations' for rich metadata or 'domains' for legacy compatibility, but not both. Entity: %s"
	MsgPatchContentType   = "Unsupported aspect content type %q for a PATCH: expected application/json-patch+json"
)

// Mock: behaviour this mock does not have, or limits and checks it adds.
const (
	MsgBatchItem         = "[%d] %s"
	MsgAndMore           = "and %d more"
	MsgBatchInvalid      = "%d of %d proposals are invalid, nothing was written: %s"
	MsgChangeUnsupported = "Change type %s is not supported by this mock (datahub-mock supports UPSERT, CREATE, CREATE_ENTITY, DELETE)"
	MsgContentType       = "Unsupported aspect content type %q: expected application/json"
	MsgAspectNotJSON     = "Aspect %s of %s is not a JSON object: %s"
	MsgAspectMissing     = "Aspect value is required for change type %s (aspectName %s)"
	MsgValueNotUTF8      = "aspect.value is not valid UTF-8 once decoded as Pegasus bytes (one char per byte); write non-ASCII characters of the aspect JSON as \\uXXXX escapes, as DataHub's Python emitter does"
	MsgTimestampMissing  = "Timeseries aspect %s needs an integral timestampMillis"
	MsgDeleteAspect      = "Deleting only the aspect %s of %s is not supported by this mock (datahub-mock): delete the whole entity"
	MsgKeyParts          = "URN %s has %d parts but the key aspect %s has %d fields"
	MsgStore             = "datahub-mock store: %v"
	MsgStopped           = "datahub-mock: the request ended before its work did: %v"
	MsgBadTimeHeader     = "Invalid %s header value %q: expected an ISO-8601 instant such as 2024-01-02T03:04:05Z (datahub-mock)"
	MsgTooDeep           = jsonx.MsgTooDeep
	MsgAspectTooDeep     = "Aspect %s of %s is nested too deeply: JSON nesting exceeds the limit of %d levels"
	MsgSyntax            = "invalid JSON at byte %d: %s"
	MsgTrailingData      = "data after the JSON value"
	// MsgLineageMissing refuses an updateLineage edge whose downstream (or
	// upstream: the same text) does not exist (UpdateLineageResolver).
	MsgLineageMissing = "Cannot upsert lineage as downstream urn %s doesn't exist"
	// MsgLineageFailed wraps a failed lineage write.
	MsgLineageFailed = "Failed to update lineage for urn %s"
)

// Headers of a proposal that carry conditions (ConditionalWriteValidator,
// CreateIfNotExistsValidator).
const (
	HeaderIfVersionMatch    = "If-Version-Match"
	HeaderIfModifiedSince   = "If-Modified-Since"
	HeaderIfUnmodifiedSince = "If-Unmodified-Since"
	HeaderIfNoneMatch       = "If-None-Match"
	// HeaderSyncIndexUpdate asks a synchronous write to update the search
	// index before it answers.
	HeaderSyncIndexUpdate = "X-DataHub-Sync-Index-Update"
)

// Mock: deleting one timeseries aspect through the entity API.
const MsgDeleteTimeseries = "Deleting the timeseries aspect %s through the entity API is not supported by this mock (datahub-mock)"

// DataHub: a number that does not parse (Java's NumberFormatException).
const MsgNumberFormat = "For input string: %q"
