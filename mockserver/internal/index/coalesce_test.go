package index

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// TestRowSetAgreesWithMap: rowSet.add reports a row seen exactly when a
// map of (URN, aspect) has it, over catch-ups of many sizes (tables of
// every size, full up to half, reused and regrown) with rows that share
// URNs, aspects and prefixes.
func TestRowSetAgreesWithMap(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(34, 2))
	var s rowSet
	for round := range 200 {
		n := 1 + rng.IntN(3000)
		if round%10 == 0 {
			n = 1 + rng.IntN(64)
		}
		rows := 1 + rng.IntN(n)
		due := make([]store.Event, n)
		for i := range due {
			r := rng.IntN(rows)
			due[i] = store.Event{Kind: store.EventUpsert, URN: fmt.Sprintf("urn:li:corpuser:u%d", r/3),
				Aspect: []string{"status", "ownership", "globalTags"}[r%3]}
		}
		s.reset(n)
		type key struct{ urn, aspect string }
		seen := map[key]bool{}
		for i := n - 1; i >= 0; i-- {
			k := key{due[i].URN, due[i].Aspect}
			if got, want := s.add(due, i), seen[k]; got != want {
				t.Fatalf("round %d: add(%d) %v = %v, want %v", round, i, k, got, want)
			}
			seen[k] = true
		}
		if l := len(s.slots); l < 2*n || l&(l-1) != 0 {
			t.Fatalf("round %d: %d slots for %d events", round, l, n)
		}
	}
}
