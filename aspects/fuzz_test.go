package aspects

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode checks that Decode never panics, and that what it accepts
// encodes, decodes again, and encodes to the same bytes.
func FuzzDecode(f *testing.F) {
	names := TypedAspects()
	for i, name := range names {
		if _, hand := typed[name]; !hand {
			continue // golden files are kept for the hand-written aspects
		}
		for _, variant := range []string{"full", "minimal"} {
			b, err := os.ReadFile(filepath.Join("testdata", name+"."+variant+".json"))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), b)
		}
	}
	f.Add(uint8(0), []byte(`{"customProperties":null}`))
	f.Add(uint8(0), []byte(`{"Description":"x","description":"y"}`))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := names[int(which)%len(names)]
		v, err := Decode(name, data)
		if err != nil {
			return
		}
		first, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("Decode(%s) accepted %q but Marshal fails: %v", name, data, err)
		}
		v2, err := Decode(name, first)
		if err != nil {
			t.Fatalf("Decode(%s) rejects its own encoding %s: %v", name, first, err)
		}
		second, err := json.Marshal(v2)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, second) {
			t.Fatalf("encoding not stable for %s:\n%s\n%s", name, first, second)
		}
	})
}
