package gms

import (
	"bytes"
	"testing"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
)

var compactSeeds = []string{
	`{}`,
	` { } `,
	`{"a":1}`,
	"{\"a\" :\t[1, 2,\r\n3], \"b\": {\"c\": \"x y\"}}",
	`{"s": "a \" b \\", "t": " \\\" "}`,
	`{"u": "\u00e9 \ud83d\ude00", "v": "é ö"}`,
	`  "only a string with spaces"  `,
	`[ true , false , null , -1.5e3 ]`,
	`{"owners": [{"owner": "urn:li:corpuser:fbar", "type": "DATAOWNER"}], "ownerTypes": {}}`,
}

// TestValueArena compacts several values into one arena: each comes out as
// jsonx.Compact's, none is changed by an append to another, and a value the
// arena has no room left for is allocated.
func TestValueArena(t *testing.T) {
	t.Parallel()
	a := &valueArena{}
	for _, s := range compactSeeds[:4] {
		a.size += len(s)
	}
	var got [][]byte
	for _, s := range append(compactSeeds[:4:4], compactSeeds[8]) { // the last has no room left
		c, ok := pdl.CompactSharedTake([]byte(s), arenaMemory{a})
		if !ok {
			t.Fatalf("CompactSharedTake(%q) refused it", s)
		}
		got = append(got, c)
	}
	for i := range got {
		_ = append(got[i], "!!!!"...) // must not reach a neighbour
	}
	for i, s := range append(compactSeeds[:4:4], compactSeeds[8]) {
		if want := jsonx.Compact([]byte(s)); !bytes.Equal(got[i], want) {
			t.Errorf("value %d = %q, want %q", i, got[i], want)
		}
	}
	if len(a.buf) > a.size {
		t.Errorf("arena holds %d bytes, more than its size %d", len(a.buf), a.size)
	}
}
