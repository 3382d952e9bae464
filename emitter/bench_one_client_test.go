package emitter_test

import (
	"context"
	"net/http"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
)

// BenchmarkEmitOneClient is the emitter's own cost of one Emit of one
// proposal (one ingestProposal request), as in BenchmarkEmitOneInterleaved:
// checking, encoding and handing the request to net/http, whose transport
// drops it without a network. Run it with -cpu 1.
func BenchmarkEmitOneClient(b *testing.B) {
	r, err := emitter.NewREST("http://discard.invalid", datahub.WithHTTPClient(&http.Client{Transport: discard{}}))
	if err != nil {
		b.Fatal(err)
	}
	p := benchProposal(b)
	ctx := context.Background()
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		if err := r.Emit(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime(b)-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkRawOneClient is BenchmarkEmitOneClient's raw loop: a plain
// net/http POST of the emitter's body, on a transport that drops it. The
// difference is the emitter's own cost per request.
func BenchmarkRawOneClient(b *testing.B) {
	rec := &recorder{}
	bodies, header := rawBodies(b, rec, newRecording(b, rec), []emitter.Proposal{benchProposal(b)})
	hc := &http.Client{Transport: discard{}}
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		postBatch(b, hc, "http://discard.invalid/aspects?action=ingestProposal", header, bodies[0])
	}
	b.ReportMetric(float64((cpuTime(b)-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
