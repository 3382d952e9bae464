package mockserver

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// checkMCPIndex holds mcpIndex to the scans it replaced: wire.Map.get of
// each field and hasKeyOutside(ms, mcpFields).
func checkMCPIndex(t *testing.T, ms wire.Map) {
	t.Helper()
	var at mcpIndex
	if got, want := at.index(ms), !hasKeyOutside(ms, mcpFields); got != want {
		t.Fatalf("index(%v) = %v, want %v", ms, got, want)
	}
	for f, name := range mcpFields {
		if mcpFieldIndex(name) != f {
			t.Fatalf("mcpFieldIndex(%q) = %d, want %d", name, mcpFieldIndex(name), f)
		}
		want, wantOK := ms.Get(name)
		var got []byte
		ok := at[f] > 0
		if ok {
			got = ms[at[f]-1].Value
		}
		if ok != wantOK || !bytes.Equal(got, want) || ok && &got[0] != &want[0] {
			t.Fatalf("field %s of %v: %q, %v; want %q, %v", name, ms, got, ok, want, wantOK)
		}
	}
	for _, name := range []string{"", "aspectname", "aspect ", "proposal", "value"} {
		if mcpFieldIndex(name) != -1 {
			t.Fatalf("mcpFieldIndex(%q) = %d", name, mcpFieldIndex(name))
		}
	}
}

func TestMCPIndex(t *testing.T) {
	t.Parallel()
	keys := append(slices.Clone(mcpFields), "unknown", "Aspect", "")
	r := rand.New(rand.NewSource(7))
	for range 5000 {
		ms := wire.Map{}
		for j := range r.Intn(14) {
			ms = append(ms, pdl.Member{Key: keys[r.Intn(len(keys))], Value: []byte{byte('0' + j%10)}})
		}
		checkMCPIndex(t, ms)
	}
}
