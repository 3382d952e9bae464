package index

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// BenchmarkSearchText is a plain free-text search ("orders daily", no
// operator) over 2,000 datasets, a tenth of them matching: the cost of the
// term path that every query without operators takes.
func BenchmarkSearchText(b *testing.B) {
	const n = 2000
	clk := time.UnixMilli(1_700_000_000_000)
	st := store.OpenMemory(func() time.Time { return clk })
	x := New(st, Options{Clock: func() time.Time { return clk }})
	b.Cleanup(func() { x.Close(); _ = st.Close() })
	var setup []store.Write
	for i := range n {
		name := "payments"
		if i%10 == 0 {
			name = "orders daily"
		}
		setup = append(setup, store.Write{URN: fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:foo,t%d,PROD)", i),
			Aspect: "datasetProperties", Value: json.RawMessage(`{"name":"` + name + `","description":"a table of the shop"}`)})
	}
	if _, err := st.Apply(setup); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r, err := x.Search(Query{Text: "orders daily", Types: []string{"dataset"}, Count: 10, SkipAggregates: true})
		if err != nil || r.Total != n/10 {
			b.Fatalf("%d results, %v", r.Total, err)
		}
	}
}
