package emitter

import (
	"bytes"
	"context"
	"maps"
	"time"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/mcpwire"
)

// The Kafka module reaches the wire form of proposals, and sends wire
// proposals through a REST emitter, by these hooks of an internal package.
func init() {
	mcpwire.FromProposal = func(p any, now time.Time) (mcpwire.Proposal, error) {
		return p.(*Proposal).wire(now)
	}
	mcpwire.Emit = func(ctx context.Context, rest any, ws ...mcpwire.Proposal) error {
		return rest.(*REST).emitWire(ctx, ws)
	}
}

// wire checks p as Emit does and returns it as it would be sent at time
// now: the entity type, change type, aspect name and content type
// defaulted, the aspects encoded to JSON text, the system metadata filled
// with now as lastObserved. It fails, wrapping datahub.ErrValidation, for
// a proposal Emit would refuse without sending it.
func (p *Proposal) wire(now time.Time) (mcpwire.Proposal, error) {
	if err := p.check(); err != nil {
		return mcpwire.Proposal{}, err
	}
	w := mcpwire.Proposal{
		EntityType:     p.entityType(),
		EntityURN:      p.urnString(),
		ChangeType:     string(p.changeType()),
		AspectName:     p.aspectName(),
		SystemMetadata: filledSystemMetadata(p.SystemMetadata, now.UnixMilli()),
	}
	var err error
	if !isNil(p.KeyAspect) {
		if w.EntityKeyAspect, err = wireAspect(p.KeyAspect, ContentTypeJSON); err != nil {
			return mcpwire.Proposal{}, err
		}
	}
	if !isNil(p.Aspect) {
		if w.Aspect, err = wireAspect(p.Aspect, p.contentType()); err != nil {
			return mcpwire.Proposal{}, err
		}
	}
	if len(p.Headers) > 0 {
		w.Headers = maps.Clone(p.Headers)
	}
	return w, nil
}

// wireAspect encodes a as the REST emitter encodes it.
func wireAspect(a aspects.Aspect, contentType string) (*mcpwire.Aspect, error) {
	var buf bytes.Buffer
	if err := encodeAspect(&buf, a); err != nil {
		return nil, err
	}
	return &mcpwire.Aspect{Value: bytes.Clone(escapeNonASCII(&buf)), ContentType: contentType}, nil
}

// appendWire appends the proposal object the REST emitter sends for w,
// byte for byte: the members in the order of DataHub's schema, each
// aspect's JSON text as a string, absent members left out.
func appendWire(dst []byte, w *mcpwire.Proposal) []byte {
	dst = append(dst, `{"entityType":`...)
	dst = appendString(dst, w.EntityType)
	if w.EntityURN != "" {
		dst = append(dst, `,"entityUrn":`...)
		dst = appendString(dst, w.EntityURN)
	}
	if w.EntityKeyAspect != nil {
		dst = append(dst, `,"entityKeyAspect":`...)
		dst = appendWireAspect(dst, w.EntityKeyAspect)
	}
	dst = append(dst, `,"changeType":`...)
	ct := w.ChangeType
	if ct == "" {
		ct = string(Upsert)
	}
	dst = appendString(dst, ct)
	if w.AspectName != "" {
		dst = append(dst, `,"aspectName":`...)
		dst = appendString(dst, w.AspectName)
	}
	if w.Aspect != nil {
		dst = append(dst, `,"aspect":`...)
		dst = appendWireAspect(dst, w.Aspect)
	}
	dst = append(dst, `,"systemMetadata":`...)
	dst = appendSystemMetadata(dst, &w.SystemMetadata)
	if len(w.Headers) > 0 {
		dst = append(dst, `,"headers":`...)
		dst = appendStringMap(dst, w.Headers)
	}
	return append(dst, '}')
}

// appendWireAspect appends a as {"value":"<JSON text>","contentType":"..."}.
func appendWireAspect(dst []byte, a *mcpwire.Aspect) []byte {
	dst = append(dst, `{"value":`...)
	dst = appendString(dst, a.Value)
	dst = append(dst, `,"contentType":`...)
	dst = appendString(dst, a.ContentType)
	return append(dst, '}')
}
