package emitter_test

import (
	"sync"
	"testing"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestAsyncReusesMemoryIntact sends several rounds of single-proposal
// Emit calls from several goroutines through new Async emitters, so that
// the memory the encodings are kept in is given back after each batch and
// written again by later ones, and checks that every write arrived as it
// was encoded, in order.
func TestAsyncReusesMemoryIntact(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithRecording(false))
	r, err := emitter.NewREST(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	const datasets, rounds, goroutines = 300, 4, 4
	for w := range rounds {
		a := emitter.NewAsync(r, emitter.WithBatchSize(37), emitter.WithLinger(0))
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				for i := g; i < datasets; i += goroutines {
					if err := a.Emit(t.Context(), propertiesProposal(t, i, w)); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if err := a.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	for i := range datasets {
		if !checkWrites(t, s, i, rounds) {
			break
		}
	}
}
