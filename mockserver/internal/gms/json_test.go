package gms

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/jsonx"
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

// TestCompactValid checks compactValid against jsonx.Compact (as
// encoding/json's Compact) on valid JSON, and that it shares b when nothing
// is dropped.
func TestCompactValid(t *testing.T) {
	t.Parallel()
	for _, s := range compactSeeds {
		got, want := compactValid(nil, []byte(s)), jsonx.Compact([]byte(s))
		if !bytes.Equal(got, want) {
			t.Errorf("compactValid(%q) = %q, want %q", s, got, want)
		}
	}
	b := []byte(`{"a":"x y","b":[1,2]}`)
	if got := compactValid(nil, b); &got[0] != &b[0] {
		t.Errorf("compactValid(%q) copied compact JSON", b)
	}
}

func FuzzCompactValid(f *testing.F) {
	for _, s := range compactSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(s)); err != nil {
			t.Fatal(err)
		}
		if got := compactValid(nil, []byte(s)); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("compactValid(%q) = %q, want %q", s, got, want.Bytes())
		}
	})
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
		got = append(got, compactValid(a, []byte(s)))
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
