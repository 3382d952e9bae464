package emitter_test

import (
	"reflect"
	"testing"

	"github.com/catalogkit/datahub-go/emitter"
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
			x := newBatchedRounds(b)
			for b.Loop() {
				bodies, header := x.next(b)
				if side == "emit" {
					x.emit(b)
				} else {
					x.post(b, bodies, header)
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
