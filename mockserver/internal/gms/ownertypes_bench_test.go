package gms

import (
	"fmt"
	"testing"

	"github.com/catalogkit/datahub-go/internal/jsonx"
)

// BenchmarkOwnerTypesDistinct measures the ownerTypes hook on values never
// seen before (each its own owner, 65,536 of them in turn), as an ingestion
// of many entities sees them: given each value's hash and writing to an
// arena, as the ingest does.
func BenchmarkOwnerTypesDistinct(b *testing.B) {
	const n = 1 << 16
	ins := make([][]byte, n)
	hs := make([]uint64, n)
	for i := range ins {
		ins[i] = fmt.Appendf(nil, `{"owners":[{"owner":"urn:li:corpuser:fbar%d","type":"DATAOWNER"}],"ownerTypes":{},"lastModified":{"time":0,"actor":"urn:li:corpuser:fbar%d"}}`, i, i)
		hs[i] = jsonx.Hash(ins[i])
	}
	arena := &valueArena{size: 1 << 30}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if arena.blocks > 1<<20 {
			*arena = valueArena{size: 1 << 30}
		}
		k := i % n
		if _, _, ok := ownerTypesHashed(ins[k], hs[k], arena); !ok {
			b.Fatal("unchanged")
		}
		i++
	}
}
