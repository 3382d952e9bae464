package emitter_test

import (
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestEmitNonASCIIReadsBack writes text outside ASCII, alone and in a batch,
// and reads it back unchanged from the mock server.
func TestEmitNonASCIIReadsBack(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	for i, text := range []string{"café crème", "売上テーブル", "emoji 😀 and \u2028"} {
		want := aspects.DatasetProperties{Description: aspects.Ptr(text)}
		u := datasetURN(t, i)
		p, err := emitter.NewProposal(u, want)
		if err != nil {
			t.Fatal(err)
		}
		other, err := emitter.NewProposal(datasetURN(t, 100+i), want)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Emit(t.Context(), p); err != nil {
			t.Fatalf("Emit(%q): %v", text, err)
		}
		if err := r.Emit(t.Context(), p, other); err != nil {
			t.Fatalf("Emit batch (%q): %v", text, err)
		}
		s.CheckAspect(t, u.String(), want)
		s.CheckAspect(t, datasetURN(t, 100+i).String(), want)
	}
}
