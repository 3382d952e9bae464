package emitter

import (
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
)

// BenchmarkEncodeProposal measures the encoding of one proposal's body,
// done once per Emit (retries resend the bytes).
func BenchmarkEncodeProposal(b *testing.B) {
	p, err := NewProposal(datasetURN, aspects.DatasetProperties{
		Description:      aspects.Ptr("One row per order, loaded nightly from the shop database."),
		CustomProperties: map[string]string{"owner": "data-eng", "tier": "gold"},
	})
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 2048)
	b.ReportAllocs()
	for b.Loop() {
		buf, err = appendProposal(buf[:0], &p, 1700000000000)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}
