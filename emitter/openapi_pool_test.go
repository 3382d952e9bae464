package emitter_test

import (
	"sync"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestOpenAPIEmitsReuseMemory: batched OpenAPI Emit calls from several
// goroutines at once, whose request bodies are read from memory the calls
// give back for later ones, each write what they were given: every
// dataset holds each of its writes, in order, once.
func TestOpenAPIEmitsReuseMemory(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithRecording(false))
	r, err := emitter.NewREST(s.URL(), datahub.WithEndpoint(datahub.EndpointOpenAPI))
	if err != nil {
		t.Fatal(err)
	}
	const goroutines, perCall, writes = 4, 50, 8
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			ps := make([]emitter.Proposal, perCall)
			for w := range writes {
				for i := range ps {
					ps[i] = propertiesProposal(t, g*perCall+i, w)
				}
				if err := r.Emit(t.Context(), ps...); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	for i := range goroutines * perCall {
		if !checkWrites(t, s, i, writes) {
			break
		}
	}
}
