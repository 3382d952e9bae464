package mockserver

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/openapi"
)

// TestOpenAPIWriteKeepsNoBodyMemory: the buffer a v3 batch write's body
// was read into is reused by later requests while the async queue and the
// recorder still hold the writes decoded from it. The released body is
// overwritten here, so a value still sharing it would reach the store and
// the recording garbled. It failed without detachBody.
func TestOpenAPIWriteKeepsNoBodyMemory(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	s := newServer(t, WithClock(clock.Now), WithAsyncLag(time.Minute))
	s.openapi = openapi.New(s.core, openapi.Hooks{Clock: s.cfg.clock, Receive: s.receive, PoisonBodies: true})
	item := func(urn, desc string) string {
		return `{"urn":"` + urn + `","datasetProperties":{"value":{"description":"` + desc + `"},` +
			`"systemMetadata":{"runId":"run-1","lastObserved":7}}}`
	}
	other := "urn:li:dataset:(urn:li:dataPlatform:hive,other,PROD)"
	for _, body := range []string{"[" + item(dsURN, "first") + "," + item(other, "second") + "]", "[" + item(other, "third") + "]"} {
		if r := serve(t, s, http.MethodPost, "/openapi/v3/entity/dataset?async=true", body); r.Status != http.StatusAccepted {
			t.Fatalf("write = %d %s", r.Status, r.Body)
		}
	}
	clock.Advance(time.Minute)
	for urn, want := range map[string]string{dsURN: `{"description":"first"}`, other: `{"description":"third"}`} {
		got, err := s.core.GetAspect(t.Context(), urn, "datasetProperties", 0)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(got.SystemMetadata), `"runId":"run-1"`) || string(got.Value) != want {
			t.Errorf("%s stored = %s, systemMetadata %s", urn, got.Value, got.SystemMetadata)
		}
	}
	ps := s.Proposals()
	if len(ps) != 3 {
		t.Fatalf("%d proposals recorded, want 3", len(ps))
	}
	for i, want := range []string{"first", "second", "third"} {
		if p := ps[i]; string(p.Aspect) != `{"description":"`+want+`"}` || !strings.Contains(string(p.SystemMetadata), `"runId":"run-1"`) {
			t.Errorf("proposal %d recorded = %s, systemMetadata %s", i, p.Aspect, p.SystemMetadata)
		}
	}
}
