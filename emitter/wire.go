package emitter

import (
	"bytes"
	"maps"
	"time"

	"github.com/catalogkit/datahub-go/aspects"
)

// WireProposal is a proposal as it travels to DataHub, whatever the
// transport: the fields of DataHub's MetadataChangeProposal record with the
// defaults applied, the aspects encoded and the system metadata filled. The
// REST emitter sends it as JSON (see [WireProposal.MarshalJSON]); the Kafka
// emitter (module github.com/catalogkit/datahub-go/emitter/kafka) encodes
// the same fields in Avro. Build one with [Proposal.Wire].
type WireProposal struct {
	// EntityType is the entity type, such as "dataset".
	EntityType string
	// EntityURN is the entity's URN, "" when the proposal names its entity
	// by its key aspect only.
	EntityURN string
	// EntityKeyAspect is the entity's key aspect, nil when not sent.
	EntityKeyAspect *WireAspect
	// ChangeType is the kind of change, never empty.
	ChangeType ChangeType
	// AspectName is the aspect's name.
	AspectName string
	// Aspect is the aspect value, nil for a Delete.
	Aspect *WireAspect
	// SystemMetadata is the proposal's system metadata, filled as the REST
	// emitter fills it (see [SystemMetadata]).
	SystemMetadata SystemMetadata
	// Headers are the proposal's headers, nil when it has none.
	Headers map[string]string
}

// WireAspect is an encoded aspect (DataHub's GenericAspect).
type WireAspect struct {
	// Value is the aspect's compact JSON text, ASCII only: other
	// characters are \uXXXX escapes, as DataHub's Python SDK writes them.
	Value []byte
	// ContentType is the content type of Value, such as ContentTypeJSON.
	ContentType string
}

// Wire checks p as Emit does and returns it as it would be sent at time
// now: the entity type, change type, aspect name and content type
// defaulted, the aspects encoded to JSON text, the system metadata filled
// with now as lastObserved. It fails, wrapping datahub.ErrValidation, for
// a proposal Emit would refuse without sending it.
func (p Proposal) Wire(now time.Time) (WireProposal, error) {
	if err := p.check(); err != nil {
		return WireProposal{}, err
	}
	w := WireProposal{
		EntityType:     p.entityType(),
		EntityURN:      p.urnString(),
		ChangeType:     p.changeType(),
		AspectName:     p.aspectName(),
		SystemMetadata: p.SystemMetadata.filled(now.UnixMilli()),
	}
	var err error
	if !isNil(p.KeyAspect) {
		if w.EntityKeyAspect, err = wireAspect(p.KeyAspect, ContentTypeJSON); err != nil {
			return WireProposal{}, err
		}
	}
	if !isNil(p.Aspect) {
		if w.Aspect, err = wireAspect(p.Aspect, p.contentType()); err != nil {
			return WireProposal{}, err
		}
	}
	if len(p.Headers) > 0 {
		w.Headers = maps.Clone(p.Headers)
	}
	return w, nil
}

// wireAspect encodes a as the REST emitter encodes it.
func wireAspect(a aspects.Aspect, contentType string) (*WireAspect, error) {
	var buf bytes.Buffer
	if err := encodeAspect(&buf, a); err != nil {
		return nil, err
	}
	return &WireAspect{Value: bytes.Clone(escapeNonASCII(&buf)), ContentType: contentType}, nil
}

// MarshalJSON returns the proposal object the REST emitter sends for w,
// byte for byte: the members in the order of DataHub's schema, each
// aspect's JSON text as a string, absent members left out. The system
// metadata members this SDK does not model are not part of w.
func (w WireProposal) MarshalJSON() ([]byte, error) {
	dst := make([]byte, 0, 256)
	dst = append(dst, `{"entityType":`...)
	dst = appendString(dst, w.EntityType)
	if w.EntityURN != "" {
		dst = append(dst, `,"entityUrn":`...)
		dst = appendString(dst, w.EntityURN)
	}
	if w.EntityKeyAspect != nil {
		dst = append(dst, `,"entityKeyAspect":`...)
		dst = w.EntityKeyAspect.appendJSON(dst)
	}
	dst = append(dst, `,"changeType":`...)
	ct := w.ChangeType
	if ct == "" {
		ct = Upsert
	}
	dst = appendString(dst, string(ct))
	if w.AspectName != "" {
		dst = append(dst, `,"aspectName":`...)
		dst = appendString(dst, w.AspectName)
	}
	if w.Aspect != nil {
		dst = append(dst, `,"aspect":`...)
		dst = w.Aspect.appendJSON(dst)
	}
	dst = append(dst, `,"systemMetadata":`...)
	dst = appendSystemMetadata(dst, &w.SystemMetadata)
	if len(w.Headers) > 0 {
		dst = append(dst, `,"headers":`...)
		dst = appendStringMap(dst, w.Headers)
	}
	return append(dst, '}'), nil
}

// appendJSON appends a as {"value":"<JSON text>","contentType":"..."}.
func (a *WireAspect) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"value":`...)
	dst = appendString(dst, a.Value)
	dst = append(dst, `,"contentType":`...)
	dst = appendString(dst, a.ContentType)
	return append(dst, '}')
}
