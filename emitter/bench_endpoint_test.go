package emitter_test

import (
	"context"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// BenchmarkEmitBatchedEndpoint is one side of BenchmarkEmitBatchedEndpoints
// at a time (restli, openapi): batches of 200 datasetProperties proposals,
// each a new version, emitted to the in-process mock over HTTP, without
// the other side's requests between them. One op is one Emit of 200; a
// profile or an instruction count (callgrind) of one side shows its cost
// end to end (client, net/http, handler, answer), and reports the
// process's CPU time a proposal.
func BenchmarkEmitBatchedEndpoint(b *testing.B) {
	for _, side := range []struct {
		name string
		opts []emitter.Option
	}{
		{"restli", nil},
		{"openapi", []emitter.Option{datahub.WithEndpoint(datahub.EndpointOpenAPI)}},
	} {
		b.Run(side.name, func(b *testing.B) {
			s := mockserver.Start(b, mockserver.WithRecording(false))
			r, err := emitter.NewREST(s.URL(), side.opts...)
			if err != nil {
				b.Fatal(err)
			}
			const size = 200
			ctx := context.Background()
			ps := make([]emitter.Proposal, size)
			for i := range size {
				ps[i] = propertiesProposal(b, i, 0)
			}
			b.ReportAllocs()
			n := 0
			cpu := cpuTime(b)
			for b.Loop() {
				n++
				for i := range size {
					ps[i].Aspect = aspects.DatasetProperties{Description: aspects.Ptr(description(i, n))}
				}
				if err := r.Emit(ctx, ps...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime(b)-cpu).Nanoseconds())/float64(b.N*size), "cpu-ns/proposal")
		})
	}
}
