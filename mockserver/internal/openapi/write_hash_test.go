package openapi

import (
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestEchoURNHash: the URN hash an echo carries, from quickItems (in one
// piece and in chunks) or from the general decode, is gms.URNHash of its
// URN, which appendRuns makes for an echo that carries none; and a batch
// whose URN comes back after another one's (the answer's urnSet finds
// the repeat by the carried hashes, and leaves the answer to echoObjects)
// answers, records and stores as on the general path.
func TestEchoURNHash(t *testing.T) {
	t.Parallel()
	s := newQuickHandler(t)
	const a, b = "urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)", "urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)"
	repeat := `[{"urn":"` + a + `","status":{"value":{"removed":false}}},` +
		`{"urn":"` + b + `","status":{"value":{"removed":false}}},` +
		`{"urn":"` + a + `","datasetProperties":{"value":{"name":"n"}}}]`
	lists := [][]byte{[]byte(repeat), chunkList(chunkItems[0], 150)}
	for _, item := range chunkItems {
		lists = append(lists, chunkList(item, 40))
	}
	check := func(how string, echoes []proposalEcho) {
		t.Helper()
		if len(echoes) == 0 {
			t.Fatalf("%s: no echoes", how)
		}
		for _, ec := range echoes {
			if want := gms.URNHash(ec.urn); ec.urnHash != want || echoURNHash(&ec) != want {
				t.Fatalf("%s: %s carries hash %#x, gms.URNHash %#x", how, ec.urn, ec.urnHash, want)
			}
		}
	}
	for _, list := range lists {
		for _, k := range []int{1, 2, 3} {
			var ps []gms.Proposal
			var echoes []proposalEcho
			if !quickItemsIn(k, list, &ps, &echoes) {
				t.Fatalf("not taken in %d chunks: %.100s", k, list)
			}
			check("quickItems", echoes)
		}
		_, echoes, e := generalItems(s, list)
		if e != nil {
			t.Fatal(e.err)
		}
		check("general", echoes)
	}
	if echoURNHash(&proposalEcho{urn: a}) != gms.URNHash(a) {
		t.Error("echoURNHash of an echo without a hash is not gms.URNHash")
	}
	quick, general := newWriteSide(t, true), newWriteSide(t, false)
	for _, target := range writeTargets {
		checkQuickWrite(t, quick, general, target, []byte(repeat))
	}
}
