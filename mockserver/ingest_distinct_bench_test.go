package mockserver

import "testing"

// BenchmarkIngestDecodeDistinct is BenchmarkIngestDecode with a value of
// its own in every proposal.
func BenchmarkIngestDecodeDistinct(b *testing.B) { benchDecode(b, ingestBodiesDistinct) }

// BenchmarkIngestBatchHandlerDistinct is BenchmarkIngestBatchHandler with
// a value of its own in every proposal.
func BenchmarkIngestBatchHandlerDistinct(b *testing.B) {
	const n = 200
	benchBatches(b, "/aspects?action=ingestProposalBatch", ingestBodiesDistinct(b, n), n)
}
