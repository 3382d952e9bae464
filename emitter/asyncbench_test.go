package emitter_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
)

// BenchmarkAsyncClientFull is BenchmarkAsyncClient with workers that
// linger an hour, so that only a full batch or Close sends: its batches
// are the same however slowly it runs (under callgrind, say), where a
// linger of milliseconds sends what a slow run has queued when it ends.
func BenchmarkAsyncClientFull(b *testing.B) {
	r, err := emitter.NewREST("http://discard.invalid", datahub.WithHTTPClient(&http.Client{Transport: discard{}}))
	if err != nil {
		b.Fatal(err)
	}
	const perOp, goroutines = 1000, 4
	ps := make([]emitter.Proposal, perOp)
	for i := range ps {
		ps[i] = propertiesProposal(b, i, 0)
	}
	ctx := context.Background()
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		a := emitter.NewAsync(r, emitter.WithLinger(time.Hour))
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				for i := g; i < perOp; i += goroutines {
					if err := a.Emit(ctx, ps[i]); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if err := a.Close(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime(b)-cpu).Nanoseconds())/float64(b.N*perOp), "cpu-ns/proposal")
}
