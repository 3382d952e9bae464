package mockserver

import "encoding/json"

// PlatformEvent is one event received by POST
// /platform?action=producePlatformEvent: its name, its partition key (""
// when none) and the com.linkedin.mxe.PlatformEvent record.
type PlatformEvent struct {
	Name, Key string
	Event     json.RawMessage
}

// PlatformEvents returns copies of the platform events the server received,
// oldest first (GMS hands them to Kafka; the mock keeps them until
// [Server.Reset]).
func (s *Server) PlatformEvents() []PlatformEvent {
	evs := s.core.PlatformEvents()
	out := make([]PlatformEvent, len(evs))
	for i, e := range evs {
		out[i] = PlatformEvent{Name: e.Name, Key: e.Key, Event: e.Event}
	}
	return out
}
