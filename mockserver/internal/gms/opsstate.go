package gms

import (
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// opsState is what the Rest.li operations keep beside the store.
type opsState struct {
	// readOnly is set by SetWritable(false).
	readOnly atomic.Bool

	mu sync.Mutex
	// graphRemoved are the nodes relationships?DELETE removed from the
	// graph, with when: edges to or from them that aspects written before
	// then define are hidden (GMS removes them from its graph index, not
	// from the aspects, so a later write of the aspect brings them back).
	graphRemoved map[string]time.Time
	// events are the platform events produced, oldest first.
	events []PlatformEvent
}

// PlatformEvent is one event of platform?action=producePlatformEvent.
type PlatformEvent struct {
	// Name is the event's name, Key its partition key ("" when none).
	Name, Key string
	// Event is the com.linkedin.mxe.PlatformEvent record.
	Event json.RawMessage
}

// ProducePlatformEvent records a platform event as GMS's PlatformResource
// hands it to its event producer (the mock's events are kept in order and
// read by [Core.PlatformEvents]). The event must be a PlatformEvent record
// ({"header": {"timestampMillis": ...}, "name": ..., "payload": {"value":
// ..., "contentType": ...}}): anything else is Invalid.
func (c *Core) ProducePlatformEvent(name, key string, event json.RawMessage) error {
	var ev struct {
		Header *struct {
			TimestampMillis *int64 `json:"timestampMillis"`
		} `json:"header"`
		Name    *string `json:"name"`
		Payload *struct {
			Value       *string `json:"value"`
			ContentType *string `json:"contentType"`
		} `json:"payload"`
	}
	if err := json.Unmarshal(event, &ev); err != nil {
		return errorf(Invalid, MsgPlatformEventShape, JSONErrorText(err))
	}
	switch {
	case ev.Header == nil || ev.Header.TimestampMillis == nil:
		return errorf(Invalid, MsgPlatformEventField, "header.timestampMillis")
	case ev.Name == nil:
		return errorf(Invalid, MsgPlatformEventField, "name")
	case ev.Payload == nil || ev.Payload.Value == nil || ev.Payload.ContentType == nil:
		return errorf(Invalid, MsgPlatformEventField, "payload.value and payload.contentType")
	}
	c.ops.mu.Lock()
	defer c.ops.mu.Unlock()
	c.ops.events = append(c.ops.events, PlatformEvent{Name: name, Key: key, Event: slices.Clone(event)})
	return nil
}

// PlatformEvents returns copies of the platform events produced, oldest
// first.
func (c *Core) PlatformEvents() []PlatformEvent {
	c.ops.mu.Lock()
	defer c.ops.mu.Unlock()
	out := make([]PlatformEvent, len(c.ops.events))
	for i, e := range c.ops.events {
		e.Event = slices.Clone(e.Event)
		out[i] = e
	}
	return out
}

// reset forgets the removed graph nodes and the platform events (writes
// stay as they are).
func (o *opsState) reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.graphRemoved, o.events = nil, nil
}
