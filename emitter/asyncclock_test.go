package emitter_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestAsyncObservedAt checks that a proposal without system metadata
// queued by Async.Emit reaches the server observed when Emit took it (to
// the millisecond, either side), also across a pause long enough for the
// emitter to read the wall clock again.
func TestAsyncObservedAt(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	a := emitter.NewAsync(r, emitter.WithWorkers(2), emitter.WithLinger(time.Hour))
	type span struct{ before, after int64 }
	spans := map[string]span{}
	for i := range 20 {
		if i == 10 {
			time.Sleep(150 * time.Millisecond) // longer than the emitter keeps a read of the wall clock
		}
		before := time.Now()
		if err := a.Emit(t.Context(), propertiesProposal(t, i, 0)); err != nil {
			t.Fatal(err)
		}
		spans[datasetURN(t, i).String()] = span{before.UnixMilli(), time.Now().UnixMilli()}
	}
	if err := a.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := s.Proposals()
	if len(got) != len(spans) {
		t.Fatalf("the server received %d proposals, want %d", len(got), len(spans))
	}
	for _, p := range got {
		var sm struct{ LastObserved int64 }
		if err := json.Unmarshal(p.SystemMetadata, &sm); err != nil {
			t.Fatalf("%s: systemMetadata %s: %v", p.EntityURN, p.SystemMetadata, err)
		}
		// A millisecond either side: the emitter's read of the wall clock
		// and time.Now's may fall either side of a millisecond's boundary.
		if sp := spans[p.EntityURN]; sm.LastObserved < sp.before-1 || sm.LastObserved > sp.after+1 {
			t.Errorf("%s: lastObserved %d, want between %d and %d (when Emit took it)", p.EntityURN, sm.LastObserved, sp.before, sp.after)
		}
	}
}
