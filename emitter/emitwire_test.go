package emitter_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/mcpwire"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestEmitWire sends wire proposals as given (the hook the Kafka module's
// Bridge relays through): an UPSERT whose answer is
// lost is replayed (Written); a CREATE whose answer is lost is not
// (Unknown, stored once); a wire proposal without a change type is Rejected
// unsent; the system metadata goes unchanged (no clientId filled in).
func TestEmitWire(t *testing.T) {
	t.Parallel()
	wire := func(t *testing.T, i int, ct emitter.ChangeType) mcpwire.Proposal {
		p := propertiesProposal(t, i, 0)
		p.ChangeType = ct
		p.SystemMetadata = &aspects.SystemMetadata{RunID: aspects.Ptr("run-1"), LastObserved: 7, LastRunID: aspects.Ptr("run-0"), Properties: map[string]string{"clientId": "relay"}}
		w, err := mcpwire.FromProposal(&p, time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		w.SystemMetadata.RunID = nil // Emit would fill it in; the relay sends it as it is
		return w
	}
	t.Run("upsert replayed", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t, mockserver.WithFault(mockserver.CommitThenDrop(mockserver.OpIngestProposal, 1)))
		r, c := newREST(t, s, datahub.WithRetry(fastRetry))
		if err := mcpwire.Emit(t.Context(), r, wire(t, 0, emitter.Upsert)); err != nil {
			t.Fatal(err)
		}
		if a := c.attempts.Load(); a != 2 {
			t.Errorf("%d attempts, want 2", a)
		}
		ps := s.Proposals()
		if len(ps) == 0 {
			t.Fatal("no proposal received")
		}
		if sm := string(ps[len(ps)-1].SystemMetadata); !strings.Contains(sm, `"clientId":"relay"`) || strings.Contains(sm, `"runId"`) {
			t.Errorf("systemMetadata sent %s, want the wire proposal's (no runId filled in)", sm)
		}
	})
	t.Run("create not replayed", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t, mockserver.WithFault(mockserver.CommitThenDrop(mockserver.OpIngestProposal, 1)))
		r, c := newREST(t, s, datahub.WithRetry(fastRetry))
		err := mcpwire.Emit(t.Context(), r, wire(t, 0, emitter.Create))
		var be *emitter.BatchError
		if !errors.As(err, &be) || be.Results[0].Status != emitter.Unknown || errors.Is(err, datahub.ErrValidation) {
			t.Fatalf("mcpwire.Emit = %v, want Unknown and no refusal", err)
		}
		if a := c.attempts.Load(); a != 1 {
			t.Errorf("%d attempts, want 1 (no replay)", a)
		}
		s.CheckAspect(t, datasetURN(t, 0).String(), aspects.DatasetProperties{Description: aspects.Ptr(description(0, 0))})
	})
	t.Run("invalid", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t)
		r, c := newREST(t, s)
		w := wire(t, 0, emitter.Upsert)
		w.ChangeType = ""
		err := mcpwire.Emit(t.Context(), r, w)
		var be *emitter.BatchError
		if !errors.As(err, &be) || be.Results[0].Status != emitter.Rejected || !errors.Is(err, datahub.ErrValidation) || c.attempts.Load() != 0 {
			t.Errorf("mcpwire.Emit = %v (%d attempts), want Rejected unsent", err, c.attempts.Load())
		}
	})
}
