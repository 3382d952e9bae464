package emitter_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// BenchmarkEmitBatchedSide runs one side of BenchmarkEmitBatchedInterleaved
// alone, with the same untimed setup each round (both sides' proposals
// built, the raw side's bodies recorded): "emit" is REST.Emit of 200
// changing proposals, "raw" the plain net/http POST of the bytes the
// emitter sends for another 200. Instruction counts (callgrind) or
// syscall counts (strace) of two run lengths of each give the side's own
// cost in situ, the mock's work included, which the interleaved
// benchmark's ratio hides.
func BenchmarkEmitBatchedSide(b *testing.B) {
	for _, side := range []string{"emit", "raw"} {
		b.Run(side, func(b *testing.B) {
			s := mockserver.Start(b, mockserver.WithRecording(false))
			r, err := emitter.NewREST(s.URL())
			if err != nil {
				b.Fatal(err)
			}
			rec := &recorder{}
			enc := newRecording(b, rec)
			hc := pooledClient()
			url := s.URL() + "/aspects?action=ingestProposalBatch"
			const size = 200
			ctx := context.Background()
			ps, raw := make([]emitter.Proposal, size), make([]emitter.Proposal, size)
			props := newRoundProposals(b, size)
			n := 0
			for b.Loop() {
				props.fill(b, ps, 2*n)
				props.fill(b, raw, 2*n+1)
				n++
				bodies, header := rawBodies(b, rec, enc, raw)
				if side == "emit" {
					if err := r.Emit(ctx, ps...); err != nil {
						b.Fatal(err)
					}
					continue
				}
				for _, body := range bodies {
					postBatch(b, hc, url, header, body)
				}
			}
		})
	}
}

// TestRoundProposals: the benchmarks' rounds are built of the proposals
// propertiesProposal returns, equal in every field.
func TestRoundProposals(t *testing.T) {
	t.Parallel()
	ps := make([]emitter.Proposal, 5)
	newRoundProposals(t, len(ps)).fill(t, ps, 7)
	for i, p := range ps {
		if want := propertiesProposal(t, i, 7); !reflect.DeepEqual(p, want) {
			t.Errorf("proposal %d: %+v, want %+v", i, p, want)
		}
	}
}
