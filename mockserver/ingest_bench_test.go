package mockserver

import "testing"

// BenchmarkIngestDecode is the part of BenchmarkIngestBatchHandler before
// the core: the decode of a body of 200 proposals into them.
func BenchmarkIngestDecode(b *testing.B) { benchDecode(b, ingestBodies) }

// benchDecode decodes the two bodies of 200 proposals bodiesOf makes, in
// turns.
func benchDecode(b *testing.B, bodiesOf func(*testing.B, int) [2][]byte) {
	const n = 200
	bodies := bodiesOf(b, n)
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
