// Package mcpwire holds a metadata change proposal in the form it travels
// in, whatever the transport, for package emitter and the Kafka module
// (github.com/catalogkit/datahub-go/emitter/kafka), which encodes it in
// Avro and relays it back to the REST emitter. It is not part of the
// public API: package emitter fills in its hooks when it is initialised.
package mcpwire

import (
	"context"
	"time"

	"github.com/catalogkit/datahub-go/aspects"
)

// Proposal is a proposal as it travels to DataHub: the fields of DataHub's
// MetadataChangeProposal record with the defaults applied, the aspects
// encoded and the system metadata filled. The REST emitter sends it as
// JSON; the Kafka emitter encodes the same fields in Avro.
type Proposal struct {
	// EntityType is the entity type, such as "dataset".
	EntityType string
	// EntityURN is the entity's URN, "" when the proposal names its entity
	// by its key aspect only.
	EntityURN string
	// EntityKeyAspect is the entity's key aspect, nil when not sent.
	EntityKeyAspect *Aspect
	// ChangeType is the kind of change (emitter.ChangeType's values).
	ChangeType string
	// AspectName is the aspect's name.
	AspectName string
	// Aspect is the aspect value, nil for a Delete.
	Aspect *Aspect
	// SystemMetadata is the proposal's system metadata, filled as the REST
	// emitter fills it.
	SystemMetadata aspects.SystemMetadata
	// Headers are the proposal's headers, nil when it has none.
	Headers map[string]string
}

// Aspect is an encoded aspect (DataHub's GenericAspect).
type Aspect struct {
	// Value is the aspect's compact JSON text, ASCII only: other
	// characters are \uXXXX escapes, as DataHub's Python SDK writes them.
	Value []byte
	// ContentType is the content type of Value, such as "application/json".
	ContentType string
}

// The hooks package emitter sets when it is initialised.
var (
	// FromProposal checks p, an *emitter.Proposal, as Emit does and
	// returns it as it would be sent at time now (the defaults applied,
	// the aspects encoded, the system metadata filled with now as
	// lastObserved). It fails, wrapping datahub.ErrValidation, for a
	// proposal Emit would refuse without sending it.
	FromProposal func(p any, now time.Time) (Proposal, error)
	// Emit sends ws, exactly as given (nothing defaulted or filled in),
	// through rest, an *emitter.REST, with its requests, retries and
	// replay rules, and reports as its Emit does: nil, or an
	// *emitter.BatchError. A Delete is sent as Emit sends one; a proposal
	// without entity type, change type or aspect name, or a Delete
	// without URN, is Rejected without being sent.
	Emit func(ctx context.Context, rest any, ws ...Proposal) error
)
