package emitter

import (
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
)

// BenchmarkEncodeV3 measures the OpenAPI encoding of a batch of 200
// proposals, done once per Emit.
func BenchmarkEncodeV3(b *testing.B) {
	r, err := NewREST("http://localhost:8080", datahub.WithEndpoint(datahub.EndpointOpenAPI))
	if err != nil {
		b.Fatal(err)
	}
	p, err := NewProposal(datasetURN, aspects.DatasetProperties{
		Description:      aspects.Ptr("One row per order, loaded nightly from the shop database."),
		CustomProperties: map[string]string{"owner": "data-eng", "tier": "gold"},
	})
	if err != nil {
		b.Fatal(err)
	}
	ps := make([]Proposal, 200)
	for i := range ps {
		ps[i] = p
	}
	b.ReportAllocs()
	for b.Loop() {
		items, _ := r.encodeV3(ps, false)
		if len(items[0].enc) == 0 {
			b.Fatal("nothing encoded")
		}
	}
}
