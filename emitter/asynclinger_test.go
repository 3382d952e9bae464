package emitter_test

import (
	"context"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestAsyncLingerSends checks that proposals that fill no batch are sent
// once their worker has lingered, without Flush or Close: one queued by an
// Emit of one, several by one Emit, and one again after the worker sent
// the others and its queue was empty (each time the first proposal of an
// empty queue starts the linger). It waits for the mock to hold them, at
// most a minute; nothing is sent before Close when a linger never ends.
func TestAsyncLingerSends(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	a := emitter.NewAsync(r, emitter.WithWorkers(2), emitter.WithLinger(10*time.Millisecond))
	defer a.Close(context.Background())
	waitFor := func(n int) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for len(s.Proposals()) < n {
			if time.Now().After(deadline) {
				t.Fatalf("the server holds %d proposals a minute after Emit, want %d: a linger did not end", len(s.Proposals()), n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	if err := a.Emit(t.Context(), propertiesProposal(t, 0, 0)); err != nil {
		t.Fatal(err)
	}
	waitFor(1)
	if err := a.Emit(t.Context(), propertiesProposal(t, 1, 0), propertiesProposal(t, 2, 0), propertiesProposal(t, 3, 0)); err != nil {
		t.Fatal(err)
	}
	waitFor(4)
	if err := a.Emit(t.Context(), propertiesProposal(t, 0, 1)); err != nil {
		t.Fatal(err)
	}
	waitFor(5)
	if err := a.Err(); err != nil {
		t.Fatal(err)
	}
	checkWrites(t, s, 0, 2)
	for i := 1; i < 4; i++ {
		checkWrites(t, s, i, 1)
	}
}
