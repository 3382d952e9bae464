package emitter_test

import (
	"context"
	"net/http"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
)

// BenchmarkEmitBatchedClientOpenAPI is BenchmarkEmitBatchedClient through
// OpenAPI v3: the emitter's own cost of a batched Emit of 200 proposals
// (one batch POST), its request dropped by the transport without a
// network.
func BenchmarkEmitBatchedClientOpenAPI(b *testing.B) {
	r, err := emitter.NewREST("http://discard.invalid", datahub.WithHTTPClient(&http.Client{Transport: discard{}}),
		datahub.WithEndpoint(datahub.EndpointOpenAPI))
	if err != nil {
		b.Fatal(err)
	}
	const size = 200
	ps := make([]emitter.Proposal, size)
	for i := range ps {
		ps[i] = propertiesProposal(b, i, 0)
	}
	ctx := context.Background()
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		if err := r.Emit(ctx, ps...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime(b)-cpu).Nanoseconds())/float64(b.N*size), "cpu-ns/proposal")
}
