package aspects_test

import (
	"encoding/json"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/pdl/gen/gotypes"
	"github.com/catalogkit/datahub-go/internal/testshared"
)

// BenchmarkAppendJSONStringAspects appends, in the escaped form a Rest.li
// proposal carries, one value of each of the 255 aspects with every field
// set (as TestAppendJSONMatchesReflection makes them), each held by an
// Aspect as Decode returns it: a round is all of them.
func BenchmarkAppendJSONStringAspects(b *testing.B) {
	m, err := gotypes.Load(testshared.Path(b, "reference", "datahub-pegasus"), ".")
	if err != nil {
		b.Fatal(err)
	}
	g := &valueGen{decls: m.Decls, entities: map[string]bool{}}
	var values []aspects.Aspect
	for _, a := range m.Aspects {
		in, err := json.Marshal(g.record(a.Record, 0))
		if err != nil {
			b.Fatal(err)
		}
		v, err := aspects.Decode(a.Name, in)
		if err != nil {
			b.Fatalf("Decode(%s, %s): %v", a.Name, in, err)
		}
		values = append(values, v)
	}
	buf := make([]byte, 0, 1<<16)
	b.ResetTimer()
	for b.Loop() {
		for _, v := range values {
			if _, err := aspects.AppendJSONString(buf[:0], v); err != nil {
				b.Fatal(err)
			}
		}
	}
}
