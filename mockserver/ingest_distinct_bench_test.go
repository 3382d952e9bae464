package mockserver

import "testing"

// BenchmarkIngestDecodeDistinct is BenchmarkIngestDecode with a value of
// its own in every proposal.
func BenchmarkIngestDecodeDistinct(b *testing.B) {
	const n = 200
	bodies := ingestBodiesDistinct(b, n)
	b.SetBytes(int64(len(bodies[0])))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if _, _, rerr := decodeIngest(bodies[i%2], true); rerr != nil {
			b.Fatal(rerr)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(i*n), "ns/proposal")
}

// BenchmarkIngestBatchHandlerDistinct is BenchmarkIngestBatchHandler with
// a value of its own in every proposal.
func BenchmarkIngestBatchHandlerDistinct(b *testing.B) {
	const n = 200
	benchBatches(b, "/aspects?action=ingestProposalBatch", ingestBodiesDistinct(b, n), n)
}
