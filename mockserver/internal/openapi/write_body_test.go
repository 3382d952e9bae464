package openapi

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// invalidUTF8Spots are the places of an emitter's item (chunkItems[0] and
// [4]) where TestBatchInvalidUTF8 puts bytes that are not UTF-8: the text
// each replaces and its replacement.
var invalidUTF8Spots = []struct {
	item     int
	old, new string
}{
	{0, `hive,db.a`, "hive,db\xff.a"},                                      // the URN
	{0, `"description":"a"`, "\"description\":\"a\xfe\xff\""},              // a string of the value
	{0, `"customProperties":{}`, "\"customProperties\":{\"k\xc3\":\"v\"}"}, // a key of the value, a byte cut short
	{0, `"tags":[]`, "\"tags\":[]\xff"},                                    // the value's text outside strings
	{0, `"clientId":"datahub-go"`, "\"clientId\":\"datahub\xe2\x82-go\""},  // systemMetadata
	{0, `"datasetProperties":`, "\"datasetProperties\xff\":"},              // the aspect's key
	{4, `"If-Version-Match":"2"`, "\"If-Version-Match\":\"2\xff\""},        // a header
	{4, `{"urn":`, "{\"ur\xffn\":"},                                        // the URN's key
	{0, `{"urn":`, "\xff{\"urn\":"},                                        // before the item, between two
}

// TestBatchInvalidUTF8: a batch body that is not valid UTF-8, in any
// part of any item of a list read in chunks (the first, one in the middle,
// the last), answers, records and stores as the same body with U+FFFD for
// each bad byte, which is valid, on the quick path and the general one:
// the body's check is not left out of the quick path's chunks. And a list
// with such an item is not taken by quickItems, in one piece or in chunks.
func TestBatchInvalidUTF8(t *testing.T) {
	t.Parallel()
	const n = 150
	for _, spot := range invalidUTF8Spots {
		for _, at := range []int{0, n / 2, n - 1} {
			list := chunkList(chunkItems[spot.item], n)
			urn := fmt.Sprintf("db.%c%d,PROD)", 'a'+spot.item, at)
			i := bytes.Index(list, []byte(urn))
			if i < 0 {
				t.Fatalf("no item %s", urn)
			}
			start := bytes.LastIndex(list[:i], []byte(`{"urn":`)) // the item's
			j := bytes.Index(list[start:], []byte(spot.old))
			if j < 0 {
				t.Fatalf("item %d has no %s", spot.item, spot.old)
			}
			j += start
			bad := append(append(append([]byte(nil), list[:j]...), spot.new...), list[j+len(spot.old):]...)
			fixed := replaceInvalidUTF8(bad)
			if bytes.Equal(bad, fixed) {
				t.Fatalf("%q is valid UTF-8", spot.new)
			}
			for k := 1; k <= 3; k++ {
				var ps []gms.Proposal
				var echoes []proposalEcho
				if quickItemsIn(k, bad, &ps, &echoes) {
					t.Errorf("%q in item %d taken by quickItems in %d chunks", spot.new, at, k)
				}
			}
			for _, quick := range []bool{true, false} {
				targets := []string{writeTargets[0], writeTargets[2]} // synchronous and async
				if !quick {
					targets = targets[:1]
				}
				for _, target := range targets {
					got, want := newWriteSide(t, quick), newWriteSide(t, quick)
					gs, gb := got.post(t, target, bad)
					ws, wb := want.post(t, target, fixed)
					if gs != ws || gb != wb {
						t.Fatalf("quick %v, %q in item %d: POST %s\ngot  %d %.300s\nwant %d %.300s", quick, spot.new, at, target, gs, gb, ws, wb)
					}
					if diff := cmp.Diff(want.received, got.received); diff != "" {
						t.Fatalf("quick %v, %q in item %d: recorded (-want +got):\n%.2000s", quick, spot.new, at, diff)
					}
					if diff := cmp.Diff(want.rows(t), got.rows(t)); diff != "" {
						t.Fatalf("quick %v, %q in item %d: stored (-want +got):\n%.2000s", quick, spot.new, at, diff)
					}
				}
			}
		}
	}
}

// TestQuickItemsOwnMemory: the values and systemMetadata quickItems
// decodes (in one piece and in chunks) have memory of their own, not the
// list's (which is the pooled body's), and hold the general path's text
// once the list is overwritten.
func TestQuickItemsOwnMemory(t *testing.T) {
	t.Parallel()
	s := newQuickHandler(t)
	lists := [][]byte{chunkList(chunkItems[0], 150)}
	for _, item := range chunkItems {
		lists = append(lists, chunkList(item, 40))
	}
	for _, list := range lists {
		want, _, e := generalItems(s, list)
		if e != nil {
			t.Fatal(e.err)
		}
		for _, k := range []int{1, 2, 3} {
			body := bytes.Clone(list)
			var ps []gms.Proposal
			var echoes []proposalEcho
			if !quickItemsIn(k, body, &ps, &echoes) {
				t.Fatalf("not taken in %d chunks: %.100s", k, list)
			}
			for i := range body {
				body[i] = 'x'
			}
			if len(ps) != len(want) {
				t.Fatalf("%d chunks: %d proposals, want %d", k, len(ps), len(want))
			}
			for i := range ps {
				if string(ps[i].Aspect) != string(want[i].Aspect) || string(ps[i].SystemMetadata) != string(want[i].SystemMetadata) {
					t.Fatalf("%d chunks, proposal %d after the list was overwritten: %s %s, want %s %s", k, i,
						ps[i].Aspect, ps[i].SystemMetadata, want[i].Aspect, want[i].SystemMetadata)
				}
			}
		}
	}
}
