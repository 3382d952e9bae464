package mockserver

import (
	"bytes"
	"fmt"
	"testing"
)

// distinctBodies are ingestBodies whose proposals each write a value of
// their own (the owner named after the dataset), as an emitter of
// per-entity metadata sends them: no value repeats the one before it.
func distinctBodies(b *testing.B, n int) [2][]byte {
	var out [2][]byte
	for v, body := range ingestBodies(b, n) {
		var buf bytes.Buffer
		i := 0
		for {
			j := bytes.Index(body, []byte(`urn:li:corpuser:fba`))
			if j < 0 {
				buf.Write(body)
				break
			}
			j += len(`urn:li:corpuser:fba`)
			buf.Write(body[:j])
			buf.WriteString(fmt.Sprintf("%c%d", body[j], i/2)) // the two owners of a value alike
			body = body[j+1:]
			i++
		}
		out[v] = buf.Bytes()
	}
	return out
}

// BenchmarkIngestDecodeDistinct is BenchmarkIngestDecode with a value of
// its own in every proposal.
func BenchmarkIngestDecodeDistinct(b *testing.B) {
	const n = 200
	bodies := distinctBodies(b, n)
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
	benchBatches(b, "/aspects?action=ingestProposalBatch", distinctBodies(b, n), n)
}
