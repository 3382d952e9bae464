package gms

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// The topics of DataHub's events API (Topics in mxe-registration).
const (
	TopicPlatformEvent = "PlatformEvent_v1"
	TopicMCLVersioned  = "MetadataChangeLog_Versioned_v1"
	TopicMCLTimeseries = "MetadataChangeLog_Timeseries_v1"
)

// maxKeptEvents bounds each topic's log: older events are dropped, as a
// Kafka topic's retention drops them.
const maxKeptEvents = 10000

// DefaultEventLimit and MaxEventLimit are the events API's page sizes.
const (
	DefaultEventLimit = 100
	MaxEventLimit     = 5000
)

// eventLog keeps the MetadataChangeLogs the store's changes make, per
// topic, from the first poll on (a consumer without an offset starts at
// the topic's end, as DataHub's does).
type eventLog struct {
	mu     sync.Mutex
	sub    *store.Subscription
	topics map[string]*topicLog
}

// topicLog is one topic: its kept events and the offset of the first.
type topicLog struct {
	first  int64
	events [][]byte
}

// EventsPage is a page of a topic's events.
type EventsPage struct {
	// OffsetID continues after the page.
	OffsetID string
	// Events are the serialized events (JSON).
	Events [][]byte
}

// close stops following the store.
func (l *eventLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sub != nil {
		l.sub.Close()
		l.sub = nil
	}
}

// PollEvents returns up to limit events of topic after offsetID (the
// OffsetID of an earlier page; "": from the topic's end). The first poll of
// the core starts the log; the MetadataChangeLog topics carry one event per
// change of the store (UPSERT of an aspect's new latest value, DELETE of an
// aspect or of an entity's key aspect, UPSERT of a timeseries document);
// the mock produces no platform events (entity change events).
func (c *Core) PollEvents(ctx context.Context, topic, offsetID string, limit int) (EventsPage, error) {
	c.barrier()
	if topic != TopicPlatformEvent && topic != TopicMCLVersioned && topic != TopicMCLTimeseries {
		return EventsPage{}, errorf(BadArgument, "Unknown topic %s", Abbreviate(topic))
	}
	if limit <= 0 {
		limit = DefaultEventLimit
	}
	limit = min(limit, MaxEventLimit)
	l := &c.events
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sub == nil {
		l.sub = c.st.Subscribe()
		l.topics = map[string]*topicLog{}
	}
	for {
		e, ok := l.sub.TryNext()
		if !ok {
			break
		}
		t, ev := mclOf(e)
		if ev == nil {
			continue
		}
		tl := l.topic(t)
		tl.events = append(tl.events, ev)
		if len(tl.events) > maxKeptEvents {
			n := len(tl.events) - maxKeptEvents
			tl.events = append(tl.events[:0:0], tl.events[n:]...)
			tl.first += int64(n)
		}
	}
	tl := l.topic(topic)
	end := tl.first + int64(len(tl.events))
	at := end
	if offsetID != "" {
		n, err := decodeEventOffset(topic, offsetID)
		if err != nil {
			return EventsPage{}, err
		}
		at = min(max(n, tl.first), end)
	}
	stop := min(at+int64(limit), end)
	page := EventsPage{OffsetID: encodeEventOffset(topic, stop)}
	page.Events = append(page.Events, tl.events[at-tl.first:stop-tl.first]...)
	return page, nil
}

// topic returns the log of a topic; l.mu is held.
func (l *eventLog) topic(t string) *topicLog {
	tl := l.topics[t]
	if tl == nil {
		tl = &topicLog{}
		l.topics[t] = tl
	}
	return tl
}

// encodeEventOffset is the offset id of position n of topic.
func encodeEventOffset(topic string, n int64) string {
	return base64.StdEncoding.EncodeToString([]byte(topic + ":" + strconv.FormatInt(n, 10)))
}

// decodeEventOffset reads an offset id of topic.
func decodeEventOffset(topic, id string) (int64, error) {
	b, err := base64.StdEncoding.DecodeString(id)
	if err == nil {
		if t, n, ok := strings.Cut(string(b), ":"); ok && t == topic {
			if v, err := strconv.ParseInt(n, 10, 64); err == nil && v >= 0 {
				return v, nil
			}
		}
	}
	return 0, errorf(BadArgument, "Invalid offset format: %s", Abbreviate(id))
}

// mclOf is the MetadataChangeLog of a store event and its topic (nil for
// an event that makes none).
func mclOf(e store.Event) (string, []byte) {
	type aspect struct {
		Value       string `json:"value"`
		ContentType string `json:"contentType"`
	}
	type stamp struct {
		Time  int64  `json:"time"`
		Actor string `json:"actor"`
	}
	type mcl struct {
		EntityType     string          `json:"entityType"`
		EntityURN      string          `json:"entityUrn"`
		ChangeType     string          `json:"changeType"`
		AspectName     string          `json:"aspectName"`
		Aspect         *aspect         `json:"aspect,omitempty"`
		SystemMetadata json.RawMessage `json:"systemMetadata,omitempty"`
		Created        stamp           `json:"created"`
	}
	m := mcl{EntityType: EntityTypeOf(e.URN), EntityURN: e.URN, AspectName: e.Aspect,
		Created: stamp{Time: e.Time.UnixMilli(), Actor: DefaultActor}}
	topic := TopicMCLVersioned
	switch e.Kind {
	case store.EventUpsert:
		m.ChangeType = "UPSERT"
		m.Aspect = &aspect{Value: string(jsonx.CompactShared(e.Row.Value)), ContentType: "application/json"}
		m.SystemMetadata = e.Row.SystemMetadata
		if e.Row.CreatedBy != "" {
			m.Created.Actor = e.Row.CreatedBy
		}
	case store.EventDeleteAspect:
		m.ChangeType = "DELETE"
	case store.EventDeleteEntity:
		m.ChangeType = "DELETE"
		if ent, ok := lookupEntity(m.EntityType); ok {
			m.AspectName = ent.KeyAspect
		}
	case store.EventTimeseries:
		topic = TopicMCLTimeseries
		m.ChangeType = "UPSERT"
		m.Aspect = &aspect{Value: string(jsonx.CompactShared(e.Doc.Value)), ContentType: "application/json"}
		m.SystemMetadata = e.Doc.SystemMetadata
	default:
		return "", nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return "", nil
	}
	return topic, bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
