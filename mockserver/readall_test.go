package mockserver

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestIngestKeepsNoBodyMemory: the buffer an ingest body was read into is
// reused by later requests while the async queue still holds the writes
// decoded from it. A compact systemMetadata is the body's own text as
// decoded; the released body is overwritten here, so a value still sharing
// it would reach the store garbled.
func TestIngestKeepsNoBodyMemory(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	s := newServer(t, WithClock(clock.Now), WithAsyncLag(time.Minute))
	s.cfg.poisonBodies = true
	body := `{"async":"true","proposals":[{"entityType":"dataset","entityUrn":"` + dsURN + `","changeType":"UPSERT",` +
		`"aspectName":"status","aspect":{"value":"{\"removed\":false}","contentType":"application/json"},` +
		`"systemMetadata":{"runId":"run-1","lastObserved":7}}]}`
	if r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", body); r.Status != http.StatusOK {
		t.Fatalf("ingest = %d %s", r.Status, r.Body)
	}
	clock.Advance(time.Minute)
	got, err := s.core.GetAspect(t.Context(), dsURN, "status", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got.SystemMetadata), `"runId":"run-1"`) || string(got.Value) != `{"removed":false}` {
		t.Errorf("stored = %s, systemMetadata %s", got.Value, got.SystemMetadata)
	}
}
